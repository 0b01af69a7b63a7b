/// Writes one JSON value by hand, keys in exactly the order they are added.
///
/// The corpus must be byte-identical for a seed, so neither `JSONSerialization` (key order and
/// number formatting not promised) nor `JSONEncoder` is used; strings are escaped per RFC 8259
/// and everything outside ASCII is written as raw UTF-8.
struct JSONBuilder {
    private(set) var text = ""
    /// For each open container, whether nothing has been written in it yet.
    private var firstInContainer: [Bool] = []
    private var afterKey = false

    init(capacity: Int = 256) { text.reserveCapacity(capacity) }

    private mutating func separate() {
        if afterKey { afterKey = false; return }
        if let first = firstInContainer.last {
            if !first { text.append(",") }
            firstInContainer[firstInContainer.count - 1] = false
        }
    }

    mutating func beginObject() { separate(); text.append("{"); firstInContainer.append(true) }
    mutating func endObject() { text.append("}"); firstInContainer.removeLast() }
    mutating func beginArray() { separate(); text.append("["); firstInContainer.append(true) }
    mutating func endArray() { text.append("]"); firstInContainer.removeLast() }

    mutating func key(_ name: String) {
        separate()
        JSONBuilder.appendQuoted(name, to: &text)
        text.append(":")
        afterKey = true
    }

    mutating func string(_ value: String) { separate(); JSONBuilder.appendQuoted(value, to: &text) }
    mutating func int(_ value: Int) { separate(); text.append(String(value)) }
    mutating func bool(_ value: Bool) { separate(); text.append(value ? "true" : "false") }
    /// Appends already-written JSON (a nested value built by another builder).
    mutating func raw(_ json: String) { separate(); text.append(json) }

    mutating func field(_ name: String, _ value: String) { key(name); string(value) }
    mutating func field(_ name: String, _ value: Int) { key(name); int(value) }
    mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    mutating func field(_ name: String, strings: [String]) {
        key(name)
        beginArray()
        for item in strings { string(item) }
        endArray()
    }
    mutating func field(_ name: String, ints: [Int]) {
        key(name)
        beginArray()
        for item in ints { int(item) }
        endArray()
    }

    /// Appends `value` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func appendQuoted(_ value: String, to out: inout String) {
        out.append("\"")
        var needsEscape = false
        for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out.append(value)
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out.append("\\\"")
                case "\\": out.append("\\\\")
                case "\n": out.append("\\n")
                case "\r": out.append("\\r")
                case "\t": out.append("\\t")
                case "\u{08}": out.append("\\b")
                case "\u{0C}": out.append("\\f")
                default:
                    if scalar.value < 0x20 {
                        let hex = String(scalar.value, radix: 16)
                        out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        out.append("\"")
    }
}
