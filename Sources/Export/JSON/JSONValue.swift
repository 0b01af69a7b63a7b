/// A whole JSON value as a tree: for tests and for callers that want everything at once.
///
/// The reader itself never builds one (it reads the tape directly, see `JSONDocument`); this is
/// the plain, comparable form of what the parser accepted.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Parses one JSON text.
    init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        var tokens: [JSONToken] = []
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBytes { raw in
            do throws(JSONSyntaxError) {
                try JSONParser.parse(raw, into: &tokens)
            } catch {
                return .failure(error)
            }
            return .success(tokens.withUnsafeBufferPointer { tape in
                JSONValue(JSONDocument(bytes: raw, tokens: tape), at: 0)
            })
        }
        self = try result.get()
    }

    /// Parses one JSON text given as a string.
    init(parsing text: String) throws(JSONSyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    private init(_ document: JSONDocument, at index: Int) {
        switch document.kind(index) {
        case .null: self = .null
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .number: self = .number(document.double(index))
        case .string: self = .string(document.string(index))
        case .array:
            var elements: [JSONValue] = []
            document.forEachElement(of: index) { _, element in elements.append(JSONValue(document, at: element)) }
            self = .array(elements)
        case .object:
            var members: [(String, JSONValue)] = []
            document.forEachMember(of: index) { key, value in
                members.append((String(decoding: key, as: UTF8.self), JSONValue(document, at: value)))
            }
            self = .object(members)
        }
    }

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}
