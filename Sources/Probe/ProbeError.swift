/// What can go wrong before a probe runs, or before probes are compared, each case a sentence
/// naming the file or directory and what is wrong.
public enum ProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The attack set file could not be read or is not an attack set.
    case attackSetIsNotValid(file: String, because: String)
    /// The command line is wrong: the sentence says how.
    case usage(String)
    /// `replay probe compare`: a directory that is not a finished probe's results.
    case notProbeResults(directory: String, because: String)
    /// `replay probe compare`: two probes whose trials cannot be paired; `because` says why
    /// (other attack sets, or no trial key in common).
    case probesDoNotPair(base: String, other: String, because: String)

    public var description: String {
        switch self {
        case .attackSetIsNotValid(let file, let because): "\(file) is not an attack set (replay.attacks/1): \(because)"
        case .usage(let sentence): sentence
        case .notProbeResults(let directory, let because): "\(directory) is not a finished replay probe injection's results: \(because)"
        case .probesDoNotPair(let base, let other, let because): "\(other) cannot be compared with \(base): \(because)"
        }
    }
}
