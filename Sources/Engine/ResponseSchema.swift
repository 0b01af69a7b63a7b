/// The shape of a request's answer as a JSON Schema: what an engine that takes no GBNF grammar
/// (a Chat Completions server, `EndpointModel`) generates under, as `response_format`'s
/// `json_schema`.
///
/// Written by the job from the same `GenerationSchema` its grammar comes from, so both say the
/// same shape. Structure and fixed labels only (member names at most), never a thread's words,
/// as grammars.
public struct ResponseSchema: Sendable, Equatable {
    /// The schema's name (`json_schema.name`): the job's output type, such as `replies`.
    public var name: String
    /// The JSON Schema itself, as compact JSON text (an object).
    public var json: String

    public init(name: String, json: String) {
        self.name = name
        self.json = json
    }
}
