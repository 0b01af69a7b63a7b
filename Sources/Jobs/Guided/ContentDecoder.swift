/// Reads a model's output back into `GeneratedContent`, checking every guide of the schema.
///
/// The grammar already forced the shape; checking again means a grammar mistake, a truncated
/// output or a model that ignored it shows up as an invalid output, never as a wrong value.
public enum ContentDecoder {
    /// Why an output does not fit its schema. Never carries the output's words.
    public enum Violation: Error, Sendable, Equatable {
        case malformed(offset: Int)
        case stringLength(Int, allowed: ClosedRange<Int>)
        case count(Int, allowed: ClosedRange<Int>)
        case integerOutOfRange
        case notAnAllowedValue
        case unknownVariant
        case trailingCharacters
    }

    /// Decodes `text` as a value of `schema`.
    public static func decode(_ text: String, as schema: GenerationSchema) throws(Violation) -> GeneratedContent {
        var reader = Reader(scalars: Array(text.unicodeScalars))
        let value = try reader.value(schema)
        guard reader.atEnd else { throw .trailingCharacters }
        return value
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        var atEnd: Bool { index == scalars.count }

        mutating func expect(_ literal: String) throws(Violation) {
            for scalar in literal.unicodeScalars {
                guard index < scalars.count, scalars[index] == scalar else { throw .malformed(offset: index) }
                index += 1
            }
        }

        mutating func string() throws(Violation) -> String {
            try expect("\"")
            var result = String.UnicodeScalarView()
            while index < scalars.count, scalars[index] != "\"" {
                let scalar = scalars[index]
                guard scalar != "\\", scalar.value >= 0x20, scalar.value != 0x7F else { throw .malformed(offset: index) }
                result.append(scalar)
                index += 1
            }
            try expect("\"")
            return String(result)
        }

        mutating func value(_ schema: GenerationSchema) throws(Violation) -> GeneratedContent {
            switch schema {
            case .string(let length):
                let text = try string()
                guard length.contains(text.count) else { throw .stringLength(text.count, allowed: length) }
                return .string(text)
            case .anyOf(let values):
                let text = try string()
                guard values.contains(text) else { throw .notAnAllowedValue }
                return .string(text)
            case .integer(let range):
                let start = index
                while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
                guard index > start, index - start <= 18 else { throw .malformed(offset: start) }
                let number = Int(String(String.UnicodeScalarView(scalars[start..<index])))!
                guard range.contains(number) else { throw .integerOutOfRange }
                return .integer(number)
            case .array(let element, let count):
                try expect("[")
                var items: [GeneratedContent] = []
                if index < scalars.count, scalars[index] != "]" {
                    items.append(try value(element))
                    while index < scalars.count, scalars[index] == "," {
                        index += 1
                        items.append(try value(element))
                    }
                }
                try expect("]")
                guard count.contains(items.count) else { throw .count(items.count, allowed: count) }
                return .array(items)
            case .object(let properties):
                return .object(try fields(properties, first: true))
            case .union(let variants):
                try expect(#"{"kind":"#)
                let tag = try string()
                guard let variant = variants.first(where: { $0.tag == tag }) else { throw .unknownVariant }
                return .variant(tag: tag, try fields(variant.properties, first: false))
            }
        }

        mutating func fields(_ properties: [GenerationSchema.Property], first: Bool) throws(Violation) -> [String: GeneratedContent] {
            var result: [String: GeneratedContent] = [:]
            for (offset, property) in properties.enumerated() {
                try expect((offset == 0 && first ? "{" : ",") + "\"" + property.name + "\":")
                result[property.name] = try value(property.schema)
            }
            if properties.isEmpty && first { try expect("{") }
            try expect("}")
            return result
        }
    }
}
