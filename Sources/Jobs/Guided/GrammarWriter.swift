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

    /// Integers in a range: the digits allowed for its length, then checked exactly on decoding.
    private static func integerExpression(_ range: ClosedRange<Int>) -> String {
        precondition(range.lowerBound >= 0, "negative integers are not needed by any job")
        let maxDigits = String(range.upperBound).count
        let minDigits = String(range.lowerBound).count
        if maxDigits == 1 { return "[\(range.lowerBound)-\(range.upperBound)]" }
        let first = minDigits == 1 ? "[0-9]" : "[1-9]"
        return "\(first) [0-9]{0,\(maxDigits - 1)}"
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
