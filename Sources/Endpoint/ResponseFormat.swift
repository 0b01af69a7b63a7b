/// How a request asks the server for JSON under the job's schema: the two spellings servers take.
///
/// `jsonSchema` is the Chat Completions API's own (`{"type": "json_schema", "json_schema":
/// {"name", "strict": true, "schema"}}`), what OpenAI-compatible servers and `llama-server` take;
/// `jsonObject` puts the schema beside `{"type": "json_object"}` (`{"type": "json_object",
/// "schema": …}`), the only form llama-cpp-python's server takes (it answers 422 to the other).
public enum ResponseFormat: String, Sendable, CaseIterable {
    case jsonSchema = "json_schema"
    case jsonObject = "json_object"
}
