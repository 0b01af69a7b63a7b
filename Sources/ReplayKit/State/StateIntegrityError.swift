import Privacy

/// Why a state file (`state.json` or a checkpoint) is not taken as this run's: each case a
/// sentence about the file, never quoting it.
///
/// A state carries an HMAC-SHA-256 of its text under the run key (`StateDigest`): a reader holding
/// the key tells a state as written from one changed afterwards, or one of another run's key.
public enum StateIntegrityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Its `corpus_identity.run_key_check` is not the reader's key's: a state of another run.
    case madeUnderAnotherRunKey
    /// Its digest is not the HMAC of its content under the reader's key: changed after it was written.
    case digestDoesNotMatch
    /// It reads whole but has no `"digest"` after `"complete": true`.
    case carriesNoDigest
    /// It does not read as a state at all (cut short, or not a state's layout).
    case unreadable(StateFormatError)

    public var description: String {
        switch self {
        case .madeUnderAnotherRunKey:
            "it was made under another run key (--run-key, REPLAY_RUN_KEY or the per-user key) than this one"
        case .digestDoesNotMatch:
            "its digest does not match its content under this run key: it was changed after it was written"
        case .carriesNoDigest:
            "it carries no digest (\"digest\": \"hmac-sha256:...\" after \"complete\": true): it was edited, or made by a replay before state digests"
        case .unreadable(let problem):
            problem.description
        }
    }
}
