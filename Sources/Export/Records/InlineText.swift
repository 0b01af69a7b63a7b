/// A short string kept in its holder's own memory: up to `capacity` UTF-8 bytes inline, a longer
/// one as a `String`.
///
/// An outline's timestamp (`MessageOutline.at`, 20 bytes as the export writes it) is one
/// field too long for a `String`'s inline form, so as a `String` it cost every message an
/// allocation, a copy, a UTF-8 check and a free, and it is read once, as bytes (the week it
/// falls in). Here it is copied in from the line's bytes (already checked by the parser) and
/// read back as bytes; the `String` is made only when asked for.
struct InlineText: Sendable {
    /// The most bytes kept inline.
    static let capacity = 24

    private enum Storage: Sendable {
        /// The bytes in order from the first word's first byte; the rest zero.
        case inline(UInt64, UInt64, UInt64, count: UInt8)
        case string(String)
    }

    private let storage: Storage

    /// The text of `bytes`, which must be valid UTF-8 (a parsed string without escapes is).
    init(validUTF8 bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= InlineText.capacity, let source = bytes.baseAddress else {
            storage = .string(String(decoding: bytes, as: UTF8.self))
            return
        }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
        storage = .inline(words.0, words.1, words.2, count: UInt8(bytes.count))
    }

    /// The text of `string`.
    init(_ string: String) {
        var string = string
        let inline: InlineText? = string.withUTF8 { bytes in
            bytes.count <= InlineText.capacity ? InlineText(validUTF8: UnsafeRawBufferPointer(bytes)) : nil
        }
        storage = inline?.storage ?? .string(string)
    }

    /// The text as a `String`.
    var string: String {
        switch storage {
        case .string(let string): return string
        case .inline: return withBytes { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Runs `body` with the text's UTF-8 bytes, valid only during `body`.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        switch storage {
        case .inline(let first, let second, let third, let count):
            let words = (first, second, third)
            return try withUnsafeBytes(of: words) { try body(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(count)))) }
        case .string(var string):
            return try string.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
        }
    }
}
