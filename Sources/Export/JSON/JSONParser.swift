/// A small, strict RFC 8259 parser over a line's UTF-8 bytes, writing a token tape.
///
/// Foundation's JSON decoders are slow on Linux and build dictionaries for every object; this
/// parser only validates and records token positions (see `JSONToken`), and strings are decoded
/// later, on demand. It checks the full grammar: string escapes including `\uXXXX` and surrogate
/// pairs (an unpaired surrogate is rejected), UTF-8 validity, control characters, number syntax,
/// and nesting up to `maximumDepth`.
struct JSONParser {
    /// The deepest nesting accepted; deeper input is rejected rather than risking the stack.
    static let maximumDepth = 256

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var position = 0
    /// The tape being written, and a copy of its pointer, capacity and count in locals (see
    /// `TokenTape`): written back to the tape when the parse ends.
    /// Not retained: the caller holds the tape for the whole parse, and a retain and release
    /// per line showed in the read-ahead thread's profile.
    private unowned(unsafe) let tape: TokenTape
    private var tokens: UnsafeMutablePointer<JSONToken>
    private var capacity: Int
    private var count = 0

    /// The tape index of this text's root: tokens' `next` are counted from it.
    private let root: Int

    // Positions, counts and depths step with wrapping arithmetic (`&+=`) in the loops that run
    // for every value: they stay below the line's length, checked to be under `Int32.max`, and
    // depths below `maximumDepth`, so the overflow checks were branches that could never fire.

    private init(base: UnsafePointer<UInt8>, end: Int, tape: TokenTape) {
        self.base = base
        self.end = end
        self.tape = tape
        tokens = tape.base
        capacity = tape.capacity
        root = tape.count
        count = tape.count
    }

    /// Parses one JSON text from `bytes` into `tape` (emptied first; its memory kept for reuse).
    static func parse(_ bytes: UnsafeRawBufferPointer, into tape: TokenTape) throws(JSONSyntaxError) {
        tape.reset()
        try parse(bytes, appendingTo: tape)
    }

    /// Parses one JSON text from `bytes` onto the end of `tape`, its tokens' `next` counted from
    /// its own root (so `tape.tokens[root...]` is a document); on failure the tape is as before.
    /// The read-ahead keeps many lines' tokens in one tape this way.
    static func parse(_ bytes: UnsafeRawBufferPointer, appendingTo tape: TokenTape) throws(JSONSyntaxError) {
        guard bytes.count < Int(Int32.max) else {
            throw JSONSyntaxError(column: 1, problem: "the line is too long to parse")
        }
        guard let start = bytes.baseAddress, bytes.count > 0 else {
            throw JSONSyntaxError(column: 1, problem: "expected a value, found the end of the line")
        }
        var parser = JSONParser(base: start.assumingMemoryBound(to: UInt8.self), end: bytes.count, tape: tape)
        do throws(JSONSyntaxError) {
            parser.skipWhitespace()
            try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            if parser.position < parser.end {
                throw parser.error("unexpected data after the value")
            }
        } catch {
            tape.count = parser.root
            throw error
        }
        tape.count = parser.count
    }

    /// Parses one JSON text from `bytes` into `tokens` (for tests and `JSONValue`; the reader
    /// reuses a `TokenTape`).
    static func parse(_ bytes: UnsafeRawBufferPointer, into tokens: inout [JSONToken]) throws(JSONSyntaxError) {
        let tape = TokenTape()
        defer { tokens = Array(tape.tokens) }
        try parse(bytes, into: tape)
    }

    /// Appends a token; the tape grows (rarely) when full.
    @inline(__always)
    private mutating func append(_ token: JSONToken) {
        if count == capacity { growTape() }
        (tokens + count).initialize(to: token)
        count &+= 1
    }

    @inline(never)
    private mutating func growTape() {
        tape.count = count
        tape.grow()
        tokens = tape.base
        capacity = tape.capacity
    }

