import ReplayKit

/// Why `replay compare` cannot compare, in a sentence naming the directory or argument.
public enum CompareError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line is wrong (exit 2): nothing ran.
    case usage(String)
    /// A run directory is not a finished run, or what it holds cannot be read (exit 3).
    case notAFinishedRun(directory: String, because: String)
    /// The two runs did not replay the same corpus under the same run key (exit 3).
    case differentCorpora(base: String, new: String, because: String)

    public var description: String {
        switch self {
        case .usage(let text):
            text
        case let .notAFinishedRun(directory, because):
            "\(directory) is not a finished run to compare: \(because)"
        case let .differentCorpora(base, new, because):
            "\(base) and \(new) are not runs over the same corpus, so their items cannot be paired: \(because)"
        }
    }

    /// The exit status this ends with.
    public var exitCode: ExitCode {
        switch self {
        case .usage: .usage
        case .notAFinishedRun, .differentCorpora: .input
        }
    }
}
