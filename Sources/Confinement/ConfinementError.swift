/// Why a run could not account for itself: its manifest could not be read, or the audit tap could
/// not leave its fingerprints. (Confining itself has `SandboxError`.)
///
/// Each reads as a sentence for the summary. None carries text from the run.
public enum ConfinementError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The audited run could not write its hashes file.
    case hashesNotWritten(path: String, reason: String)
    /// A manifest (`audit.sarif`'s artifacts or `manifest.json`), or the directory it is of,
    /// could not be read.
    case manifestUnreadable(path: String, reason: String)
    /// A manifest that is not a `replay.manifest/1` manifest, saying what is wrong.
    case manifestMalformed(path: String, reason: String)

    public var description: String {
        switch self {
        case .hashesNotWritten(let path, let reason):
            "The output fingerprints could not be written to \(path): \(reason)."
        case .manifestUnreadable(let path, let reason):
            "The manifest at \(path) could not be read: \(reason)."
        case .manifestMalformed(let path, let reason):
            "\(path) is not a usable manifest: \(reason)."
        }
    }
}
