import Privacy

/// The shape of a job's output, declared once: it gives the grammar, the decoder and the checks.
///
/// In the spirit of Apple's `@Generable` with `@Guide` and `DynamicGenerationSchema`: a string
/// with a length range, an array with a count range, an integer with a range, one of values known
/// only at run time (`anyOf`), an object with fixed properties in order, and a tagged union. The
/// model writes compact JSON (no spaces) that the grammar forces into this shape; the decoder
/// reads it back and the same guides are checked again, so a grammar bug cannot let a bad value through.
public indirect enum GenerationSchema: Sendable, Equatable {
    /// A string of `length` characters, without quotes, backslashes or control characters.
    case string(length: ClosedRange<Int>)
    /// An array of `count` elements.
    case array(of: GenerationSchema, count: ClosedRange<Int>)
    /// A whole number in `range`.
    case integer(ClosedRange<Int>)
    /// One of these strings exactly.
    case anyOf([String])
    /// An object with these properties, written in this order (the model fills them in order).
    case object([Property])
    /// One of several objects, told apart by a `"kind"` property written first.
    case union([Variant])

    /// A named property of an object.
    public struct Property: Sendable, Equatable {
        public var name: String
        public var schema: GenerationSchema
        public init(_ name: String, _ schema: GenerationSchema) {
            self.name = name
            self.schema = schema
        }
    }

    /// A case of a union: its tag and its properties.
    public struct Variant: Sendable, Equatable {
        public var tag: String
        public var properties: [Property]
        public init(_ tag: String, _ properties: [Property]) {
            self.tag = tag
            self.properties = properties
        }
    }
}

/// A value the model wrote, decoded and checked against its schema.
///
/// Its strings stay sealed: they are the model's words, so nothing reads them but the jobs'
/// checks and scores, through `withUnsealedText`. Tags and property names come from the schema.
public indirect enum GeneratedContent: Sendable, Equatable {
    case string(SealedText)
    case array([GeneratedContent])
    case integer(Int)
    case object([String: GeneratedContent])
    case variant(tag: String, [String: GeneratedContent])

    /// The string, if this is one.
    public var stringValue: SealedText? { if case .string(let s) = self { s } else { nil } }
    /// The elements, if this is an array.
    public var arrayValue: [GeneratedContent]? { if case .array(let a) = self { a } else { nil } }
    /// The integer, if this is one.
    public var integerValue: Int? { if case .integer(let i) = self { i } else { nil } }
    /// A property of an object or a variant.
    public subscript(property: String) -> GeneratedContent? {
        switch self {
        case .object(let fields), .variant(_, let fields): fields[property]
        default: nil
        }
    }
}
