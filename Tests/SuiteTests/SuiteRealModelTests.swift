@testable import Audit
@testable import Confinement
import Foundation
import Llama
import Privacy
@testable import Suite
@testable import ReplayKit
import Testing
import TestSupport

/// The bundled suite against the real default model, through the built `replay` (sandboxed as
/// a user runs it): every must case passes, and the results pass the audit's shape check.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct SuiteRealModelTests {
    @Test func everyMustCaseOfTheBundledSuitePassesWithTheDefaultModel() throws {
        let model = try #require(DefaultModel.path(), "run scripts/setup first")
        let directory = try TemporaryDirectory(prefix: "suite-real")
        let out = directory.path("out")
        let run = try Subprocess.run(BuiltProducts.executable("replay"), ["suite", "run", "--out", out, SuiteText.bundledPath],
                                     timeout: 1200)
        #expect(run.status == ExitCode.success.rawValue, "\(run.errors)")
        let report = try ReportValue(parsingExactJSON: String(contentsOfFile: out + "/report.json", encoding: .utf8))
        #expect(report["verdict"] == .label("pass"))
        #expect(report.at("totals.must_failed") == .int(0))
        #expect(report.at("totals.by_kind.deterministic.failed") == .int(0))
        #expect((report.at("totals.by_kind.model_dependent.checked")?.doubleValue ?? 0) > 100)
        #expect(report.at("model.file") == .label(model))
        #expect(report.at("sandbox.enforced") == .bool(true))
        let findings = ResultSchemaCheck.check(directory: out, knownPaths: [SuiteText.bundledPath, model], documents: SuiteCommand.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        #expect(VerifyCommand.run([out], diagnostics: { _ in }) == .success)
    }
}
