@testable import Endpoint
import Engine
import Foundation
import Jobs
import Privacy
import Testing

/// A request as the phone's model gets it: system and user messages, greedy, capped, and the
/// job's output schema as a strict JSON Schema.
@Suite struct ChatCompletionsRequestTests {
    static func request(_ schema: ResponseSchema? = Replies.responseSchema) -> GenerationRequest {
        var request = GenerationRequest(instructions: SealedText("Suggest \"short\" replies.\n"), prompt: SealedText("How was the run? 走った"),
                                        grammar: Replies.grammar, maxOutputTokens: 48)
        request.responseSchema = schema
        return request
    }

    @Test func theBodyIsAGreedyChatWithTheJobsSchema() throws {
        let body = ChatCompletionsRequest.body(for: Self.request(), model: "apple-on-device")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(json["model"] as? String == "apple-on-device")
        #expect(json["temperature"] as? Int == 0)
        #expect(json["max_tokens"] as? Int == 48)
        #expect(json["stream"] as? Bool == false)
        let messages = try #require(json["messages"] as? [[String: String]])
        #expect(messages.map { $0["role"] } == ["system", "user"])
        #expect(messages[0]["content"] == "Suggest \"short\" replies.\n")
        #expect(messages[1]["content"] == "How was the run? 走った")
        let format = try #require(json["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        let schema = try #require(format["json_schema"] as? [String: Any])
        #expect(schema["name"] as? String == "replies")
        #expect(schema["strict"] as? Bool == true)
        let replies = try #require(schema["schema"] as? [String: Any])
        #expect(replies["type"] as? String == "object")
        #expect(replies["required"] as? [String] == ["replies"])
        #expect(replies["additionalProperties"] as? Bool == false)
        #expect(ChatCompletionsRequest.body(for: Self.request(nil), model: nil).count > 0)
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(ChatCompletionsRequest.body(for: Self.request(nil), model: nil))) as? [String: Any])
        #expect(bare["model"] == nil && bare["response_format"] == nil)
    }

    /// `--response-format json_object`: the schema beside the type, as llama-cpp-python's server reads it.
    @Test func theJSONObjectFormPutsTheSchemaBesideTheType() throws {
        let body = ChatCompletionsRequest.body(for: Self.request(), model: nil, format: .jsonObject)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let format = try #require(json["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_object" && format["json_schema"] == nil)
        let schema = try #require(format["schema"] as? [String: Any])
        #expect(schema["required"] as? [String] == ["replies"])
    }

    @Test func everyJobsSchemaIsJSONSchemaWithItsGuides() throws {
        func parsed(_ schema: GenerationSchema) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(JSONSchemaWriter.json(for: schema).utf8)) as? [String: Any])
        }
        #expect(JSONSchemaWriter.json(for: Replies.schema)
                == #"{"type":"object","properties":{"replies":{"type":"array","items":{"type":"string","minLength":1,"maxLength":40},"minItems":1,"maxItems":3}},"required":["replies"],"additionalProperties":false}"#)
        #expect(JSONSchemaWriter.json(for: .object([.init("to", .anyOf(["Coach", "Sa\"ge"]))]))
                == #"{"type":"object","properties":{"to":{"type":"string","enum":["Coach","Sa\"ge"]}},"required":["to"],"additionalProperties":false}"#)
        let route = try parsed(Route.schema(members: ["Coach", "Sage"]))
        let to = try #require((route["properties"] as? [String: [String: Any]])?["to"])
        #expect(to["enum"] as? [String] == Route.choices(members: ["Coach", "Sage"]))
        let draft = try parsed(Draft.schema)
        let variants = try #require(draft["anyOf"] as? [[String: Any]])
        #expect(variants.count == 4)
        let timer = variants[1]
        #expect((timer["required"] as? [String]) == ["kind", "label", "minutes"])
        let properties = try #require(timer["properties"] as? [String: [String: Any]])
        #expect(properties["kind"]?["const"] as? String == "timer")
        #expect(properties["minutes"]?["minimum"] as? Int == 1 && properties["minutes"]?["maximum"] as? Int == 180)
        _ = try parsed(PushLine.schema)
        #expect(PushLine.responseSchema.name == "push_line" && Draft.responseSchema.name == "draft")
    }

    @Test func theHeadNamesTheLoopbackHostAndTheBodysLength() throws {
        let url = try EndpointURL("http://localhost:1976")
        let bytes = ChatCompletionsRequest.bytes(for: Self.request(), url: url, model: nil)
        let text = String(decoding: bytes, as: UTF8.self)
        let body = ChatCompletionsRequest.body(for: Self.request(), model: nil)
        #expect(text.hasPrefix("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1:1976\r\n"))
        #expect(text.contains("Content-Length: \(body.count)\r\n"))
        #expect(Array(bytes.suffix(body.count)) == body)
    }

    @Test func aServersSpacedOrEscapedJSONBecomesCompact() {
        #expect(CompactJSON.compact("{ \"replies\" : [ \"Yes please\", \"No\" ] }\n") == #"{"replies":["Yes please","No"]}"#)
        #expect(CompactJSON.compact(#"{"line":"caf\u00e9 \ud83d\ude00 a\/b"}"#) == #"{"line":"café 😀 a/b"}"#)
        // Escapes of what no schema string may hold are kept, for the decoder to reject.
        #expect(CompactJSON.compact(#"{"line":"a\"b\n\u0022"}"#) == #"{"line":"a\"b\n\u0022"}"#)
    }
}
