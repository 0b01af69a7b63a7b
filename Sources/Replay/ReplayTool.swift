import Audit
import Confinement
import Engine
import ReplayKit

/// `replay`: the subcommand a command line names, and the exit code it ends with.
///
/// `main.swift` is one line over this, so tests drive the same code a user does. `replay audit`
/// is the one subcommand above the run pipeline (it runs this same executable as its child,
/// under strace); every other command is the pipeline's own (`RunCommand`).
public enum ReplayTool {
    /// Runs `arguments` (without the program name); diagnostics go to `diagnostics` (stderr).
    ///
    /// `sandboxed` confines the process (Landlock and seccomp) to writing under `--out` before any
    /// record is read. It must be the only thread then, so in-process tests pass `false`, which
    /// the report records as unsandboxed. `confinement` is what confines it: the kernel's
    /// sandbox, or in a test one that fails as a kernel without Landlock would (exit 8).
    /// `stopRequest` gives a run the request that stops it early (exit 10).
    public static func main(_ arguments: [String], diagnostics: (String) -> Void = RunCommand.standardError,
                            sandboxed: Bool = true, confinement: @escaping Sandboxing.Confine = Sandbox.confine,
                            stopRequest: (() -> StopRequest)? = nil) -> ExitCode {
        if arguments.first == "audit" {
            return AuditCommand.run(Array(arguments.dropFirst()), diagnostics: diagnostics)
        }
        return RunCommand.main(arguments, sandboxing: Sandboxing(enabled: sandboxed, confine: confinement), diagnostics: diagnostics,
                               stopRequest: stopRequest)
    }
}
