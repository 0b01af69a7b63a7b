import Foundation
import ReplayKit

// The whole command lives in ReplayKit so the tests run what users run; this only exits.
// SIGTERM and SIGINT ask a run to stop and keep what it has (exit 10).
exit(ReplayTool.main(Array(CommandLine.arguments.dropFirst()), stopRequest: StopSignals.install).rawValue)
