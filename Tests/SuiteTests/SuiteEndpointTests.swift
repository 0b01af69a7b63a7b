@testable import Audit
import Foundation
import Privacy
@testable import Suite
import Testing
import TestSupport

/// `replay suite run --endpoint URL`, the built command against a scripted Chat Completions
/// server on 127.0.0.1: the suite's cases asked over the one connection made before the process
/// confined itself (the real sandbox), each answer judged as the engine's would be, and a URL off
/// this machine or a server that is not there refused before anything runs.
@Suite struct SuiteEndpointTests {
    static let cases = [
        SuiteText.chips("asks", expect: #"{"fires": true, "parses": true, "accepted": true}"#),
        SuiteText.route("to-sage", must: false, message: "I cannot sleep", expect: #"{"parses": true, "route_to": "Sage"}"#),
        SuiteText.chips("given", expect: #"{"parses": true}"#, given: #"{"output": "{\"replies\":[\"Yes\"]}"}"#),
    ]

    /// Runs the built `replay suite run` with `extra` options over `cases` in `directory`.
    static func run(_ cases: [String], _ extra: [String], in directory: TemporaryDirectory) throws -> (status: Int32, out: String, errors: String) {
        let suite = try directory.write("suite.json", text: SuiteText.file(cases))
        let out = directory.path("out")
        let ran = try Subprocess.run(BuiltProducts.executable("replay"), ["suite", "run", "--out", out] + extra + [suite], timeout: 300)
        return (ran.status, out, ran.errors)
    }

    @Test func aSuiteIsAskedOfTheServerOverOneConnectionUnderTheSandbox() throws {
        let directory = try TemporaryDirectory(prefix: "suite-endpoint")
        let server = try ChatStubServer(responses: [ChatStubServer.answer("{\"replies\": [\"Great\", \"Tired\"]}"),
                                                    ChatStubServer.answer(#"{"to":"Sage"}"#, chunked: true)], in: directory)
        defer { server.stop() }
        let (status, out, errors) = try Self.run(Self.cases, ["--endpoint", server.url, "--endpoint-model", "stub-model"], in: directory)
        #expect(status == 0, "\(errors)")
        let report = try ReportValue(parsingExactJSON: try String(contentsOfFile: out + "/report.json", encoding: .utf8))
        #expect(report["verdict"] == .label("pass"))
        #expect(report.at("sandbox.enforced") == .bool(true), "confined, the connection kept")
        #expect(report.at("model.name") == .label("endpoint"), "the fixed name, not --endpoint-model's free text")
        #expect(report.at("model.file") == .label(server.url))
        #expect(report.at("model.endpoint_model") == .label("stub-model"), "the model id the requests named, a token")
        #expect(report.at("totals.by_kind.model_dependent.failed") == .int(0), "route_to Sage: the schema's answer has probability 1")
        let requests = server.requests
        #expect(requests.count == 2, "the given case is not asked")
        #expect(requests.allSatisfy { $0["connection"] as? Int == 1 && $0["model"] as? String == "stub-model" })
        #expect(requests.map { $0["schema_name"] as? String } == ["replies", "route"])
        #expect(requests.allSatisfy { $0["choices_sent"] as? Bool == false && $0["temperature"] as? Int == 0 })
        // The results are what replay writes: the audit's shape check finds nothing, given the URL as the model's path.
        let findings = ResultSchemaCheck.check(directory: out, knownPaths: [directory.path("suite.json"), server.url], documents: SuiteCommand.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func eachFailureTheServerNamesFailsTheCaseItAnswers() throws {
        let directory = try TemporaryDirectory(prefix: "suite-endpoint-fail")
        let answers = [
            #"{"content": null, "refusal": "no"}"#,
            ChatStubServer.answer(#"{"replies":["Ye"#, finishReason: "length"),
            ChatStubServer.answer("", finishReason: "content_filter"),
            #"{"status": 429, "error": {"code": "rate_limit_exceeded"}}"#,
            #"{"status": 400, "error": {"code": "context_length_exceeded"}}"#,
            #"{"status": 500, "error": {"type": "server_error"}}"#,
            #"{"status": 200, "raw": "{\"choices\": 3}"}"#,
            ChatStubServer.answer(#"{"replies":["Fine"]}"#),
        ]
        let server = try ChatStubServer(responses: answers, in: directory)
        defer { server.stop() }
        let cases = (0..<answers.count).map { SuiteText.chips("case-\($0)", expect: #"{"parses": true}"#) }
        let (status, out, errors) = try Self.run(cases, ["--endpoint", server.url], in: directory)
        #expect(status == 1, "\(errors)")
        for index in 0..<7 { #expect(errors.contains("must case case-\(index) failed: parses (differs)"), "case-\(index)") }
        #expect(!errors.contains("case-7 failed"))
        #expect(errors.contains("verdict: fail, 7 of 8 must cases failed (exit 1)"))
        #expect(errors.contains("replay suite: the endpoint answered 1 of 8 requests; 1 cut at max_tokens, 1 failed with HTTP 500, "
                                + "1 not a Chat Completions response, 1 over the context window, 1 rate limited, 1 refused, 1 stopped by guardrails"),
                "\(errors)")
        #expect(server.requests.count == 8)
        #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
    }

    @Test func aURLOffThisMachineIsRefusedBeforeAnythingRuns() throws {
        let directory = try TemporaryDirectory(prefix: "suite-endpoint-remote")
        for url in ["http://192.0.2.7:1976", "http://example.com/v1", "https://127.0.0.1:1976"] {
            let (status, out, errors) = try Self.run(Self.cases, ["--endpoint", url], in: directory)
            #expect(status == 2, "\(url): \(errors)")
            #expect(errors.contains("--endpoint \(url): "))
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let (status, _, errors) = try Self.run(Self.cases, ["--endpoint", "http://127.0.0.1:1976", "--model", "smollm2-135m"], in: directory)
        #expect(status == 2 && errors.contains("--endpoint and --model name two models"))
    }

    @Test func theOptionsParse() throws {
        let options = try #require(try SuiteOptions.parse(["run", "--endpoint", "http://[::1]:1976/v1", "--endpoint-model", "apple.fm-1", "s.json"]))
        #expect(options.endpoint?.family == .ipv6 && options.endpoint?.port == 1976 && options.endpointModel == "apple.fm-1")
        #expect(options.modelPath == nil && options.responseFormat == .jsonSchema)
        let llamaCppPython = try #require(try SuiteOptions.parse(["run", "--endpoint", "http://127.0.0.1:8000/v1", "--response-format", "json_object", "s.json"]))
        #expect(llamaCppPython.responseFormat == .jsonObject)
        for (arguments, reason) in [(["--endpoint-model", "m"], "--endpoint-model names a model of --endpoint"),
                                    (["--response-format", "json_object"], "--response-format says how --endpoint is asked"),
                                    (["--endpoint", "http://127.0.0.1:1", "--response-format", "yaml"], "--response-format takes json_schema"),
                                    (["--endpoint", "http://127.0.0.1:1", "--endpoint-model", "a b"], "--endpoint-model takes a model's name"),
                                    (["--endpoint", "s.json"], "--endpoint s.json: it must start with http://")] {
            #expect(throws: SuiteError.self) { try SuiteOptions.parse(["run"] + arguments + ["s.json"]) }
            do { _ = try SuiteOptions.parse(["run"] + arguments + ["s.json"]) } catch { #expect(error.description.hasPrefix(reason), "\(error)") }
        }
    }

    @Test func aServerThatIsNotThereIsExitFourNamingTheURL() throws {
        let directory = try TemporaryDirectory(prefix: "suite-endpoint-absent")
        let url = "http://127.0.0.1:\(ChatStubServer.unusedPort())"
        let (status, out, errors) = try Self.run(Self.cases, ["--endpoint", url], in: directory)
        #expect(status == 4, "\(errors)")
        #expect(errors.contains("replay suite: no Chat Completions server answers at \(url): connection refused"))
        #expect(!FileManager.default.fileExists(atPath: out), "nothing ran")
    }
}
