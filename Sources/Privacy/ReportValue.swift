import Foundation

/// A value in a written report: numbers, flags, fixed labels and metadata names, in a fixed order.
///
/// Reports are built from this type so that the key order is the documented one and so that
/// nothing can be written that was not put here on purpose: `SealedText` cannot become a
/// `ReportValue`. State files reach it through `Codable` (`ReportValueEncoder`,
/// `ReportValueDecoder`), each type writing its keys explicitly in the documented order.
public indirect enum ReportValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case number(Double)
    /// A label: a key, a reason, a build or model name, a file path. Never words from a thread:
    /// a label taken from a corpus goes in as a `ReportLabel`, which passed its rule or is a hash.
    case label(String)
    case array([ReportValue])
    case object([(String, ReportValue)])

    public static func == (a: ReportValue, b: ReportValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.int(x), .int(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.label(x), .label(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// A label from a corpus, after its rule (`ReportLabel`).
    public static func label(_ label: ReportLabel) -> ReportValue { .label(label.text) }

    /// A number, or null when there is none (a rate over zero places).
    public static func number(_ value: Double?) -> ReportValue { value.map { .number($0) } ?? .null }

    /// The value at `key` of an object.
    public subscript(key: String) -> ReportValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    /// Follows a dotted path such as "jobs.chips.eligible".
    public func at(_ path: String) -> ReportValue? {
        var value: ReportValue? = self
        for key in path.split(separator: ".") { value = value?[String(key)] }
        return value
    }

    /// The number this holds, if any.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// Pretty-printed JSON, two-space indented, keys in the order given.
    public func json() -> String {
        var out = ""
        write(to: &out, indent: 0, exact: false)
        return out + "\n"
    }

    /// Writes the value as pretty-printed JSON: its fractions rounded to six digits for a person
    /// (`json()`), or, `exact`, as text that parses back to the same `Double` (`exactJSON()`).
    func write(to out: inout String, indent: Int, exact: Bool) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closing = String(repeating: "  ", count: indent)
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d):
            if !d.isFinite { out += "null" }
            else if exact { out += Self.exactText(d) }
            else if d == d.rounded(), abs(d) < 1e15 { out += String(Int(d)) }
            else { out += String(format: "%.6g", d) }
        case .label(let s): out += Self.quoted(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.write(to: &out, indent: indent + 1, exact: exact)
                out += i == items.count - 1 ? "\n" : ",\n"
            }
            out += closing + "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{\n"
            for (i, (key, value)) in fields.enumerated() {
                out += pad + Self.quoted(key) + ": "
                value.write(to: &out, indent: indent + 1, exact: exact)
                out += i == fields.count - 1 ? "\n" : ",\n"
            }
            out += closing + "}"
        }
    }

    /// JSON without white space, keys in the order given, one line break at the end: the
    /// compact result files' layout (`items.json.zst`). Fractions as Swift's shortest text.
    public func compactJSON() -> String {
        var out = ""
        writeCompact(to: &out)
        return out + "\n"
    }

    private func writeCompact(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d): out += "\(d)"
        case .label(let s): out += Self.compactQuoted(s)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.writeCompact(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { out += "," }
                out += Self.compactQuoted(key) + ":"
                value.writeCompact(to: &out)
            }
            out += "}"
        }
    }

    /// A JSON string as the compact result files write it (`items.json.zst`): quotes and
    /// backslashes escaped, every other control character as `\u00XX`. The writer and the
    /// audit, which rebuilds such a file's exact bytes, both call this one function.
    public static func compactQuoted(_ text: String) -> String { quoted(text, shortEscapes: false) }

    /// A JSON string as the indented files write it: `\n`, `\r` and `\t` in their short forms too.
    static func quoted(_ text: String, shortEscapes: Bool = true) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n" where shortEscapes: out += "\\n"
            case "\r" where shortEscapes: out += "\\r"
            case "\t" where shortEscapes: out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
