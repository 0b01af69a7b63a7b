import Engine
import Privacy

/// One of `replay`'s subcommands: the word that names it and how it runs. `replay`'s dispatcher
/// (`ReplayTool`, in the Replay target) holds them in one table; a command line whose first word
/// names none is a run (`RunCommand`).
public protocol Subcommand: Sendable {
    /// The word after `replay` that names it: "merge", "compare".
    static var name: String { get }
    /// Runs `arguments` (after the name) and says how the command ends.
    static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode
    /// The types of the JSON result files it writes: the auditor decodes each file it finds
    /// with the one whose name and schema fit, so a new file needs no line in the auditor.
    static var documents: [any ResultDocument.Type] { get }
}

extension Subcommand {
    public static var documents: [any ResultDocument.Type] { [] }
}

/// What every command is handed besides its arguments.
public struct CommandContext {
    /// How the command confines itself before it reads a record.
    public var sandboxing: Sandboxing
    /// Where diagnostics go (stderr; a test's list).
    public var diagnostics: (String) -> Void
    /// The request that stops a run early (exit 10): the executable's is raised by SIGTERM and
    /// SIGINT (`StopSignals.install`); nil leaves signals alone.
    public var stopRequest: (() -> StopRequest)?

    public init(sandboxing: Sandboxing, diagnostics: @escaping (String) -> Void = RunCommand.standardError,
                stopRequest: (() -> StopRequest)? = nil) {
        self.sandboxing = sandboxing
        self.diagnostics = diagnostics
        self.stopRequest = stopRequest
    }
}
