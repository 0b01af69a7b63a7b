import Engine
import Privacy

/// A `GenerationRequest` as a Chat Completions request, written as the phone's model is asked:
/// a fresh session of the job's instructions (the system message) and one prompt (the user
/// message), greedy (`temperature` 0), at most `maxOutputTokens` written (`max_tokens`), and the
/// answer generated under the job's output schema (`response_format`, spelled as `format` says:
/// `json_schema` and `strict` by default).
///
/// A routing request's `choices` are not sent: a server cannot score them as the llama.cpp
/// engine does, so it generates under the schema, whose `enum` holds the same choices
/// (`choiceProbability` is then 1). The request body holds the suite's words; it is sent to the
/// loopback server only and never kept, printed or logged.
enum ChatCompletionsRequest {
    /// The HTTP request (head and body) for `request`, to `url`, naming `model` when given.
    static func bytes(for request: GenerationRequest, url: EndpointURL, model: String?, format: ResponseFormat = .jsonSchema) -> [UInt8] {
        let body = self.body(for: request, model: model, format: format)
        let head = "POST \(url.path) HTTP/1.1\r\n"
            + "Host: \(url.hostHeader)\r\n"
            + "Content-Type: application/json\r\n"
            + "Accept: application/json\r\n"
            + "Connection: keep-alive\r\n"
            + "Content-Length: \(body.count)\r\n"
            + "\r\n"
        return Array(head.utf8) + body
    }

    /// The JSON body.
    static func body(for request: GenerationRequest, model: String?, format: ResponseFormat = .jsonSchema) -> [UInt8] {
        var json = "{"
        if let model { json += #""model":"# + quoted(model) + "," }
        json += #""messages":[{"role":"system","content":"#
        request.instructions.withUnsealedText { json += quoted($0) }
        json += #"},{"role":"user","content":"#
        request.prompt.withUnsealedText { json += quoted($0) }
        json += #"}],"temperature":0,"max_tokens":\#(request.maxOutputTokens),"stream":false"#
        if let schema = request.responseSchema {
            switch format {
            case .jsonSchema:
                json += #","response_format":{"type":"json_schema","json_schema":{"name":"# + quoted(schema.name)
                    + #","strict":true,"schema":"# + schema.json + "}}"
            case .jsonObject:
                json += #","response_format":{"type":"json_object","schema":"# + schema.json + "}"
            }
        }
        json += "}"
        return Array(json.utf8)
    }

    /// A JSON string literal, as the compact result files write one (`ReportValue.compactQuoted`).
    static func quoted(_ text: String) -> String { ReportValue.compactQuoted(text) }
}
