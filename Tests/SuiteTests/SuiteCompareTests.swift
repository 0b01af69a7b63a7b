@testable import Audit
@testable import Confinement
import Engine
import Foundation
import Privacy
@testable import Suite
@testable import ReplayKit
import Testing
import TestSupport

/// `replay suite compare`: suite results compared expectation by expectation, with known answers
/// for the statistics, its gates, its files (which pass the audit's shape check) and its refusals.
@Suite struct SuiteCompareTests {
    /// 30 routing asks: 24 for Sage, 6 for Penny. A model that always answers Sage passes 24,
    /// one that always answers Penny 6; paired, 24 pass in the first only and 6 in the second only.
    static let cases = (0..<24).map { SuiteText.route("to-sage-\($0)", must: false, message: "I cannot sleep \($0)", expect: #"{"route_to": "Sage"}"#) }
        + (0..<6).map { SuiteText.route("to-penny-\($0)", must: false, message: "The budget \($0)", expect: #"{"route_to": "Penny"}"#) }

    /// The results of `replay suite run` over `cases` with a model that always routes to `member`.
    static func results(routingTo member: String, in directory: TemporaryDirectory, as name: String) throws -> String {
        let suite = try directory.write("suite.json", text: SuiteText.file(cases))
        let out = directory.path(name)
        let model = ScriptedLanguageModel(output: { _ in #"{"to":"\#(member)"}"# })
        // Dressed as a model file, as the audit's check wants a model's name to come from one.
        let modelFile = directory.path("SmolLM2-135M-Instruct.Q4_1.gguf")
        if !FileManager.default.fileExists(atPath: modelFile) { _ = try directory.write("SmolLM2-135M-Instruct.Q4_1.gguf", []) }
        model.info = ModelInfo(name: "SmolLM2 135M Instruct", description: "llama 135M Q4_1", path: modelFile, parameters: 134_515_008,
                               contextPerSequence: 4096, batchSize: 8)
        let code = SuiteCommand.run(["run", "--out", out, suite], sandboxing: Sandboxing(enabled: false, confine: Sandbox.confine),
                                    diagnostics: { _ in }, model: model)
        try #require(code == .success)
        return out
    }

    /// Runs `replay suite compare` in this process, confined by a stand-in that reports what
    /// confining would (this process has other threads, so it cannot be confined itself).
    static func compare(_ arguments: [String]) -> (code: ExitCode, said: [String]) {
        var said: [String] = []
        let standIn: Sandboxing.Confine = { policy throws(SandboxError) in
            SandboxReport(landlockABI: 4, writableDirectories: policy.writableDirectories, writableFiles: [],
                          handledFilesystemAccess: LandlockRight.writes.map(\.name), withheldInWritableDirectories: Array(LandlockRight.takeBack),
                          networkRestricted: true, abstractUnixSocketsScoped: false, signalsScoped: false, seccompInstalled: true,
                          coreDumpsDisabled: true, argumentAreaHidden: true, threadsAtConfinement: 1, allThreadsConfined: true)
        }
        let code = SuiteCommand.run(["compare"] + arguments, sandboxing: Sandboxing(enabled: true, confine: standIn),
                                    diagnostics: { said.append($0) })
        return (code, said)
    }

    @Test func aWorseModelIsFoundWithKnownAnswersAndTheGateFailsIt() throws {
        let directory = try TemporaryDirectory(prefix: "suite-compare")
        let sage = try Self.results(routingTo: "Sage", in: directory, as: "sage")
        let penny = try Self.results(routingTo: "Penny", in: directory, as: "penny")
        let out = directory.path("compared")
        let (code, said) = Self.compare(["--out", out, "--fail-under", "route_to=0.6", sage, penny])
        #expect(code == .thresholdsNotMet, "\(said)")
        #expect(said.contains { $0.contains("verdict: 1 of 2 gates failed (exit 1)") })
        let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(files == ["compare.html", "compare.json", "compare.md", "junit.xml", "manifest.json"])

        let text = try String(contentsOfFile: out + "/compare.json", encoding: .utf8)
        let document = try ReportValueDecoder(strict: true).decode(SuiteCompareDocument.self, from: try ReportValue(parsingExactJSON: text))
        let row = try #require(document.expectations.first { $0.job == .route && $0.expectation == .routeTo })
        #expect(document.expectations.count == 1, "route_to is the only model-dependent expectation asked")
        #expect(row.rates.map(\.passed) == [24, 6] && row.rates.map(\.checked) == [30, 30])
        // Wilson 95% for 24 of 30 and 6 of 30: (p̂ + z²/2n ∓ z·√(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n), computed
        // independently in Python (z = 1.959963984540054).
        #expect(abs(row.rates[0].low! - 0.6269430358685175) < 1e-6 && abs(row.rates[0].high! - 0.9049489282271013) < 1e-6)
        #expect(abs(row.rates[1].low! - 0.0950510717728987) < 1e-6 && abs(row.rates[1].high! - 0.3730569641314825) < 1e-6)
        let paired = try #require(row.paired.first)
        #expect(paired.run == 1 && paired.pairs == 30 && paired.baseOnly == 24 && paired.newOnly == 6)
        #expect(abs(paired.difference! - (-0.6)) < 1e-12)
        // Exact McNemar: 2 · P(X ≤ 6), X ~ Bin(30, 1/2) = 2 · Σ_{i≤6} C(30, i) / 2³⁰ (Python's math.comb).
        #expect(abs(paired.pValue! / 0.001430906355381012 - 1) < 1e-5)
        #expect(paired.adjustedPValue == paired.pValue, "one expectation: Holm leaves its p")
        #expect(paired.verdict == .worse)
        #expect((paired.minimumDetectable ?? 0) > 0 && paired.lower! < -0.6 && paired.upper! > -0.6)
        #expect(document.gates.map(\.met) == [true, false] && document.gates.map(\.run) == [0, 1])

        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"<testsuites tests="2" failures="1">"#))
        #expect(junit.contains(#"name="route.route_to >= 0.6"/>"#) && junit.contains(#"name="route.route_to >= 0.6">"#))
        let markdown = try String(contentsOfFile: out + "/compare.md", encoding: .utf8)
        #expect(markdown.contains("| route_to | 2 | 20.0% [9.5, 37.3] (6/30) | -60.0 ["))
        #expect(markdown.contains("| worse |"))

        // What the audit checks of a result directory holds for these files too.
        let findings = ResultSchemaCheck.check(directory: out, knownPaths: [sage, penny, directory.path("SmolLM2-135M-Instruct.Q4_1.gguf")],
                                               documents: SuiteCommand.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(VerifyCommand.run([out], diagnostics: { _ in }) == .success)
    }

    @Test func theSameResultsTwiceShowNoChange() throws {
        let directory = try TemporaryDirectory(prefix: "suite-compare-same")
        let sage = try Self.results(routingTo: "Sage", in: directory, as: "sage")
        let out = directory.path("compared")
        let (code, said) = Self.compare(["--out", out, sage, sage])
        #expect(code == .success, "\(said)")
        let document = try ReportValueDecoder(strict: true).decode(
            SuiteCompareDocument.self, from: try ReportValue(parsingExactJSON: String(contentsOfFile: out + "/compare.json", encoding: .utf8)))
        let paired = try #require(document.expectations.first?.paired.first)
        #expect(paired.difference == 0 && paired.pValue == 1 && paired.verdict == .noDetectableChange && paired.minimumDetectable == 0)
    }

    @Test func aDirectoryThatIsNotFinishedSuiteResultsIsRefusedByName() throws {
        let directory = try TemporaryDirectory(prefix: "suite-compare-refused")
        let sage = try Self.results(routingTo: "Sage", in: directory, as: "sage")
        let empty = try directory.makeDirectory("empty")
        let (code, said) = Self.compare(["--out", directory.path("compared"), sage, empty])
        #expect(code == .input)
        #expect(said.contains { $0.contains("\(empty) is not a finished replay suite run's results: it has no manifest.json") }, "\(said)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("compared") + "/compare.json"))
    }

    @Test(arguments: ["fires=0.5", "route_to=1.5", "route.nothing=0.5", "chat.route_to=0.5", "route_to"])
    func aGateThatIsNotAModelDependentRateIsAUsageError(gate: String) throws {
        let (code, said) = Self.compare(["--fail-under", gate, "a", "b"])
        #expect(code == .usage)
        #expect(said.contains { $0.contains("--fail-under takes [JOB.]NAME=MIN") })
    }
}
