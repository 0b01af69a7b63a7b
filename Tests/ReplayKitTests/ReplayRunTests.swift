import Audit
import Confinement
import Engine
import Export
import Foundation
import Jobs
import Llama
import Testing
@testable import ReplayKit
import Privacy
import TestSupport

/// A tiny export whose every number is known.
///
/// Thread t1 (build A): a screen that asks (eligible; the person answers "Bit sore but fine"),
/// a screen that tells, a screen with buttons. Thread t2 (build B): a screen that asks with a
/// trailing space after the "？" and no reply after it, an unknown node kind, an unknown line type.
/// Then one bad line (not JSON) and a message whose thread line never came.
/// The team's list for `tinyCorpus`'s builds (`A`, `B`: names, not versions) and its unknown
/// kinds, so the tests read them as written (`--labels`).
let tinyLabels = TeamLabels(builds: ["A", "B"], kinds: ["reaction", "chart"])

let tinyCorpus = """
    {"type":"export","version":1,"created":"2026-10-02T00:00:00Z","anonymised":true}
    {"type":"thread","id":"t1","agent":"Coach","about":"Running","locale":"en-US"}
    {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"Morning","meta":{"build":"A","model":"26.0"}}
    {"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"How did your knee feel?"}]}
    {"type":"message","thread":"t1","id":"m3","at":"2026-09-01T07:02:00Z","from":"person","text":"Bit sore but fine","meta":{"via":"suggested","build":"A","model":"26.0"}}
    {"type":"message","thread":"t1","id":"m4","at":"2026-09-01T07:03:00Z","from":"Coach","screen":[{"say":"Rest tomorrow."}]}
    {"type":"message","thread":"t1","id":"m5","at":"2026-09-01T07:04:00Z","from":"Coach","screen":[{"say":"Which plan?"},{"choose":{"options":["a","b"]}}]}
    {"type":"thread","id":"t2","agent":"Sage","locale":"ja-JP"}
    {"type":"message","thread":"t2","id":"m1","at":"2026-09-01T08:00:00Z","from":"person","text":"こんばんは","meta":{"build":"B","model":"27.0"}}
    {"type":"reaction","thread":"t2","emoji":"+1"}
    {"type":"message","thread":"t2","id":"m2","at":"2026-09-01T08:01:00Z","from":"Sage","screen":[{"chart":{"x":1}},{"say":"よく眠れましたか？ "}]}
    this is not json
    {"type":"message","thread":"t9","id":"m1","at":"2026-09-01T09:00:00Z","from":"person","text":"orphan"}

    """



