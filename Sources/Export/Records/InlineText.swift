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
    ///
    /// The bytes are read as words (`littleEndianWord`), not copied in with `copyMemory`: a
    /// call to memcpy of a variable count for each of the two texts of every message.
    init(validUTF8 bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        if count <= InlineText.capacity, let source = bytes.baseAddress {
            first = source.littleEndianWord(count: min(count, 8)).littleEndian
            second = count > 8 ? (source + 8).littleEndianWord(count: min(count &- 8, 8)).littleEndian : 0
            third = count > 16 ? (source + 16).littleEndianWord(count: count &- 16).littleEndian : 0
            long = nil
            self.count = UInt8(count)
        } else {
            (first, second, third) = (0, 0, 0)
            long = bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            self.count = 0
        }
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

extension UnsafeRawPointer {
    /// The `count` (0...8) bytes here as a number, the first byte lowest and the rest zero,
    /// read with at most two loads that stay within the `count` bytes (overlapping ones for
    /// counts that are not a power of two), so a value at the very end of a buffer is safe to
    /// read. For copying and hashing short values without a call to memcpy or a byte loop.
    @inline(__always)
    func littleEndianWord(count: Int) -> UInt64 {
        switch count {
        case 8:
            return UInt64(littleEndian: loadUnaligned(as: UInt64.self))
        case 4...7:
            let low = UInt64(UInt32(littleEndian: loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return low | high << UInt64(8 &* (count &- 4))
        case 2...3:
            let low = UInt64(UInt16(littleEndian: loadUnaligned(as: UInt16.self)))
            let high = UInt64(UInt16(littleEndian: loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
            return low | high << UInt64(8 &* (count &- 2))
        case 1:
            return UInt64(load(as: UInt8.self))
        default:
            return 0
        }
    }
}
