import ReplayKit

/// Why `replay suite run` (or `replay suite compare`) cannot run as asked: a command line it cannot use (exit 2), or a suite
/// file that cannot be read or checked (exit 3).
///
/// A suite file's problem names the file, the case (its index in `cases`, and its id once the id
/// itself checked) and the key path inside it (`input.members[1].about`), and says what belongs
/// there, as a prompt set file's errors do (`JobsError`). The text of an input, a given output or
/// a description is never quoted: only the key at fault.
public enum SuiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command line cannot be run.
    case usage(String)
    /// The file cannot be opened or read.
    case unreadable(file: String, reason: String)
    /// The file is larger than a suite should be.
    case tooLarge(file: String, limit: Int)
    /// The file is not JSON; `problem` says where the parser stopped (a byte offset) and what it expected.
    case notJSON(file: String, problem: String)
    /// The file's `schema` is missing or is not `replay.suite/1`.
    case anotherSchema(file: String)
    /// A key the format requires is not there.
    case lacksAKey(file: String, place: String)
    /// A key the format does not know at this place; `allowed` are the keys that may be there.
    case unknownKey(file: String, place: String, allowed: [String])
    /// A key given twice in one object.
    case keyTwice(file: String, place: String)
    /// A value of the wrong kind; `expected` says what belongs there.
    case wrongValue(file: String, place: String, expected: String)
    /// Two cases with one id; `first` is the index of the first.
    case idTwice(file: String, place: String, first: Int)
    /// `replay suite compare`: a directory that is not a finished suite run's results.
    case notSuiteResults(directory: String, because: String)

    public var description: String {
        switch self {
        case let .usage(text):
            text
        case let .unreadable(file, reason):
            "cannot read the suite file \(file): \(reason)"
        case let .tooLarge(file, limit):
            "the suite file \(file) is larger than \(limit / (1 << 20)) MiB: it should hold cases, not a corpus"
        case let .notJSON(file, problem):
            "\(file): \(problem)"
        case let .anotherSchema(file):
            "\(file): schema: must be \"\(SuiteFile.schema)\" (a suite file, docs/suite.md)"
        case let .lacksAKey(file, place):
            "\(file): \(place) is missing"
        case let .unknownKey(file, place, allowed):
            "\(file): \(place): an unknown key (\(allowed.joined(separator: ", ")) \(allowed.count == 1 ? "is" : "are") allowed here)"
        case let .keyTwice(file, place):
            "\(file): \(place) is given twice"
        case let .wrongValue(file, place, expected):
            "\(file): \(place): must be \(expected)"
        case let .idTwice(file, place, first):
            "\(file): \(place): the id of cases[\(first)] already (each case needs an id of its own)"
        case let .notSuiteResults(directory, because):
            "\(directory) is not a finished replay suite run's results: \(because)"
        }
    }

    /// The exit status: a usage error 2, a suite file that cannot be used 3.
    var exitCode: ExitCode {
        if case .usage = self { return .usage }
        return .input
    }
}
