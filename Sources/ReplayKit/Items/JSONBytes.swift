import Privacy

/// Compact JSON written straight into bytes: the items table is hundreds of thousands of small
/// numbers and hex keys, and building a `String` for each number and joining them cost more than
/// planning the items.
///
/// Strings are escaped as `ReportValue.compactQuoted` escapes them, so the bytes are the ones the
/// table has always had.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Raw JSON punctuation or a literal (`{`, `,"key":`, `null`).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A quoted string.
    mutating func string(_ text: String) {
        bytes.append(contentsOf: ReportValue.compactQuoted(text).utf8)
    }

    /// A whole number in decimal.
    @inline(__always)
    mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {   // most flags, indices and fallbacks
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            if value == .min {
                bytes.append(contentsOf: String(value).utf8.dropFirst())
                return
            }
        }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // room for 20 digits, written back to front
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// A 64-bit value as a quoted string of 16 lowercase hex digits.
    mutating func hex16(_ value: UInt64) {
        bytes.append(UInt8(ascii: "\""))
        for shift in stride(from: 60, through: 0, by: -4) {
            let nibble = UInt8(truncatingIfNeeded: value >> UInt64(shift)) & 0xf
            bytes.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `[a,b,…]` of `values`, each written by `element`.
    @inline(__always)
    mutating func array<Values: Sequence>(_ values: Values, _ element: (inout JSONBytes, Values.Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        var first = true
        for value in values {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
