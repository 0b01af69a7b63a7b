/// Words from a thread or from the model: a screen's text, a person's message, a prompt, an output.
///
/// The product promises that none of these is ever printed, logged or written. `SealedText` makes
/// the promise hard to break by accident: it has no `description`, is not `Encodable`, and its
/// mirror is empty, so `print`, string interpolation and `dump` show only `SealedText(…)`.
/// The words are reachable through `withUnsealedText`, which the engine (to build prompts) and
/// the jobs' own scoring use, and nothing that writes files or streams does.
public struct SealedText: Sendable, Hashable {
    @usableFromInline let storage: String

    /// Seals `text`. Call this where words enter the program (the export reader, the engine).
    @inlinable public init(_ text: String) { storage = text }

    /// The empty text.
    public static let empty = SealedText("")

    /// Runs `body` with the words; what it returns must not be the words themselves.
    @inlinable public func withUnsealedText<R>(_ body: (String) throws -> R) rethrows -> R {
        try body(storage)
    }

    /// Whether there are no words at all.
    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// The number of UTF-8 bytes: a size, never the words.
    @inlinable public var utf8Count: Int { storage.utf8.count }

    /// Joins sealed texts with a separator, without unsealing them for anyone else.
    public static func joined(_ parts: [SealedText], separator: String) -> SealedText {
        SealedText(parts.map(\.storage).joined(separator: separator))
    }
}

extension SealedText: CustomReflectable {
    /// An empty mirror, so `print`, `dump` and `String(describing:)` never show the words.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
