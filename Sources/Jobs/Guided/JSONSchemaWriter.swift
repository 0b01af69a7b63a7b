import Engine

/// Writes the JSON Schema of a `GenerationSchema`: the shape an engine that takes schemas
/// instead of GBNF grammars (a Chat Completions server's `response_format`) generates under.
///
/// The same guides as the grammar, in JSON Schema's words: a string's length (`minLength`,
/// `maxLength`), an array's count (`minItems`, `maxItems`), an integer's range, `enum` for
/// `anyOf`, every property required and no other allowed (`strict` structured outputs need both),
/// and a union as `anyOf` of objects whose `kind` is a `const` written first. Properties are
/// listed in the order the decoder reads them. What a server cannot enforce the decoder still
/// checks (`ContentDecoder`), so a server that ignores a guide gives an invalid output, never a
/// wrong value.
public enum JSONSchemaWriter {
    /// The compact JSON text of `schema`'s JSON Schema.
    public static func json(for schema: GenerationSchema) -> String {
        switch schema {
        case .string(let length):
            return #"{"type":"string","minLength":\#(length.lowerBound),"maxLength":\#(length.upperBound)}"#
        case .integer(let range):
            return #"{"type":"integer","minimum":\#(range.lowerBound),"maximum":\#(range.upperBound)}"#
        case .anyOf(let values):
            return #"{"type":"string","enum":["# + values.map(quoted).joined(separator: ",") + "]}"
        case .array(let element, let count):
            return #"{"type":"array","items":"# + json(for: element)
                + #","minItems":\#(count.lowerBound),"maxItems":\#(count.upperBound)}"#
        case .object(let properties):
            return object(properties.map { ($0.name, json(for: $0.schema)) })
        case .union(let variants):
            let alternatives = variants.map { variant in
                object([("kind", #"{"type":"string","const":"# + quoted(variant.tag) + "}")]
                       + variant.properties.map { ($0.name, json(for: $0.schema)) })
            }
            return #"{"anyOf":["# + alternatives.joined(separator: ",") + "]}"
        }
    }

    /// The response schema named `name` for `schema`.
    public static func responseSchema(_ name: String, _ schema: GenerationSchema) -> ResponseSchema {
        ResponseSchema(name: name, json: json(for: schema))
    }

    /// An object of exactly these properties, in order, all required.
    private static func object(_ properties: [(name: String, schema: String)]) -> String {
        let listed = properties.map { quoted($0.name) + ":" + $0.schema }.joined(separator: ",")
        let required = properties.map { quoted($0.name) }.joined(separator: ",")
        return #"{"type":"object","properties":{"# + listed + #"},"required":["# + required + #"],"additionalProperties":false}"#
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
