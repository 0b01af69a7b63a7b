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

    /// The bytes in order from the first word's first byte, the rest zero (when `long` is nil).
    private let first: UInt64, second: UInt64, third: UInt64
    private let count: UInt8
    /// The text when it is longer than `capacity`. Plain fields rather than an enum: reading
    /// the bytes is then a test and a copy, where switching over an enum holding a `String`
    /// copied and destroyed the enum on every read (measured).
    private let long: String?

    /// The text of `bytes`, which must be valid UTF-8 (a parsed string without escapes is).
    init(validUTF8 bytes: UnsafeRawBufferPointer) {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        if bytes.count <= InlineText.capacity, let source = bytes.baseAddress {
            withUnsafeMutableBytes(of: &words) { $0.baseAddress!.copyMemory(from: source, byteCount: bytes.count) }
            long = nil
        } else {
            long = bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }
        (first, second, third) = words
        count = long == nil ? UInt8(bytes.count) : 0
    }

    /// The text of `string`.
    init(_ string: String) {
        var string = string
        self = string.withUTF8 { InlineText(validUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// The text as a `String`.
    var string: String {
        if let long { return long }
        return withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Runs `body` with the text's UTF-8 bytes, valid only during `body`.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        if var long { return long.withUTF8 { body(UnsafeRawBufferPointer($0)) } }
        var words = (first, second, third)
        let count = Int(self.count)
        return withUnsafeBytes(of: &words) { body(UnsafeRawBufferPointer(start: $0.baseAddress, count: count)) }
    }
}
