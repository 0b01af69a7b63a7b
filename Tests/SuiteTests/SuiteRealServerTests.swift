import Foundation
import Llama
import Privacy
@testable import Suite
import Testing
import TestSupport

/// `replay suite run --endpoint` against a real OpenAI-compatible server from PyPI:
/// llama-cpp-python's `llama_cpp.server` on 127.0.0.1, serving the default model (scripts/setup
/// --test-tools installs it). It takes the schema only as `json_object` with a `schema`
/// (`--response-format json_object`). The deterministic expectations are the app's rules, so they
/// hold whatever server answers; the requests all come back answered (HTTP 200).
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct SuiteRealServerTests {
    static let cases = [
        SuiteText.chips("chips-asks", expect: #"{"fires": true, "fallback": "none", "input_cut": false}"#),
        SuiteText.chips("chips-statement", screen: #"[{"say": "Good run."}]"#, expect: #"{"fires": false}"#),
        SuiteText.chips("chips-finnish", screen: #"[{"say": "Miten meni?"}]"#, lang: "fi", expect: #"{"fires": true, "fallback": "unsupported_language"}"#),
        SuiteText.route("route-asks", message: "I cannot sleep", expect: #"{"fires": true, "fallback": "none"}"#),
        SuiteText.route("route-named", message: "@Penny what about rent?", expect: #"{"fires": false, "fallback": "named"}"#),
        SuiteText.push("push-reply", expect: #"{"fires": true, "fallback": "none", "input_cut": false}"#),
        SuiteText.push("push-handoff", kind: "handoff", expect: #"{"fires": false, "fallback": "relay_line_kept"}"#),
        SuiteText.draft("draft-offline", message: "buy milk and eggs", expect: #"{"fires": true, "fallback": "none"}"#),
        SuiteText.draft("draft-online", message: "buy milk and eggs", offline: false, expect: #"{"fires": false}"#),
    ]

    @Test func theDeterministicExpectationsHoldAgainstLlamaCppPythonsServer() throws {
        let model = try #require(DefaultModel.path(), "run scripts/setup first")
        let server = try LlamaCppPythonServer(model: model)
        defer { server.stop() }
        let directory = try TemporaryDirectory(prefix: "suite-real-server")
        let suite = try directory.write("suite.json", text: SuiteText.file(Self.cases))
        let out = directory.path("out")
        let ran = try Subprocess.run(BuiltProducts.executable("replay"),
                                     ["suite", "run", "--endpoint", server.url, "--response-format", "json_object", "--out", out, suite],
                                     timeout: 300)
        #expect(ran.status == 0, "\(ran.errors)")
        let report = try ReportValue(parsingExactJSON: try String(contentsOfFile: out + "/report.json", encoding: .utf8))
        #expect(report["verdict"] == .label("pass"))
        #expect(report.at("totals.by_kind.deterministic.failed") == .int(0))
        #expect((report.at("totals.by_kind.deterministic.checked")?.doubleValue ?? 0) >= 15)
        #expect(report.at("sandbox.enforced") == .bool(true))
        // The report says the answers came from an endpoint, which one, and the model id asked for.
        #expect(report.at("model.name") == .label("endpoint") && report.at("model.file") == .label(server.url))
        #expect(report.at("model.endpoint_model") == .label("default"))
        // Four places are asked (chips, route, push, draft), and the server answered each.
        #expect(ran.errors.contains("the endpoint answered 4 of 4 requests"), "\(ran.errors)")
    }
}
