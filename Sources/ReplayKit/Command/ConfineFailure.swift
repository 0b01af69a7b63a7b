import Confinement

/// Why `CommandStart.confine` stopped a run before it read a record, in the words it prints.
enum ConfineFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--out` is too broad: a usage error.
    case outDirectoryRefused(OutputDirectory.Refusal)
    /// `--out` cannot be made ready for the results: nothing could be written there.
    case outDirectoryUnusable(directory: String, problem: UnusableDirectory)
    /// The kernel cannot confine the run, and `--allow-unsandboxed` was not given.
    case sandbox(SandboxError)
    /// `--out` is another process's now, or holds a finished run (without `--force`).
    case outDirectoryClaimed(OutputDirectory.Claim.Refusal)

    /// What is wrong with an output directory that cannot be used.
    enum UnusableDirectory: Sendable, Equatable {
        /// It (or a directory above it) cannot be created; `reason` is the system's message.
        case cannotBeCreated(reason: String)
        /// An earlier run's results in it cannot be removed.
        case cannotBeCleared(reason: String)
        /// A file cannot be written in it (a read-only or full file system, no permission).
        case cannotBeWritten(reason: String)
    }

    var exitCode: ExitCode {
        switch self {
        case .outDirectoryRefused: .usage
        case .outDirectoryUnusable: .output
        case .sandbox: .sandboxUnavailable
        case .outDirectoryClaimed: .usage
        }
    }

    var description: String {
        switch self {
        case .outDirectoryRefused(let refusal):
            refusal.description
        case let .outDirectoryUnusable(directory, .cannotBeCreated(reason)):
            "the output directory \(directory) cannot be created (\(reason)), so no report can be written:"
                + " give --out a directory that can be made."
        case let .outDirectoryUnusable(directory, .cannotBeCleared(reason)):
            "an earlier run's results in the output directory \(directory) cannot be removed (\(reason)),"
                + " so no report can be written there: give --out another directory."
        case let .outDirectoryUnusable(directory, .cannotBeWritten(reason)):
            "nothing can be written in the output directory \(directory) (\(reason)), so neither a checkpoint nor a report"
                + " could be: nothing was replayed. Free space there, or give --out another directory."
        case .sandbox(let error):
            "refusing to run: "
                + (error.isAboutHowTheProcessWasStarted ? "it was started holding what the sandbox cannot confine" : "the kernel cannot confine this run")
                + ": \(error.description) Pass --allow-unsandboxed to run anyway (the report and the audit will say so)."
        case .outDirectoryClaimed(let refusal):
            refusal.description
        }
    }
}
