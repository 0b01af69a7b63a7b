/// A line the reader skipped: where it was and what was structurally wrong with it.
///
/// The reason never quotes the line's words (only field names, types, ids, versions and
/// columns), so `description` is safe to print and to put in a report.
public struct BadLine: Sendable, Error, CustomStringConvertible {
    /// The file and line.
    public let location: SourceLocation
    /// What was wrong, e.g. "field 'text' is a number, expected a string".
    public let reason: String

    /// `file:line: reason`.
    public var description: String { "\(location): \(reason)" }
}
