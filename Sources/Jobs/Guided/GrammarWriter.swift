/// Writes the GBNF grammar (llama.cpp's grammar format) for a `GenerationSchema`.
///
/// One rule per schema node, named by its path, so the grammar reads like the schema. Strings
/// exclude `"`, `\` and control characters: no escapes to count around, so a length guide in
/// characters is exactly a repetition count.
public enum GrammarWriter {
    /// The grammar whose language is exactly the compact JSON of values of `schema`.
    public static func grammar(for schema: GenerationSchema) -> String {
        var rules: [String] = []
        _ = rule(for: schema, name: "root", into: &rules)
        // Children are defined before their parents; list the root first so the grammar reads top-down.
        rules = rules.filter { $0.hasPrefix("root ::=") } + rules.filter { !$0.hasPrefix("root ::=") }.reversed()
        rules.append(#"char ::= [^"\\\x00-\x1F\x7F]"#)
        return rules.joined(separator: "\n") + "\n"
    }

    /// Adds the rules for `schema` and returns the expression that matches it.
    private static func rule(for schema: GenerationSchema, name: String, into rules: inout [String]) -> String {
        func define(_ expression: String) -> String {
            rules.append("\(name) ::= \(expression)")
            return name
        }
        switch schema {
        case .string(let length):
            return define(#""\"" "# + repeated("char", length) + #" "\"""#)
        case .integer(let range):
            return define(integerExpression(range))
        case .anyOf(let values):
            precondition(!values.isEmpty, "anyOf needs at least one value")
            return define(values.map { literal("\"" + $0 + "\"") }.joined(separator: " | "))
        case .array(let element, let count):
            let item = rule(for: element, name: name + "-item", into: &rules)
            let rest = count.upperBound > 1
                ? " " + repeated("(\",\" \(item))", max(0, count.lowerBound - 1)...(count.upperBound - 1))
                : ""
            let body = count.lowerBound == 0 ? "(\(item)\(rest))?" : "\(item)\(rest)"
            return define(#""[" "# + body + #" "]""#)
        case .object(let properties):
            return define(objectExpression(properties, prefix: nil, name: name, into: &rules))
        case .union(let variants):
            let alternatives = variants.map { variant in
                objectExpression(variant.properties, prefix: variant.tag, name: name + "-" + variant.tag, into: &rules)
            }
            return define(alternatives.map { "(\($0))" }.joined(separator: " | "))
        }
    }

    private static func objectExpression(_ properties: [GenerationSchema.Property], prefix tag: String?, name: String,
                                         into rules: inout [String]) -> String {
        var parts: [String] = []
        if let tag { parts.append(literal(#"{"kind":""# + tag + "\"")) }
        for (index, property) in properties.enumerated() {
            let opener = index == 0 && tag == nil ? "{" : ","
            let value = rule(for: property.schema, name: name + "-" + property.name, into: &rules)
            parts.append(literal(opener + "\"" + property.name + "\":") + " " + value)
        }
        if parts.isEmpty { parts.append(literal("{")) }
        parts.append(literal("}"))
        return parts.joined(separator: " ")
    }

    /// `x{m,n}` in GBNF, written out so older grammar parsers need no repetition syntax.
    private static func repeated(_ item: String, _ range: ClosedRange<Int>) -> String {
        if range.lowerBound == range.upperBound { return "\(item){\(range.lowerBound)}" }
        return "\(item){\(range.lowerBound),\(range.upperBound)}"
    }

    /// Integers in exactly `range`, without leading zeros: one alternative per run of digits
    /// (1...180 is `[1-9] | [1-9] [0-9] | "1" [0-7] [0-9] | "1" "8" "0"`), so the model cannot write a
    /// value the decoder would reject ("0", "240", "007").
    static func integerExpression(_ range: ClosedRange<Int>) -> String {
        precondition(range.lowerBound >= 0, "negative integers are not needed by any job")
        var alternatives: [String] = []
        let low = String(range.lowerBound), high = String(range.upperBound)
        for digits in low.count...high.count {
            let from = digits == low.count ? low : "1" + String(repeating: "0", count: digits - 1)
            let to = digits == high.count ? high : String(repeating: "9", count: digits)
            alternatives += sameLength(Array(from), Array(to))
        }
        return alternatives.joined(separator: " | ")
    }

    /// GBNF sequences matching the decimal numbers from `low` to `high`, both `n` digits long.
    private static func sameLength(_ low: [Character], _ high: [Character]) -> [String] {
        guard let a = low.first, let b = high.first else { return [""] }
        let restLow = Array(low.dropFirst()), restHigh = Array(high.dropFirst())
        func join(_ head: String, _ tail: String) -> String { tail.isEmpty ? head : head + " " + tail }
        func digitClass(_ x: Character, _ y: Character) -> String { x == y ? literal(String(x)) : "[\(x)-\(y)]" }
        let anyTail = restLow.isEmpty ? "" : "[0-9]" + (restLow.count > 1 ? "{\(restLow.count)}" : "")
        if a == b { return sameLength(restLow, restHigh).map { join(literal(String(a)), $0) } }
        if restLow.allSatisfy({ $0 == "0" }) && restHigh.allSatisfy({ $0 == "9" }) {
            return [join(digitClass(a, b), anyTail)]
        }
        var result: [String] = []
        var first = a, last = b
        if !restLow.allSatisfy({ $0 == "0" }) {
            result += sameLength(restLow, Array(repeating: "9", count: restLow.count)).map { join(literal(String(a)), $0) }
            first = Character(Unicode.Scalar(a.asciiValue! + 1))
        }
        let highIsFull = restHigh.allSatisfy { $0 == "9" }
        if !highIsFull { last = Character(Unicode.Scalar(b.asciiValue! - 1)) }
        if first <= last { result.append(join(digitClass(first, last), anyTail)) }
        if !highIsFull {
            result += sameLength(Array(repeating: "0", count: restHigh.count), restHigh).map { join(literal(String(b)), $0) }
        }
        return result
    }

    /// A GBNF string literal.
    static func literal(_ text: String) -> String {
        var escaped = "\""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}
