#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A parsed line: its bytes and its token tape, read without copying.
///
/// Valid only while both buffers are (inside the reader's per-line closure). Token 0 is the root.
struct JSONDocument {
    let bytes: UnsafeRawBufferPointer
    let tokens: UnsafeBufferPointer<JSONToken>

    @inline(__always)
    func kind(_ index: Int) -> JSONToken.Kind { tokens[index].kind }

    /// "a string", "a number", …: for reasons that say what a field was instead of what it held.
    func typeName(_ index: Int) -> String {
        switch tokens[index].kind {
        case .null: return "null"
        case .true, .false: return "a bool"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Calls `body` with each member's key bytes (escapes decoded) and its value's token index.
    /// Inlined, so the decoder's per-key closures are too (this runs for every key of every line).
    @inline(__always)
    func forEachMember<E: Error>(of object: Int, _ body: (UnsafeRawBufferPointer, Int) throws(E) -> Void) throws(E) {
        let token = tokens[object]
        var key = object + 1
        for _ in 0..<Int(token.count) {
            let value = key + 1
            let keyToken = tokens[key]
            if keyToken.flag {
                let decoded = unescapedBytes(keyToken)
                var failure: E?
                decoded.withUnsafeBytes { raw in
                    do throws(E) { try body(raw, value) } catch { failure = error }
                }
                if let failure { throw failure }
            } else {
                try body(UnsafeRawBufferPointer(start: bytes.baseAddress.map { $0 + Int(keyToken.start) }, count: Int(keyToken.length)), value)
            }
            key = Int(tokens[value].next)
        }
    }

    /// Calls `body` with the bytes of key token `key` (escapes decoded).
    func withKey<R>(_ key: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        let token = tokens[key]
        if token.flag {
            return unescapedBytes(token).withUnsafeBytes(body)
        }
        return body(raw(key))
    }

    /// A token's bytes as written (for a string: between the quotes, escapes not decoded).
    @inline(__always)
    func raw(_ index: Int) -> UnsafeRawBufferPointer {
        let token = tokens[index]
        return UnsafeRawBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.start + token.length)])
    }

    /// Whether `bytes` hold `needle` anywhere.
    static func contains(_ bytes: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard count > 0 else { return true }
        guard bytes.count >= count, let base = bytes.baseAddress else { return false }
        let first = Int32(needle.utf8Start[0])
        var offset = 0
        while offset <= bytes.count - count, let found = memchr(base + offset, first, bytes.count - count + 1 - offset) {
            if memcmp(found, needle.utf8Start, count) == 0 { return true }
            offset = UnsafeRawPointer(found) - base + 1
        }
        return false
    }

    /// Whether `bytes` hold `byte` anywhere: memchr, many bytes at a time, where the
    /// sequence's `contains` looked at one byte per step (every message's text is searched).
    static func contains(_ bytes: UnsafeRawBufferPointer, byte: UInt8) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    }

    /// Calls `body` with each element's position and token index.
    @inline(__always)
    func forEachElement<E: Error>(of array: Int, _ body: (Int, Int) throws(E) -> Void) throws(E) {
        let token = tokens[array]
        var element = array + 1
        for position in 0..<Int(token.count) {
            try body(position, element)
            element = Int(tokens[element].next)
        }
    }

    /// The number of elements or members of a container.
    func count(_ index: Int) -> Int { Int(tokens[index].count) }

    /// A string token's value, escapes decoded.
    func string(_ index: Int) -> String {
        let token = tokens[index]
        if token.flag {
            // Decoded straight into the string's storage (repaired as `String(decoding:)` would).
            return String(unsafeUninitializedCapacity: Int(token.length)) { buffer in
                unescape(token, into: buffer.baseAddress!)
            }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.start + token.length)]),
                      as: UTF8.self)
    }

    /// Copies string token `index`'s bytes, escapes decoded, into `output`, which has room for
    /// the token's raw length; returns how many were written (the bytes `string(index)` holds:
    /// the parser checked them to be valid UTF-8).
    func copyString(_ index: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        let token = tokens[index]
        if token.flag { return unescape(token, into: output) }
        guard let base = bytes.baseAddress, token.length > 0 else { return 0 }
        UnsafeMutableRawPointer(output).copyMemory(from: base + Int(token.start), byteCount: Int(token.length))
        return Int(token.length)
    }

    /// Whether a string token's raw bytes are exactly `expected` (for strings without escapes).
    /// Inlined: it decides every line's `type`, and the call compared through memcmp.
    @inline(__always)
    func stringEquals(_ index: Int, _ expected: StaticString) -> Bool {
        let token = tokens[index]
        if token.flag { return string(index) == expected.description }
        return JSONDocument.equal(
            UnsafeRawBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.start + token.length)]), expected)
    }

    /// A number token's value as an `Int`, if it is written as an integer that fits.
    func integer(_ index: Int) -> Int? {
        let token = tokens[index]
        guard token.kind == .number, token.flag else { return nil }
        var position = Int(token.start)
        let end = position + Int(token.length)
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var value = 0
        while position < end {
            let digit = Int(bytes[position] &- UInt8(ascii: "0"))
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = sum
            position += 1
        }
        return value
    }

    /// A number token's value as a `Double` (correctly rounded, by the C library).
    func double(_ index: Int) -> Double {
        let token = tokens[index]
        var text = [CChar](repeating: 0, count: Int(token.length) + 1)
        for offset in 0..<Int(token.length) {
            text[offset] = CChar(bitPattern: bytes[Int(token.start) + offset])
        }
        return strtod(text, nil)
    }

    /// Whether `bytes` spell `expected` (for names kept as Strings, such as raw values).
    ///
    /// Not an overload of `equal(_:_:)`: a string literal would pick this one (String is the
    /// default literal type) and make and free a String at every comparison.
    static func equal(_ bytes: UnsafeRawBufferPointer, string expected: String) -> Bool {
        var expected = expected
        return expected.withUTF8 { utf8 in
            bytes.count == utf8.count && (utf8.isEmpty || memcmp(bytes.baseAddress!, utf8.baseAddress!, utf8.count) == 0)
        }
    }

    /// Whether `bytes` spell `expected` exactly.
    @inline(__always)
    static func equal(_ bytes: UnsafeRawBufferPointer, _ expected: StaticString) -> Bool {
        let count = expected.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        return count == 0 || memcmp(bytes.baseAddress!, expected.utf8Start, count) == 0
    }

    /// The UTF-8 bytes of a string token with its escapes decoded (the parser checked them).
    private func unescapedBytes(_ token: JSONToken) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Int(token.length)) { buffer, count in
            count = unescape(token, into: buffer.baseAddress!)
        }
    }

    /// Writes the string token's bytes with its escapes decoded to `output`, which has room for
    /// the token's raw length (decoding never lengthens: `\n` is 2 bytes for 1, `\uXXXX` 6 for
    /// at most 3, a surrogate pair 12 for 4); returns how many were written.
    ///
    /// The runs between backslashes are found with memchr and copied whole: most escaped
    /// strings are long texts with a few `\n` or `\"` in them.
    private func unescape(_ token: JSONToken, into output: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var written = 0
        var position = Int(token.start)
        let end = position + Int(token.length)
        while position < end {
            let run = memchr(base + position, Int32(UInt8(ascii: "\\")), end - position)
                .map { UnsafeRawPointer($0) - base } ?? end
            if run > position {
                UnsafeMutableRawPointer(output + written).copyMemory(from: base + position, byteCount: run - position)
                written += run - position
                position = run
            }
            guard position < end else { break }
            let escape = bytes[position + 1]
            position += 2
            switch escape {
            case UInt8(ascii: "b"): output[written] = 0x08; written += 1
            case UInt8(ascii: "f"): output[written] = 0x0C; written += 1
            case UInt8(ascii: "n"): output[written] = 0x0A; written += 1
            case UInt8(ascii: "r"): output[written] = 0x0D; written += 1
            case UInt8(ascii: "t"): output[written] = 0x09; written += 1
            case UInt8(ascii: "u"):
                var scalar = hexUnit(at: position)
                position += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = hexUnit(at: position + 2)
                    position += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                written += writeUTF8(scalar, to: output + written)
            default: output[written] = escape; written += 1  // " \ /
            }
        }
        return written
    }

    private func hexUnit(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            value = value << 4 | (JSONParser.hexValue(bytes[index]) ?? 0)
        }
        return value
    }

    /// Writes `scalar` as UTF-8 (a lone surrogate as its three bytes, which the string built
    /// from them repairs); returns how many bytes.
    private func writeUTF8(_ scalar: UInt32, to output: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            output[0] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            output[0] = UInt8(0xC0 | scalar >> 6)
            output[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            output[0] = UInt8(0xE0 | scalar >> 12)
            output[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            output[0] = UInt8(0xF0 | scalar >> 18)
            output[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            output[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            output[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
