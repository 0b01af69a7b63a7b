/// A state file that cannot be read back: what is wrong, never its content.
public struct StateFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// `ReportValue` written so that reading it back gives the same value, bit for bit.
///
/// `json()` rounds numbers to six digits, which suits a report a person reads; a state file is
/// merged and resumed from, so every number must come back exactly: a fraction is written as
/// Swift's shortest form that parses to the same `Double`, and is read back as a number even when
/// it is whole (`800.0`), an integer as an integer.
extension ReportValue {
    /// Pretty-printed JSON, two-space indented, keys in the order given, numbers exact.
    public func exactJSON() -> String {
        var out = ""
        write(to: &out, indent: 0, exact: true)
        return out + "\n"
    }

    /// The shortest text that parses back to `d`, always with a `.` or an exponent.
    static func exactText(_ d: Double) -> String {
        let text = "\(d)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// Parses JSON written by `exactJSON` (any JSON text, in fact): numbers with a fraction or an
    /// exponent become `.number`, others `.int`; strings become labels.
    public init(parsingExactJSON text: String) throws(StateFormatError) {
        var parser = ExactJSONParser(bytes: Array(text.utf8))
        self = try parser.document()
    }

    // MARK: - Reading a state back

    /// The value at `key` of an object; an error naming the key when it is missing.
    public func required(_ key: String) throws(StateFormatError) -> ReportValue {
        guard let value = self[key] else { throw StateFormatError("'\(key)' is missing") }
        return value
    }

    /// The integer at `key`.
    public func int(_ key: String) throws(StateFormatError) -> Int {
        guard case .int(let i) = try required(key) else { throw StateFormatError("'\(key)' is not an integer") }
        return i
    }

    /// The integer at `key`, nil when it is null.
    public func optionalInt(_ key: String) throws(StateFormatError) -> Int? {
        let value = try required(key)
        if value == .null { return nil }
        guard case .int(let i) = value else { throw StateFormatError("'\(key)' is not an integer") }
        return i
    }

    /// The number (integer or not) at `key`.
    public func double(_ key: String) throws(StateFormatError) -> Double {
        guard let d = try required(key).doubleValue else { throw StateFormatError("'\(key)' is not a number") }
        return d
    }

    /// The number at `key`, nil when it is null.
    public func optionalDouble(_ key: String) throws(StateFormatError) -> Double? {
        let value = try required(key)
        if value == .null { return nil }
        guard let d = value.doubleValue else { throw StateFormatError("'\(key)' is not a number") }
        return d
    }

    /// The string at `key`.
    public func string(_ key: String) throws(StateFormatError) -> String {
        guard case .label(let s) = try required(key) else { throw StateFormatError("'\(key)' is not a string") }
        return s
    }

    /// The string at `key`, nil when it is null.
    public func optionalString(_ key: String) throws(StateFormatError) -> String? {
        let value = try required(key)
        if value == .null { return nil }
        guard case .label(let s) = value else { throw StateFormatError("'\(key)' is not a string") }
        return s
    }

    /// The flag at `key`.
    public func bool(_ key: String) throws(StateFormatError) -> Bool {
        guard case .bool(let b) = try required(key) else { throw StateFormatError("'\(key)' is not true or false") }
        return b
    }

    /// The array at `key`.
    public func array(_ key: String) throws(StateFormatError) -> [ReportValue] {
        guard case .array(let items) = try required(key) else { throw StateFormatError("'\(key)' is not an array") }
        return items
    }

    /// The object's fields at `key`.
    public func object(_ key: String) throws(StateFormatError) -> [(String, ReportValue)] {
        guard case .object(let fields) = try required(key) else { throw StateFormatError("'\(key)' is not an object") }
        return fields
    }

    /// This value's fields, when it is an object.
    public func fields() throws(StateFormatError) -> [(String, ReportValue)] {
        guard case .object(let fields) = self else { throw StateFormatError("an object was expected") }
        return fields
    }

    /// This value as an integer.
    public func asInt() throws(StateFormatError) -> Int {
        guard case .int(let i) = self else { throw StateFormatError("an integer was expected") }
        return i
    }

    /// This value as a string.
    public func asString() throws(StateFormatError) -> String {
        guard case .label(let s) = self else { throw StateFormatError("a string was expected") }
        return s
    }
}

/// A small recursive-descent JSON parser for state files (the export's parser reads lines of a
/// corpus and is internal to Export; a state file is the package's own, pretty-printed).
private struct ExactJSONParser {
    let bytes: [UInt8]
    var index = 0
    /// Nesting is bounded so a hostile file cannot exhaust the stack.
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(StateFormatError) -> ReportValue {
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw failure("text after the document") }
        return value
    }

    func failure(_ what: String) -> StateFormatError {
        StateFormatError("not JSON at byte \(index): \(what)")
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    mutating func expect(_ literal: String) throws(StateFormatError) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw failure("expected \(literal)") }
            index += 1
        }
    }

    mutating func value() throws(StateFormatError) -> ReportValue {
        skipSpace()
        guard index < bytes.count else { throw failure("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "\""): return .label(try string())
        case UInt8(ascii: "["):
            depth += 1
            guard depth <= 64 else { throw failure("nested too deeply") }
            defer { depth -= 1 }
            index += 1
            var items: [ReportValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                items.append(try value())
                skipSpace()
                guard index < bytes.count else { throw failure("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                throw failure("expected , or ]")
            }
        case UInt8(ascii: "{"):
            depth += 1
            guard depth <= 64 else { throw failure("nested too deeply") }
            defer { depth -= 1 }
            index += 1
            var fields: [(String, ReportValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a key") }
                let key = try string()
                skipSpace()
                try expect(":")
                fields.append((key, try value()))
                skipSpace()
                guard index < bytes.count else { throw failure("unexpected end") }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(fields) }
                throw failure("expected , or }")
            }
        default:
            return try number()
        }
    }

    mutating func number() throws(StateFormatError) -> ReportValue {
        let start = index
        var isFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                isFraction = true
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if !isFraction, let i = Int(text) { return .int(i) }
        guard !text.isEmpty, let d = Double(text), d.isFinite else { throw failure("not a number") }
        return .number(d)
    }

    mutating func string() throws(StateFormatError) -> String {
        index += 1   // the opening quote
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll() }
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                guard index < bytes.count else { throw failure("unexpected end") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
                       bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw failure("a \\u escape that is not a character") }
                    scalars.append(scalar)
                default:
                    throw failure("an unknown escape")
                }
            default:
                guard byte >= 0x20 else {
                    index -= 1   // the offset of the character itself (a raw newline in a hand-written file)
                    throw failure("a control character in a string")
                }
                run.append(byte)
            }
        }
        throw failure("a string that does not end")
    }

    mutating func hex4() throws(StateFormatError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unexpected end") }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a bad \\u escape")
            }
            code = code << 4 | UInt32(digit)
        }
        index += 4
        return code
    }
}