@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ReplayRunTests {
    func run(_ corpus: String, strict: Bool = false, model: ScriptedReplayModel? = ScriptedReplayModel(),
             device: DeviceProfile = .iPhone15Pro) -> (ReplayTally, ReportValue) {
        let directoryOwner = try! TemporaryDirectory(prefix: "replay-test")
        let directory = directoryOwner.path
        defer { withExtendedLifetime(directoryOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ReplayOptions()
        options.corpus = [writeCorpus(corpus, in: directory)]
        options.strict = strict
        options.dryRun = model == nil
        options.labels = tinyLabels
        options.device = device
        let runner = ReplayRunner(options: options, jobs: [ChipsJob()], model: model)
        let tally = runner.run()
        let report = ReportBuilder(options: options, tally: tally, model: nil, jobs: [ChipsJob()], seconds: 1, started: Date()).build()
        return (tally, report)
    }

    @Test func reportNumbersOnAKnownCorpus() throws {
        let (tally, report) = run(tinyCorpus)
        #expect(tally.fatal == nil)
        func int(_ path: String) -> Int? { report.at(path)?.doubleValue.map { Int($0) } }
        #expect(int("corpus.threads") == 2)
        #expect(int("corpus.messages") == 7)
        #expect(int("corpus.bad_lines") == 2)
        #expect(int("corpus.unknown_types.reaction") == 1)
        #expect(int("corpus.unknown_nodes.chart") == 1)
        #expect(int("jobs.chips.scanned") == 4)
        #expect(int("jobs.chips.eligible") == 2)
        #expect(int("jobs.chips.asked") == 2)
        #expect(int("jobs.chips.answered") == 2)
        #expect(report.at("jobs.chips.in_budget.device") == .number(1))
        #expect(report.at("jobs.chips.in_budget.host") == .number(1))
        // The phone's tokens, whatever the stand-in counts (its 100 a prompt and 10 an answer):
        // the two chip prompts by the built-in estimate, and two answers of 41 characters at 3.5
        // a token (12 each).
        #expect(int("jobs.chips.tokens.in") == 229)
        #expect(int("jobs.chips.tokens.out") == 2 * 12)
        // Only t1's screen is followed by a reply; the scripted chip is exactly that reply.
        #expect(int("jobs.chips.quality.exact_match.compared") == 1)
        #expect(report.at("jobs.chips.quality.exact_match.mean") == .number(1))
        #expect(int("jobs.chips.by_build.A.eligible") == 1)
        #expect(int("jobs.chips.by_build.B.eligible") == 1)
        guard case .object(let byModel)? = report.at("jobs.chips.by_model") else { Issue.record("no by_model"); return }
        #expect(byModel.map(\.0) == ["26.0", "27.0"])
        let badLines = try #require(report.at("corpus.bad_line_samples"))
        guard case .array(let samples) = badLines else { Issue.record("no samples"); return }
        #expect(samples.count == 2)
        #expect(samples.first?["line"] == .int(12))
    }

    @Test func strictStopsAtTheFirstBadLine() {
        let (tally, report) = run(tinyCorpus, strict: true)
        guard case .input(let message)? = tally.fatal else { Issue.record("expected an input error"); return }
        #expect(message.contains("tiny.jsonl:12"))
        #expect(report.at("corpus.bad_lines") == .int(1))
    }

    @Test func budgetMissesAndInvalidOutputsAreFallbacks() {
        // A phone that reads a prompt token in 20 ms: over a second of prefill for any chip prompt.
        let (_, report) = run(tinyCorpus, device: DeviceProfile.custom("custom:20,30")!)
        #expect(report.at("jobs.chips.answered") == .int(0))
        #expect(report.at("jobs.chips.fallbacks.time_budget") == .int(2))
        #expect(report.at("jobs.chips.in_budget.device") == .number(0))
        #expect(report.at("jobs.chips.in_budget.host") == .number(1))
    }

    @Test func aDryRunSizesWithoutAskingTheModel() {
        let (_, report) = run(tinyCorpus, model: nil)
        #expect(report.at("run.mode") == .label("dry-run"))
        #expect(report.at("jobs.chips.eligible") == .int(2))
        #expect(report.at("jobs.chips.asked") == .int(0))
        #expect(report.at("jobs.chips.in_budget.device") == .null)
        #expect(report.at("jobs.chips.prompt_sizes.max_tokens")?.doubleValue ?? 0 > 10)
    }

    @Test func theReportHoldsNoWordOfTheCorpus() throws {
        let (_, report) = run(tinyCorpus)
        let json = report.json() + MarkdownReport.render(try ReportValueDecoder(strict: true).decode(RunReport.self, from: report))
        for word in ["knee", "sore", "Morning", "Rest", "plan", "眠れ", "こんばんは", "orphan", "Running"] {
            #expect(!json.contains(word), "the report must not contain corpus words")
        }
    }
}


/// A dry run plans threads on several workers; the counts must not depend on how many.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ParallelPlanningTests {
    @Test func aParallelDryRunCountsExactlyLikeASequentialOne() throws {
        let modelPath = try #require(DefaultModel.path(), "run scripts/setup first")
        _ = try LlamaModel(path: modelPath, vocabularyOnly: true)   // the model file loads
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("corpora/sample.jsonl.zst").path
        var options = ReplayOptions()
        options.corpus = [sample]
        options.dryRun = true
        let jobs: [any Job] = [ChipsJob(), RouteJob(), PushJob(), DraftJob()]
        func report(workers: Int) -> ReportValue {
            let tally = ReplayRunner(options: options, jobs: jobs, model: nil, planningWorkers: workers).run()
            let built = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date(timeIntervalSince1970: 0)).build()
            return .object([("corpus", built["corpus"]!), ("jobs", built["jobs"]!)])
        }
        let sequential = report(workers: 1)
        let parallel = report(workers: 3)
        #expect(sequential.at("jobs.chips.eligible") == .int(455))
        #expect(parallel.json() == sequential.json())
    }
}
