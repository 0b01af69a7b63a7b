import Foundation
import ReplayKit

// SIGTERM and SIGINT ask a run to stop and keep what it has (exit 10).
exit(ReplayTool.main(Array(CommandLine.arguments.dropFirst()), stopRequest: StopSignals.install).rawValue)
