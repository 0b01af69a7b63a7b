@testable import Audit
@testable import Confinement
import Foundation
import Llama
import Privacy
@testable import Suite
@testable import ReplayKit
import Testing
import TestSupport

/// The bundled suite's must cases against the real default model, through the built `replay`
/// (sandboxed as a user runs it): every one passes, and the results pass the audit's shape check.
/// The watch-only cases (not must, every expectation model-dependent: a rate per model version,
/// never a gate) are left out here to keep the test run short; `replay suite run suites/spec.json`
/// runs them all (docs/suite.md, "What the default model scores").
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct SuiteRealModelTests {
    /// The bundled suite with its must cases only, written to `path`; how many it kept.
    static func mustCases(of bundled: String, to path: String) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: bundled))
        var suite = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(suite["cases"] as? [[String: Any]])
        let must = cases.filter { $0["must"] as? Bool == true }
        #expect(must.count > 100 && must.count < cases.count, "the bundled suite has must cases and watch-only ones")
        suite["cases"] = must
        try JSONSerialization.data(withJSONObject: suite, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        return must.count
    }

    @Test func everyMustCaseOfTheBundledSuitePassesWithTheDefaultModel() throws {
        let model = try #require(DefaultModel.path(), "run scripts/setup first")
        let directory = try TemporaryDirectory(prefix: "suite-real")
        let out = directory.path("out"), suite = directory.path("must.json")
        let must = try Self.mustCases(of: SuiteText.bundledPath, to: suite)
        let run = try Subprocess.run(BuiltProducts.executable("replay"), ["suite", "run", "--out", out, suite],
                                     timeout: 1200)
        #expect(run.status == ExitCode.success.rawValue, "\(run.errors)")
        let report = try ReportValue(parsingExactJSON: String(contentsOfFile: out + "/report.json", encoding: .utf8))
        #expect(report["verdict"] == .label("pass"))
        #expect((report.at("totals.must")?.doubleValue ?? 0) >= Double(must))
        #expect(report.at("totals.must_failed") == .int(0))
        #expect(report.at("totals.by_kind.deterministic.failed") == .int(0))
        #expect((report.at("totals.by_kind.deterministic.checked")?.doubleValue ?? 0) > 300)
        #expect(report.at("model.file") == .label(model))
        #expect(report.at("sandbox.enforced") == .bool(true))
        let findings = ResultSchemaCheck.check(directory: out, knownPaths: [suite, model], documents: SuiteCommand.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(VerifyCommand.run([out], diagnostics: { _ in }) == .success)
    }
}
