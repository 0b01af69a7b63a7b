@testable import Audit
@testable import Confinement
import Engine
import Foundation
import Jobs
import Privacy
@testable import Suite
@testable import ReplayKit
@testable import Replay
import Testing
import TestSupport

/// `replay suite run` end to end in this process, with a scripted model: its exit codes, its
/// files (report.json, report.md, junit.xml, manifest.json), that they pass the audit's shape
/// check and `replay verify`, and that no input's words or model output reach any of them.
@Suite struct SuiteCommandTests {
    /// Runs `replay suite run` over `cases` written to a suite file in `directory`, into
    /// `directory/out`: the exit code, the out directory and what was said on stderr.
    static func run(_ cases: [String], in directory: TemporaryDirectory, model: (any LanguageModel)? = ScriptedLanguageModel.valid(),
                    extra: [String] = [], sandboxing: Sandboxing = Sandboxing(enabled: false, confine: Sandbox.confine))
        throws -> (code: ExitCode, out: String, said: [String]) {
        let suite = try directory.write("suite.json", text: SuiteText.file(cases))
        let out = directory.path("out")
        var said: [String] = []
        let code = SuiteCommand.run(["run", "--out", out] + extra + [suite], sandboxing: sandboxing,
                                    diagnostics: { said.append($0) }, model: model)
        return (code, out, said)
    }

