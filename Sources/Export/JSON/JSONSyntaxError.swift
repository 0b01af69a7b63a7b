/// Why a line is not valid JSON, with the 1-based byte column where the parser stopped.
///
/// The problem names the structure that was expected, never the bytes found, since those
/// may be words from a thread.
struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based byte column in the line.
    let column: Int
    /// What was wrong, structurally.
    let problem: String

    var description: String { "invalid JSON at column \(column): \(problem)" }
}
