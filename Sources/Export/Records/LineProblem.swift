/// Why a line that is valid JSON is still not a valid record: a structural reason, never content.
struct LineProblem: Error, Sendable {
    /// The reason, e.g. "field 'text' is a number, expected a string".
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
