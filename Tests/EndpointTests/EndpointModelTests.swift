@testable import Endpoint
import Engine
import Foundation
import Jobs
import Privacy
import Testing
import TestSupport

/// `EndpointModel` against a scripted Chat Completions server on 127.0.0.1: every answer the
/// server can give becomes the output or its named failure, all on one keep-alive connection.
@Suite struct EndpointModelTests {
    static func ask(_ responses: [String], count: Int? = nil, timeout: Int32 = 20_000) throws
        -> (outcomes: [GenerationOutcome], requests: [[String: Any]]) {
        let directory = try TemporaryDirectory(prefix: "endpoint")
        let server = try ChatStubServer(responses: responses, in: directory)
        defer { server.stop() }
        let model = try EndpointModel.connect(try EndpointURL(server.url), timeoutMilliseconds: timeout)
        let outcomes = model.respond(to: Array(repeating: ChatCompletionsRequestTests.request(), count: count ?? responses.count))
        return (outcomes, server.requests)
    }

    static func text(_ outcome: GenerationOutcome) -> String? {
        (try? outcome.output.get())?.withUnsealedText { $0 }
    }

    @Test func eachAnswerBecomesItsOutcomeOnOneConnection() throws {
        let (outcomes, requests) = try Self.ask([
            ChatStubServer.answer("{ \"replies\": [\"Yes\", \"Caf\\u00e9?\"] }"),
            ChatStubServer.answer(#"{"replies":["Later"]}"#, chunked: true),
            #"{"content": null, "refusal": "I cannot help with that."}"#,
            ChatStubServer.answer(#"{"replies":["Ye"#, finishReason: "length"),
            ChatStubServer.answer("", finishReason: "content_filter"),
            #"{"status": 429, "error": {"type": "rate_limit_exceeded", "code": "rate_limit_exceeded"}}"#,
            #"{"status": 400, "error": {"type": "invalid_request_error", "code": "context_length_exceeded"}}"#,
            #"{"status": 400, "error": {"type": "guardrail_violation"}}"#,
            #"{"status": 400, "error": {"type": "invalid_request_error", "code": "refusal"}}"#,
            #"{"status": 503, "error": {"type": "server_error"}}"#,
            #"{"status": 404, "raw": "not here"}"#,
            #"{"status": 200, "raw": "{\"choices\": []}"}"#,
            #"{"status": 200, "raw": "not json at all", "chunked": true}"#,
            ChatStubServer.answer(#"{"replies":["Still here"]}"#),
        ])
        #expect(outcomes.count == 14)
        #expect(Self.text(outcomes[0]) == #"{"replies":["Yes","Café?"]}"#)
        #expect(Self.text(outcomes[1]) == #"{"replies":["Later"]}"#)
        let failures = outcomes.dropFirst(2).prefix(11).map { outcome -> GenerationOutcome.Failure? in
            if case .failure(let failure) = outcome.output { failure } else { nil }
        }
        let prompt = outcomes[0].promptTokens
        #expect(failures == [.refused, .outputTruncated, .guardrailViolation, .rateLimited,
                             .contextExceeded(promptTokens: prompt, limit: 4096), .guardrailViolation, .refused,
                             .decodeFailed(status: 503), .decodeFailed(status: 404), .decodeFailed(status: -1), .decodeFailed(status: -1)])
        #expect(Self.text(outcomes[13]) == #"{"replies":["Still here"]}"#)
        // Sized in the phone's tokens, as every size is.
        #expect(prompt == PhoneTokenizer(.builtIn).promptTokenCount(for: ChatCompletionsRequestTests.request()))
        #expect(outcomes[0].outputTokens == PhoneTokenizer(.builtIn).tokenCount(of: SealedText(#"{"replies":["Yes","Café?"]}"#)))
        #expect(outcomes[3].outputTokens == 48 && outcomes[2].outputTokens == 0, "cut at the allowance: the whole allowance; refused: nothing")
        #expect(outcomes.allSatisfy { $0.choiceProbability == 1 })
        #expect(requests.count == 14)
        #expect(requests.allSatisfy { $0["connection"] as? Int == 1 }, "one keep-alive connection for every request")
        #expect(requests.allSatisfy { $0["path"] as? String == "/v1/chat/completions" && $0["temperature"] as? Int == 0 })
        #expect(requests.allSatisfy { $0["format"] as? String == "json_schema" && $0["strict"] as? Bool == true })
        #expect(requests.allSatisfy { $0["roles"] as? [String] == ["system", "user"] && $0["max_tokens"] as? Int == 48 })
    }

    @Test func aClosedConnectionFailsEveryLaterRequest() throws {
        let (outcomes, requests) = try Self.ask([ChatStubServer.answer(#"{"replies":["Bye"]}"#, close: true),
                                                 ChatStubServer.answer(#"{"replies":["Never"]}"#)], count: 3)
        #expect(Self.text(outcomes[0]) == #"{"replies":["Bye"]}"#)
        for outcome in outcomes.dropFirst() {
            guard case .failure(.decodeFailed(status: -2)) = outcome.output else { Issue.record("not a lost connection"); continue }
        }
        #expect(requests.count == 1, "a confined process cannot connect again, so nothing more is sent")
    }

    @Test func aServerThatStallsTimesOutAndTheConnectionIsGivenUp() throws {
        let (outcomes, requests) = try Self.ask([#"{"stall": true}"#], count: 2, timeout: 1000)
        for outcome in outcomes {
            guard case .failure(.decodeFailed(status: -2)) = outcome.output else { Issue.record("not a lost connection"); continue }
        }
        #expect(requests.count == 1)
    }

    @Test func nothingListeningIsUnreachableNamingTheURL() throws {
        let url = "http://127.0.0.1:\(ChatStubServer.unusedPort())"
        #expect(throws: EndpointError.unreachable(url: url, reason: "connection refused")) {
            try EndpointModel.connect(try EndpointURL(url))
        }
        #expect(EndpointError.unreachable(url: url, reason: "connection refused").description
                == "no Chat Completions server answers at \(url): connection refused (start it first, for example with fm serve)")
    }
}
