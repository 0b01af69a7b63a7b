import Confinement
import ReplayKit

/// Every `replay-bench` measurement runs confined as a replay is, with nowhere to write: what it
/// reads (a corpus, a model) it cannot leak to a file.
enum BenchConfinement {
    /// Confines the process; nil when it is, else the exit code after saying why after `command`.
    static func confine(_ command: String, diagnostics: (String) -> Void) -> ExitCode? {
        do {
            _ = try Sandbox.confine(SandboxPolicy(writableDirectories: []))
            return nil
        } catch {
            diagnostics("\(command): refusing to run: the kernel cannot confine this run: \(error.description)")
            return .sandboxUnavailable
        }
    }
}
