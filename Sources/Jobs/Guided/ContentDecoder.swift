import Privacy

/// Reads a model's output back into `GeneratedContent`, checking every guide of the schema.
///
/// The grammar already forced the shape; checking again means a grammar mistake, a truncated
/// output or a model that ignored it shows up as an invalid output, never as a wrong value.
/// The output comes in sealed and its strings go out sealed: the words are open only while
/// they are read.
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

    /// Decodes `output` as a value of `schema`.
    public static func decode(_ output: SealedText, as schema: GenerationSchema) throws(Violation) -> GeneratedContent {
        try output.withUnsealedText { words in
            Result { () throws(Violation) in
                var reader = Reader(scalars: Array(words.unicodeScalars))
                let value = try reader.value(schema)
                guard reader.atEnd else { throw .trailingCharacters }
                return value
            }
        }.get()
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
                return .string(SealedText(text))
            case .anyOf(let values):
                let text = try string()
                guard values.contains(text) else { throw .notAnAllowedValue }
                return .string(SealedText(text))
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
                return .variant(tag: variant.tag, try fields(variant.properties, first: false))   // the schema's tag, not the output's
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
