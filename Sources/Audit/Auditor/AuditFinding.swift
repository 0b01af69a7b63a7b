import Confinement
import Privacy
/// One thing the audit found: a rule, what happened (never content), and where.
public struct AuditFinding: Sendable, Equatable {
    public var rule: AuditRule
    /// What and where, in words; never the text that leaked.
    public var message: String
    /// The file (absolute path) or stream (`stdout`, `stderr`) it concerns, if any.
    public var location: String?
    /// 1-based line in that file, when known.
    public var line: Int?
    /// Byte offset in that file, when known.
    public var byteOffset: Int?
    /// How many times the same thing happened at the same place.
    public var occurrences: Int = 1
}
