import Engine
import Export
import Foundation
import Jobs
import Testing
@testable import ReplayKit
import Privacy
import TestSupport

/// The job blocks of report.json: denominators, budgets and their sources, and quality over what
/// the person would have seen.
@Suite struct JobReportTests {
    /// Two chip-eligible screens, each answered by the person: one in English, one in Russian (not
    /// one of the phone model's languages, so never asked).
    static let twoScreens = """
        {"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}
        {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"How did your knee feel?"}]}
        {"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:02:00Z","from":"person","text":"Bit sore but fine","meta":{"build":"A","model":"26.0"}}
        {"type":"thread","id":"t2","agent":"Coach","locale":"ru-RU"}
        {"type":"message","thread":"t2","id":"m1","at":"2026-09-01T08:01:00Z","from":"Coach","screen":[{"say":"How did you sleep?"}]}
        {"type":"message","thread":"t2","id":"m2","at":"2026-09-01T08:02:00Z","from":"person","text":"Bit sore but fine","meta":{"build":"A","model":"26.0"}}

        """

    func report(_ corpus: String, jobs: [any Job] = [ChipsJob()], model: ScriptedReplayModel? = ScriptedReplayModel(),
                options change: (inout ReplayOptions) -> Void = { _ in }) throws -> ReportValue {
        let directory = try TemporaryDirectory(prefix: "replay-test")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(corpus, in: directory.path)]
        options.dryRun = model == nil
        change(&options)
        let tally = ReplayRunner(options: options, jobs: jobs, model: model, tokenizer: model ?? ScriptedReplayModel()).run()
        return ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date()).build()
    }

    /// docs/report-schema.md: `in_budget` is a share of eligible places, not asked ones.
    @Test func inBudgetIsAShareOfEligiblePlacesNotAskedOnes() throws {
        let report = try report(Self.twoScreens)
        #expect(report.at("jobs.chips.eligible") == .int(2) && report.at("jobs.chips.asked") == .int(1))
        #expect(report.at("jobs.chips.fallbacks.unsupported_language") == .int(1))
        #expect(report.at("jobs.chips.in_budget.device") == .number(0.5))   // 1 of 2, not 1 of 1
        #expect(report.at("jobs.chips.in_budget.host") == .number(0.5))
        #expect(report.at("jobs.chips.answered_rate") == .number(0.5))
    }

    /// The flywheel's replayed in-budget share is report.json's number, over eligible places:
    /// with no model nothing is asked, so a share of asked places would have no value at all.
    @Test func theFlywheelsInBudgetShareIsTheReportsOverEligiblePlaces() throws {
        let directory = try TemporaryDirectory(prefix: "replay-test")
        let corpus = writeCorpus(Self.twoScreens, in: directory.path)
        let out = directory.path + "/out"
        let code = ReplayTool.main(["--job", "chips", "--flywheel", "--model", directory.path + "/no-such-model.gguf", "--out", out, corpus],
                                   diagnostics: { _ in }, sandboxed: false)
        #expect(code == .model)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))) as? [String: Any])
        let chips = try #require((report["jobs"] as? [String: Any])?["chips"] as? [String: Any])
        #expect(chips["eligible"] as? Int == 2 && chips["asked"] as? Int == 0)
        #expect((chips["in_budget"] as? [String: Any])?["device"] as? Double == 0)
        let metrics = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/metrics.json"))) as? [String: Any])
        let replayed = try #require((metrics["replayed"] as? [[String: Any]])?.first)
        #expect(replayed["job"] as? String == "chips")
        #expect(replayed["inBudgetDevice"] as? Double == 0)
    }
}
