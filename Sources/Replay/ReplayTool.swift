import Audit
import Compare
import Confinement
import Engine
import Privacy
import Probe
import ReplayKit
import Suite

/// `replay`: the subcommand a command line names, and the exit code it ends with.
///
/// `main.swift` is one line over this, so tests drive the same code a user does. The table is the
/// one list of subcommands; a line whose first word names none of them is a run (`RunCommand`).
public enum ReplayTool {
    /// Every subcommand, by the word that names it. `replay audit` is the one above the run
    /// pipeline: it runs this same executable as its child, under strace.
    public static let subcommands: [any Subcommand.Type] = [
        MergeCommand.self, CompareCommand.self, FlywheelCommand.self, AuditCommand.self, VerifyCommand.self,
        SuiteCommand.self, ProbeCommand.self, PromptsCommand.self, ProfilesCommand.self, CorpusCommand.self,
    ]

    /// The types of every JSON result file the commands write (`Subcommand.documents`).
    public static var documents: [any ResultDocument.Type] { RunCommand.documents + subcommands.flatMap { $0.documents } }

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
        withoutActuallyEscaping(diagnostics) { diagnostics in
            let context = CommandContext(sandboxing: Sandboxing(enabled: sandboxed, confine: confinement), diagnostics: diagnostics,
                                         stopRequest: stopRequest)
            if let name = arguments.first, let command = subcommands.first(where: { $0.name == name }) {
                return command.run(Array(arguments.dropFirst()), context)
            }
            return RunCommand.run(arguments, context)
        }
    }
}
