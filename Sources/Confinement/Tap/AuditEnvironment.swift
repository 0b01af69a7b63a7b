import Privacy
/// The environment variables through which `replay audit` talks to the command it audits.
///
/// The child reads them with `AuditTap.fromEnvironment()`; a run started by anything else has
/// none of them and behaves exactly as without an audit.
public enum AuditEnvironment {
    /// The canary, its words joined by single spaces (`AuditCanary.text`): planted in every text
    /// that reaches a prompt.
    public static let canary = "REPLAY_AUDIT_CANARY"
    /// The salt of output fingerprints, as hex. Never written by the child.
    public static let salt = "REPLAY_AUDIT_SALT"
    /// The file the child writes its fingerprints and counts to (beneath its output directory).
    public static let hashes = "REPLAY_AUDIT_HASHES"
    /// The only directory the audited command may write to (its `--out`).
    public static let out = "REPLAY_AUDIT_OUT"

    public static let all = [canary, salt, hashes, out]
}
