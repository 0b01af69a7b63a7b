import Engine
import Foundation
import Privacy

/// What a Chat Completions server's response means for one request: the answer's words, or the
/// named failure a run counts (`GenerationOutcome.Failure`, docs/suite.md's mapping).
///
/// | the server says | the outcome |
/// |---|---|
/// | 200, `message.content`, `finish_reason` `stop` (or none) | the content, compacted (`CompactJSON`) |
/// | 200, a `message.refusal` | `refused` |
/// | 200, `finish_reason` `length` | `outputTruncated` |
/// | 200, `finish_reason` `content_filter` | `guardrailViolation` |
/// | 429 | `rateLimited` |
/// | 4xx with `error.code` or `error.type` `context_length_exceeded` (or naming the context window) | `contextExceeded` |
/// | 4xx with `error.code` or `error.type` naming a guardrail or content filter | `guardrailViolation` |
/// | 4xx with `error.code` or `error.type` `refusal` | `refused` |
/// | any other status | `decodeFailed(status:)` with the HTTP status |
/// | a body that is not a Chat Completions response | `decodeFailed(status: -1)` |
///
/// Only the fixed fields are read to decide (`finish_reason`, `error.code`, `error.type`):
/// never the error's message, which is the server's prose and may quote the request.
enum ChatCompletionsAnswer {
    /// The status `decodeFailed` carries for a body that is not a Chat Completions response.
    static let malformedStatus: Int32 = -1
    /// The status `decodeFailed` carries when no response came (closed, timed out, unreadable).
    static let noResponseStatus: Int32 = -2

    /// The output of `request` that `response` gives.
    static func output(of response: HTTPResponse, for request: GenerationRequest, promptTokens: Int) -> Result<SealedText, GenerationOutcome.Failure> {
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard response.status == 200 else {
            if response.status == 429 { return .failure(.rateLimited) }
            let error = object?["error"] as? [String: Any]
            let names = [error?["code"], error?["type"], object?["code"], object?["type"]].compactMap { $0 as? String }.map { $0.lowercased() }
            if (400..<500).contains(response.status) {
                if names.contains(where: { $0.contains("context_length") || $0.contains("context_window") || $0.contains("exceeded_context") }) {
                    return .failure(.contextExceeded(promptTokens: promptTokens, limit: request.contextLimit))
                }
                if names.contains(where: { $0.contains("guardrail") || $0.contains("content_filter") }) {
                    return .failure(.guardrailViolation)
                }
                if names.contains(where: { $0.contains("refusal") }) { return .failure(.refused) }
                if names.contains(where: { $0.contains("rate_limit") }) { return .failure(.rateLimited) }
            }
            return .failure(.decodeFailed(status: Int32(clamping: response.status)))
        }
        guard let choices = object?["choices"] as? [Any], let choice = choices.first as? [String: Any],
              let message = choice["message"] as? [String: Any] else {
            return .failure(.decodeFailed(status: malformedStatus))
        }
        if let refusal = message["refusal"] as? String, !refusal.isEmpty { return .failure(.refused) }
        switch choice["finish_reason"] as? String {
        case "length": return .failure(.outputTruncated)
        case "content_filter": return .failure(.guardrailViolation)
        default: break
        }
        guard let content = message["content"] as? String else { return .failure(.decodeFailed(status: malformedStatus)) }
        return .success(SealedText(CompactJSON.compact(content)))
    }
}
