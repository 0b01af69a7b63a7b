/// A JSON result file's one type: its writer encodes it, the auditor decodes it strictly with
/// a `ResultStringJudge`, so what a file may hold is said once, here, by the type.
///
/// A module that writes result files lists their types (ReplayKit's `ResultDocuments.all`,
/// Compare's, Suite's); the auditor reads those lists, so a new result file needs no line in it.
public protocol ResultDocument: Codable, Sendable {
    /// The `schema` value the file carries ("replay.report/1"): files of one name are told apart by it.
    static var schema: String { get }
    /// Whether a file of this name under `--out` may be of this type.
    static func isFileName(_ name: String) -> Bool
}

extension ResultDocument {
    /// The file's text, as its writer renders a report a person may read (`ReportValue.json()`).
    public func json() -> String { ReportValue(encoding: self).json() }
}

extension ReportValue {
    /// `value` encoded by `ReportValueEncoder`. The encoder itself never fails, and the result
    /// files' types encode only numbers, strings, flags and containers of them.
    public init<T: Encodable>(encoding value: T) {
        self = try! ReportValueEncoder().encode(value)
    }
}

/// A result file's `schema` key: the document's own value, and only that, as it decodes.
public struct SchemaName<Document: ResultDocument>: Codable, Sendable, Equatable {
    public init() {}

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard text == Document.schema else { throw StateFormatError(at: decoder.codingPath, "not this file's schema") }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Document.schema)
    }
}