    static let passing = [
        SuiteText.chips("asks", expect: #"{"fires": true, "parses": true}"#),
        SuiteText.route("tie", message: "I cannot sleep", expect: #"{"route_to": "lead"}"#, given: #"{"output": "{\"to\":\"Sage\"}", "confidence": 0.4}"#),
        SuiteText.push("handoff", kind: "handoff", expect: #"{"fallback": "relay_line_kept"}"#),
        SuiteText.draft("langs", message: "list", expect: #"{"fires": true}"#).replacingOccurrences(of: #""lang": "en""#, with: #""lang": "de""#),
        // Model-dependent and failing: a rate, not a gate.
        SuiteText.route("to-sage", must: false, message: "I cannot sleep", expect: #"{"route_to": "Sage"}"#),
        #"{"id": "later", "job": "draft", "must": true, "model_versions": ["27.0"], "input": {"message": "list"}, "expect": {"fires": true}}"#,
    ]

    @Test func everyMustCasePassingExitsZeroWithTheFourFiles() throws {
        let directory = try TemporaryDirectory(prefix: "suite-pass")
        let (code, out, said) = try Self.run(Self.passing, in: directory)
        #expect(code == .success, "\(said)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["junit.xml", "manifest.json", "report.json", "report.md"])
        let text = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
        let report = try ReportValue(parsingExactJSON: text)
        #expect(report["schema"] == .label("replay.suite-report/1"))
        let document = try ReportValueDecoder(strict: true).decode(SuiteReportDocument.self, from: report)
        #expect(try ReportValueEncoder().encode(document).json() == text, "the file is its type: read strictly and written again, the same")
        #expect(report["verdict"] == .label("pass"))
        #expect(report.at("totals.runs") == .int(6))
        #expect(report.at("totals.skipped") == .int(1))
        #expect(report.at("totals.must_failed") == .int(0))
        #expect(report.at("totals.by_kind.model_dependent.checked") == .int(1))
        #expect(report.at("totals.by_kind.model_dependent.failed") == .int(1))
        #expect(report.at("suite.sha256") == .label(SHA256.hex(Array(try Data(contentsOf: directory.url.appendingPathComponent("suite.json"))))))
        #expect(report.at("model.name") == .label("scripted"))
        #expect(said.last?.contains("report.json") == true)
        // Finished as a run is: its manifest written last and verified.
        #expect(VerifyCommand.run([out], diagnostics: { _ in }) == .success)
    }

    @Test func aFailedMustCaseExitsOneAndEachRunIsATestCase() throws {
        let directory = try TemporaryDirectory(prefix: "suite-fail")
        let cases = Self.passing + [
            SuiteText.chips("wrong-rule", screen: #"[{"say": "Good run."}]"#, expect: #"{"fires": true, "parses": true}"#),
            #"{"id": "per-language", "job": "draft", "must": true, "languages": ["en", "fi"], "input": {"message": "list"}, "expect": {"fallback": "none"}}"#,
        ]
        let (code, out, said) = try Self.run(cases, in: directory)
        #expect(code == .thresholdsNotMet)
        #expect(said.contains { $0.contains("must case wrong-rule failed: fires (differs), parses (not_eligible)") })
        #expect(said.contains { $0.contains("must case per-language:fi failed: fallback (differs)") })
        #expect(said.contains { $0.contains("verdict: fail, 2 of 7 must cases failed (exit 1)") })
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        let testcases = junit.split(separator: "\n").filter { $0.hasPrefix("    <testcase ") }
        #expect(testcases.count == 9, "one test case per run of a case: 7 cases, one of them in two languages")
        #expect(junit.contains(#"<testsuite name="replay.suite" tests="9" failures="3" errors="0" skipped="1">"#))
        #expect(junit.contains(#"name="wrong-rule">"# + "\n" + #"      <failure message="fires failed (differs, deterministic); parses failed (not_eligible, deterministic); a must case: the run fails"/>"#))
        #expect(junit.contains(#"name="to-sage">"# + "\n" + #"      <failure message="route_to failed (differs, model-dependent); not a must case"/>"#))
        #expect(junit.contains(#"<testcase classname="replay.suite.draft" name="per-language:en"/>"#))
        #expect(junit.contains(#"name="later">"# + "\n" + #"      <skipped message="for other model versions"/>"#))
        let report = try ReportValue(parsingExactJSON: String(contentsOfFile: out + "/report.json", encoding: .utf8))
        #expect(report["verdict"] == .label("fail"))
        #expect(report.at("totals.must_failed") == .int(2))
    }

    /// The audit's schema check (what `replay audit` applies to a run's --out) finds nothing in
    /// a suite's results, failures and skipped cases included.
    @Test func theResultsPassTheAuditsShapeCheck() throws {
        let directory = try TemporaryDirectory(prefix: "suite-audit")
        let cases = Self.passing + [SuiteText.chips("wrong-rule", screen: #"[{"say": "Good run."}]"#, expect: #"{"fires": true}"#)]
        // A model as a GGUF file names one, and a sandbox as the kernel reports one (this process
        // has other threads, so it cannot be confined; the stand-in reports what confining would).
        let modelFile = try directory.write("SmolLM2-135M-Instruct.Q4_1.gguf", [])
        let model = ScriptedLanguageModel.valid()
        model.info = ModelInfo(name: "SmolLM2 135M Instruct", description: "llama 135M Q4_1", path: modelFile, parameters: 134_515_008,
                               contextPerSequence: 4096, batchSize: 8)
        let standIn: Sandboxing.Confine = { policy throws(SandboxError) in
            SandboxReport(landlockABI: 4, writableDirectories: policy.writableDirectories, writableFiles: [],
                          handledFilesystemAccess: LandlockRight.writes.map(\.name), withheldInWritableDirectories: Array(LandlockRight.takeBack),
                          networkRestricted: true, abstractUnixSocketsScoped: false, signalsScoped: false, seccompInstalled: true,
                          coreDumpsDisabled: true, argumentAreaHidden: true, threadsAtConfinement: 1, allThreadsConfined: true)
        }
        let (_, out, _) = try Self.run(cases, in: directory, model: model, sandboxing: Sandboxing(enabled: true, confine: standIn))
        let findings = ResultSchemaCheck.check(directory: out, knownPaths: [directory.path("suite.json"), modelFile], documents: SuiteCommand.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        // And a changed byte is caught: the check reads these files, it does not wave them through.
        let junit = out + "/junit.xml"
        let text = try String(contentsOfFile: junit, encoding: .utf8).replacingOccurrences(of: "not a must case", with: "marmalade case")
        try FileManager.default.removeItem(atPath: junit)
        try text.write(toFile: junit, atomically: false, encoding: .utf8)
        #expect(!ResultSchemaCheck.check(directory: out, knownPaths: [directory.path("suite.json"), modelFile], documents: SuiteCommand.documents).isEmpty)
    }

    /// A word planted in every input and in every output of the model (and the given outputs)
    /// appears in no file written and in nothing said.
    @Test func noInputWordAndNoModelOutputIsWrittenOrSaid() throws {
        let marker = "zqxmarkerword"
        let directory = try TemporaryDirectory(prefix: "suite-leak")
        let long = SuiteText.repeated(marker, 700)
        let cases = [
            #"{"id": "chips-marker", "job": "chips", "must": true, "description": "\#(marker)", "input": {"agent": "\#(marker)", "screen": [{"say": "\#(marker)?"}, {"card": {"title": "\#(marker)", "body": "\#(long)"}}, {"stat": {"label": "\#(marker)", "value": "\#(marker)"}}, {"list": {"title": "\#(marker)", "items": ["\#(marker)"]}}], "last_message": "\#(marker)", "lang": "en"}, "expect": {"fires": true, "input_cut": true}}"#,
            #"{"id": "route-marker", "job": "route", "must": false, "input": {"members": [{"name": "\#(marker)", "about": "\#(marker)"}, {"name": "Sage", "about": "\#(marker)"}], "lead": "\#(marker)", "message": "\#(marker)"}, "expect": {"route_to": "Sage", "parses": true}}"#,
            #"{"id": "route-given", "job": "route", "must": true, "input": {"members": [{"name": "\#(marker)"}, {"name": "Sage"}], "lead": "Sage", "message": "\#(marker)"}, "given": {"output": "{\"to\":\"\#(marker)\"}", "confidence": 0.9}, "expect": {"route_to": "lead"}}"#,
            #"{"id": "push-marker", "job": "push", "must": false, "input": {"agent": "\#(marker)", "kind": "reply", "batch": 3, "replies": [[{"say": "\#(marker)"}], [{"say": "\#(long)"}]]}, "expect": {"accepted": false, "input_cut": true}}"#,
            #"{"id": "draft-marker", "job": "draft", "must": false, "input": {"agent": "\#(marker)", "message": "\#(marker)"}, "expect": {"draft_kind": "none", "no_draft": true}}"#,
            #"{"id": "draft-given", "job": "draft", "must": true, "input": {"message": "\#(marker)"}, "given": {"output": "{\"kind\":\"card\",\"title\":\"\#(marker)\",\"body\":\"\#(marker)\"}"}, "expect": {"parses": true, "draft_kind": "timer"}}"#,
        ]
        let (code, out, said) = try Self.run(cases, in: directory, model: ScriptedLanguageModel.valid(word: marker))
        #expect(code == .thresholdsNotMet, "the given card is not a timer: a must case fails, so its failure is written too")
        var files = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: out) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name))
            files += 1
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(name) holds a word of the suite's inputs or of the model's outputs")
        }
        #expect(files == 4)
        #expect(!said.joined(separator: "\n").contains(marker))
    }

    @Test func aBadSuiteFileExitsThreeNamingTheFileTheCaseAndTheKey() throws {
        let directory = try TemporaryDirectory(prefix: "suite-bad")
        let (code, out, said) = try Self.run([Self.passing[0], SuiteText.route("tie", message: "hi", expect: #"{"route_to": "Bob"}"#)], in: directory)
        #expect(code == .input)
        #expect(said == ["replay suite: \(directory.path("suite.json")): cases[1] (tie): expect.route_to: must be the name of one of input.members, or \"lead\" (the lead)"])
        #expect(!FileManager.default.fileExists(atPath: out), "nothing ran")
        var missing: [String] = []
        #expect(ReplayTool.main(["suite", "run", "--out", directory.path("out"), directory.path("none.json")], diagnostics: { missing.append($0) },
                                sandboxed: false) == .input)
        #expect(missing == ["replay suite: cannot read the suite file \(directory.path("none.json")): no such file"])
    }

    @Test func usageErrorsExitTwo() throws {
        let directory = try TemporaryDirectory(prefix: "suite-usage")
        let suite = try directory.write("suite.json", text: SuiteText.file(Self.passing))
        for arguments in [["run"], ["walk", suite], ["run", "--frobnicate", suite], ["run", "--device", "nokia", suite],
                          ["run", "--model-version", "latest", suite], ["run", suite, suite], []] {
            var said: [String] = []
            #expect(ReplayTool.main(["suite"] + arguments, diagnostics: { said.append($0) }, sandboxed: false) == .usage, "\(arguments)")
            #expect(said.first?.hasPrefix("replay suite: ") == true)
        }
        let prompts = try directory.write("prompts.json", text: #"{"schema": "replay.prompts/1"}"#)
        var said: [String] = []
        #expect(ReplayTool.main(["suite", "run", "--out", directory.path("out"), "--prompts", prompts, suite], diagnostics: { said.append($0) },
                                sandboxed: false) == .usage)
        var help: [String] = []
        #expect(ReplayTool.main(["suite", "run", "--help"], diagnostics: { help.append($0) }, sandboxed: false) == .success)
        #expect(help == [SuiteCommand.usage])
    }

    @Test func aModelThatCannotBeLoadedExitsFour() throws {
        let directory = try TemporaryDirectory(prefix: "suite-model")
        let (code, _, said) = try Self.run(Self.passing, in: directory, model: nil, extra: ["--model", directory.path("missing.gguf")])
        #expect(code == .model)
        #expect(said.count == 1 && said[0].hasPrefix("replay suite: ") && said[0].contains("missing.gguf"))
    }

    @Test func theUsageListsEveryCodeTheSuiteEndsWith() {
        let entries = UsageText.exitEntries(SuiteCommand.usage)
        #expect(entries.map(\.0) == ExitCode.suiteCodes.map(\.rawValue))
        #expect(entries.map(\.1) == ExitCode.suiteCodes.map { $0.suiteMeaning ?? "" })
        #expect(ExitCode.allCases.filter { $0.suiteMeaning != nil }.count == ExitCode.suiteCodes.count)
        #expect(SuiteCommand.usage.split(separator: "\n").allSatisfy { $0.count <= 110 })
    }

    /// The suite's report is declared to the audit by its type, and every job's names are the suite's.
    @Test func theSuiteDeclaresItsReport() {
        #expect(SuiteCommand.documents.contains { $0 == SuiteReportDocument.self })
        #expect(SuiteReportDocument.schema == "replay.suite-report/1")
        #expect(Set(JobKind.allCases.flatMap(SuiteExpectation.names(for:))) == Set(SuiteExpectation.allNames))
    }
}
