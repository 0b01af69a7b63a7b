import Foundation
import ReplayKit

// The whole command lives in ReplayKit so the tests run what users run; this only exits.
exit(ReplayTool.main(Array(CommandLine.arguments.dropFirst())).rawValue)
