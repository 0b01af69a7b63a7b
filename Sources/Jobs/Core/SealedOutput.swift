import Foundation
import Privacy

/// A job's output after decoding: the model's words held as `SealedText`, plus numbers and the
/// schema's own labels.
///
/// Sealing the words after decoding is not enough on its own: `print(replies)` would still show
/// the type's structure, and a later field added as a `String` would show words. So conforming
/// types have an empty mirror (this protocol's default), no `description`, are not `Encodable`,
/// and each has the overloads in SealedOutput+Unprintable.swift that make `print`, `debugPrint`,
/// `dump`, string interpolation and `String(describing:)` of it fail to compile.
/// Tests/JobsTests/SealedOutputCompileTests.swift proves it for each type.
public protocol SealedOutput: Sendable, Equatable, CustomReflectable {}

extension SealedOutput {
    /// An empty mirror, so whatever still reflects the value (an array of them, an optional)
    /// shows only the type's name.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}

extension SealedText {
    /// The text without `characters` at either end, still sealed.
    func trimmingCharacters(in characters: CharacterSet) -> SealedText {
        withUnsealedText { SealedText($0.trimmingCharacters(in: characters)) }
    }

    /// The number of characters (grapheme clusters): a size, never the words.
    var characterCount: Int { withUnsealedText { $0.count } }
}
