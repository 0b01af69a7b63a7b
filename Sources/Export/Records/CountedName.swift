/// Names from untrusted input (unknown line types, unknown node kinds) made safe to count and print.
enum CountedName {
    /// What names that are not plain tokens are counted under.
    static let other = "(other)"

    /// The name itself if it matches `[A-Za-z0-9_.-]{1,32}`, else `(other)`: a free-text key
    /// could hold words, and a report must not show them.
    static func sanitized(_ bytes: UnsafeRawBufferPointer) -> String {
        guard (1...32).contains(bytes.count), bytes.allSatisfy(isTokenByte) else { return other }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The same rule for a name already in a `String`.
    static func sanitized(_ name: String) -> String {
        var copy = name
        return copy.withUTF8 { sanitized(UnsafeRawBufferPointer($0)) }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
