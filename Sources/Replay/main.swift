import ReplayKit