    /// `value` as a token field: lines are shorter than `Int32.max` bytes (checked), and a tape
    /// holds fewer tokens than its line has bytes.
    @inline(__always)
    private static func field(_ value: Int) -> Int32 { Int32(truncatingIfNeeded: value) }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) {
        guard position < end else { throw error("expected a value, found the end of the line") }
        switch base[position] {
        case UInt8(ascii: "{"): try parseObject(depth: depth)
        case UInt8(ascii: "["): try parseArray(depth: depth)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try parseLiteral("true", kind: .true)
        case UInt8(ascii: "f"): try parseLiteral("false", kind: .false)
        case UInt8(ascii: "n"): try parseLiteral("null", kind: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw error("expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) {
        guard depth < JSONParser.maximumDepth else {
            throw error("nesting is deeper than \(JSONParser.maximumDepth) levels")
        }
        let index = count
        append(JSONToken(kind: .object, flag: false, start: JSONParser.field(position), length: 1, next: 0, count: 0))
        position &+= 1
        skipWhitespace()
        var members: Int32 = 0
        if position < end && base[position] == UInt8(ascii: "}") {
            position &+= 1
        } else {
            while true {
                guard position < end, base[position] == UInt8(ascii: "\"") else {
                    throw error("expected a string key")
                }
                try string()
                skipWhitespace()
                guard position < end, base[position] == UInt8(ascii: ":") else {
                    throw error("expected ':' after an object key")
                }
                position &+= 1
                skipWhitespace()
                try nestedValue(depth: depth &+ 1)
                members &+= 1
                skipWhitespace()
                guard position < end else { throw error("expected ',' or '}' in an object, found the end of the line") }
                let byte = base[position]
                position &+= 1
                if byte == UInt8(ascii: ",") {
                    skipWhitespace()
                    continue
                }
                if byte == UInt8(ascii: "}") { break }
                position &-= 1
                throw error("expected ',' or '}' in an object")
            }
        }
        tokens[index].count = members
        tokens[index].next = JSONParser.field(count &- root)
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) {
        guard depth < JSONParser.maximumDepth else {
            throw error("nesting is deeper than \(JSONParser.maximumDepth) levels")
        }
        let index = count
        append(JSONToken(kind: .array, flag: false, start: JSONParser.field(position), length: 1, next: 0, count: 0))
        position &+= 1
        skipWhitespace()
        var elements: Int32 = 0
        if position < end && base[position] == UInt8(ascii: "]") {
            position &+= 1
        } else {
            while true {
                try nestedValue(depth: depth &+ 1)
                elements &+= 1
                skipWhitespace()
                guard position < end else { throw error("expected ',' or ']' in an array, found the end of the line") }
                let byte = base[position]
                position &+= 1
                if byte == UInt8(ascii: ",") {
                    skipWhitespace()
                    continue
                }
                if byte == UInt8(ascii: "]") { break }
                position &-= 1
                throw error("expected ',' or ']' in an array")
            }
        }
        tokens[index].count = elements
        tokens[index].next = JSONParser.field(count &- root)
    }

    /// A member's or element's value: a string (inline) or an object (the screens' nodes,
    /// `meta`, `push`) straight away, anything else through `parseValue`'s dispatch, which is
    /// then a call and a switch fewer for most values; the errors are `parseValue`'s.
    @inline(__always)
    private mutating func nestedValue(depth: Int) throws(JSONSyntaxError) {
        let first = position < end ? base[position] : 0
        if first == UInt8(ascii: "\"") {
            try string()
        } else if first == UInt8(ascii: "{") {
            try parseObject(depth: depth)
        } else {
            try parseValue(depth: depth)
        }
    }

    private mutating func parseLiteral(_ word: StaticString, kind: JSONToken.Kind) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        let expected = word.utf8Start
        guard end - position >= length else { throw error("invalid literal (expected true, false or null)") }
        for offset in 0..<length where base[position + offset] != expected[offset] {
            position += offset
            throw error("invalid literal (expected true, false or null)")
        }
        append(JSONToken(kind: kind, flag: false, start: JSONParser.field(position), length: JSONParser.field(length),
                         next: JSONParser.field(count &+ 1 &- root), count: 0))
        position += length
    }

    private mutating func parseNumber() throws(JSONSyntaxError) {
        let start = position
        var isInteger = true
        if base[position] == UInt8(ascii: "-") { position &+= 1 }
        guard position < end, isDigit(base[position]) else { throw error("invalid number: expected a digit") }
        if base[position] == UInt8(ascii: "0") {
            position &+= 1
            if position < end && isDigit(base[position]) { throw error("invalid number: leading zero") }
        } else {
            while position < end && isDigit(base[position]) { position &+= 1 }
        }
        if position < end && base[position] == UInt8(ascii: ".") {
            isInteger = false
            position &+= 1
            guard position < end, isDigit(base[position]) else {
                throw error("invalid number: expected a digit after '.'")
            }
            while position < end && isDigit(base[position]) { position &+= 1 }
        }
        if position < end && (base[position] | 0x20) == UInt8(ascii: "e") {
            isInteger = false
            position &+= 1
            if position < end && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position &+= 1
            }
            guard position < end, isDigit(base[position]) else {
                throw error("invalid number: expected a digit in the exponent")
            }
            while position < end && isDigit(base[position]) { position &+= 1 }
        }
        append(JSONToken(kind: .number, flag: isInteger, start: JSONParser.field(start), length: JSONParser.field(position - start),
                         next: JSONParser.field(count &+ 1 &- root), count: 0))
    }

    // MARK: - Strings

    /// A string at `position` (its opening quote): the common case (it ends within 16 bytes,
    /// with nothing to check inside) done here, inline, anything else by `parseString(plain:)`
    /// from the same place, so errors are the same; it is told how many bytes were seen to be
    /// plain here, so a long string's first 16 bytes are not looked at twice.
    @inline(__always)
    private mutating func string() throws(JSONSyntaxError) {
        var plain = 0
        #if _endian(little)
        let start = position &+ 1
        if end &- start >= 16 {
            let lanes = UnsafeRawPointer(base + start).loadUnaligned(as: SIMD16<UInt8>.self)
            let mask = unsafeBitCast(JSONParser.specialLanes(lanes), to: SIMD2<UInt64>.self)
            let low = mask[0]
            let stop = low != 0 ? low.trailingZeroBitCount >> 3 : 8 &+ mask[1].trailingZeroBitCount >> 3
            if stop < 16 && base[start &+ stop] == UInt8(ascii: "\"") {
                append(JSONToken(kind: .string, flag: false, start: JSONParser.field(start), length: JSONParser.field(stop),
                                 next: JSONParser.field(count &+ 1 &- root), count: 0))
                position = start &+ stop &+ 1
                return
            }
            plain = stop
        }
        #endif
        try parseString(plain: plain)
    }

    /// The string at `position` (its opening quote), whose first `plain` bytes are known to be
    /// none of the bytes `firstSpecialByte` stops at.
    @inline(never)
    private mutating func parseString(plain: Int) throws(JSONSyntaxError) {
        let start = position &+ 1  // after the opening quote
        // The common string (no escape, no control or non-ASCII byte) ends at the first special
        // byte; kept in a local, not the stored position, until the string is done.
        var scan = JSONParser.firstSpecialByte(base, from: start &+ plain, end: end)
        var hasEscape = false
        while scan >= end || base[scan] != UInt8(ascii: "\"") {
            position = scan
            guard scan < end else {
                throw error("unterminated string", at: start - 1)
            }
            let byte = base[scan]
            if byte == UInt8(ascii: "\\") {
                hasEscape = true
                try scanEscape()
            } else if byte < 0x20 {
                throw error("control character in a string (it must be escaped)")
            } else {
                try scanUTF8Run()
            }
            scan = JSONParser.firstSpecialByte(base, from: position, end: end)
        }
        append(JSONToken(kind: .string, flag: hasEscape, start: JSONParser.field(start), length: JSONParser.field(scan &- start),
                         next: JSONParser.field(count &+ 1 &- root), count: 0))
        position = scan &+ 1  // after the closing quote
    }

    /// The offset of the first byte at or after `start` (and before `end`) that a string scan
    /// must look at: `"`, `\\`, a control character (below 0x20) or a non-ASCII byte (0x80 and
    /// above); `end` when there is none.
    ///
    /// Sixteen bytes at a time: a lane is zero-tested as `(x &- 1) & ~x & 0x80` (nonzero exactly
    /// when x is 0), `x < 0x20` as `(x &- 0x20) & ~x & 0x80`, so every step is lane-wise
    /// arithmetic that compiles to vector instructions; the lanes' comparison operators and
    /// reductions (`.==`, `min()`) compiled to per-lane loops and calls with Swift 6.3 on x86-64,
    /// slower than the scalar loop, and 32-byte vectors were slower still (measured). The first
    /// flagged lane is found from the mask's two 64-bit halves.
    @inline(__always)
    static func firstSpecialByte(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        var position = start
        #if _endian(little)
        // Wrapping arithmetic: positions lie within a line shorter than `Int32.max` bytes.
        while end &- position >= 16 {
            let lanes = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            let mask = unsafeBitCast(specialLanes(lanes), to: SIMD2<UInt64>.self)
            if mask[0] != 0 { return position &+ mask[0].trailingZeroBitCount >> 3 }
            if mask[1] != 0 { return position &+ 8 &+ mask[1].trailingZeroBitCount >> 3 }
            position &+= 16
        }
        #endif
        return scalarFirstSpecialByte(base, from: position, end: end)
    }

    /// 0x80 in each lane that holds `"`, `\\`, a byte below 0x20 or a byte of 0x80 and above; 0 elsewhere.
    @inline(__always)
    static func specialLanes(_ lanes: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let ones = SIMD16<UInt8>(repeating: 1)
        let quote = lanes ^ SIMD16(repeating: UInt8(ascii: "\""))
        let backslash = lanes ^ SIMD16(repeating: UInt8(ascii: "\\"))
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        let isControl = (lanes &- SIMD16(repeating: 0x20)) & ~lanes
        return (isQuote | isBackslash | isControl | lanes) & SIMD16(repeating: 0x80)
    }

    /// `firstSpecialByte` one byte at a time: the reference, and the tail shorter than 16 bytes.
    @inline(__always)
    static func scalarFirstSpecialByte(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        var position = start
        while position < end {
            let byte = base[position]
            if byte >= 0x20 && byte < 0x80 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                position += 1
            } else {
                break
            }
        }
        return position
    }

    /// Checks one escape at `position` (the backslash) and moves past it.
    private mutating func scanEscape() throws(JSONSyntaxError) {
        guard position + 1 < end else { throw error("unterminated string") }
        switch base[position + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 2
        case UInt8(ascii: "u"):
            let unit = try hexUnit(at: position + 2)
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw error("unpaired low surrogate in a \\u escape")
            }
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard position + 7 < end, base[position + 6] == UInt8(ascii: "\\"), base[position + 7] == UInt8(ascii: "u") else {
                    throw error("unpaired high surrogate in a \\u escape")
                }
                let low = try hexUnit(at: position + 8)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw error("unpaired high surrogate in a \\u escape")
                }
                position += 12
            } else {
                position += 6
            }
        default:
            throw error("invalid escape sequence")
        }
    }

    private func hexUnit(at offset: Int) throws(JSONSyntaxError) -> UInt32 {
        guard offset + 4 <= end else { throw error("invalid \\u escape: expected four hex digits", at: offset) }
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            guard let digit = JSONParser.hexValue(base[index]) else {
                throw error("invalid \\u escape: expected four hex digits", at: index)
            }
            value = value << 4 | digit
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Checks the multi-byte UTF-8 sequences that follow one another from `position` and moves
    /// past them: valid 2-byte and common 3-byte sequences (accented letters, kana, kanji) here,
    /// anything else by `scanUTF8Sequence()` from the same place, so errors are the same. Stops
    /// at the first ASCII byte, where the vector scan is faster.
    @inline(__always)
    private mutating func scanUTF8Run() throws(JSONSyntaxError) {
        while position < end {
            let lead = base[position]
            if lead < 0x80 { return }
            if lead >= 0xC2 && lead <= 0xDF && end &- position >= 2 && base[position &+ 1] & 0xC0 == 0x80 {
                position &+= 2
                continue
            }
            if ((lead >= 0xE1 && lead <= 0xEC) || lead >= 0xEE && lead <= 0xEF) && end &- position >= 3
                && base[position &+ 1] & 0xC0 == 0x80 && base[position &+ 2] & 0xC0 == 0x80 {
                position &+= 3
                continue
            }
            try scanUTF8Sequence()
        }
    }

    /// Checks one multi-byte UTF-8 sequence at `position` (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF) and moves past it.
    private mutating func scanUTF8Sequence() throws(JSONSyntaxError) {
        let lead = base[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw error("invalid UTF-8")
        }
        guard position + length <= end else { throw error("invalid UTF-8 (truncated sequence)") }
        let second = base[position + 1]
        guard second >= lower && second <= upper else { throw error("invalid UTF-8") }
        if length > 2 {
            for offset in 2..<length where base[position + offset] & 0xC0 != 0x80 {
                throw error("invalid UTF-8")
            }
        }
        position += length
    }

    // MARK: - Helpers

    @inline(__always)
    private mutating func skipWhitespace() {
        // Compact JSON has none: one comparison decides for nearly every call.
        if position < end && base[position] > 0x20 { return }
        while position < end {
            let byte = base[position]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                position &+= 1
            } else {
                return
            }
        }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private func error(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(column: (offset ?? position) + 1, problem: problem)
    }
}
