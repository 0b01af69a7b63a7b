/// What can go wrong before a probe runs, each case a sentence naming the file and what is wrong.
public enum ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The attack set file could not be read or is not an attack set.
    case attackSetIsNotValid(file: String, because: String)
    /// The command line is wrong: the sentence says how.
    case usage(String)

    public var description: String {
        switch self {
        case .attackSetIsNotValid(let file, let because): "\(file) is not an attack set (replay.attacks/1): \(because)"
        case .usage(let sentence): sentence
        }
    }
}
