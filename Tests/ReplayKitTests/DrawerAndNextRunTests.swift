import Engine
import Export
import Foundation
@testable import Jobs
import Privacy
@testable import ReplayKit
@testable import Replay
import RunTestSupport
import Testing
import TestSupport

/// The two places a replay answers from facts of the whole corpus (spec §3's drawer, spec §4's
/// push line written at the next app run), through the run: the pass before it, the report's
/// blocks, the gates, the state's options, and shards that agree with the whole.
@Suite struct DrawerAndNextRunTests {
    /// Two threads the person started (Sage's, build 2.4.0; Penny's, build 2.5.0), one Penny
    /// started, and a group: the drawer offers Penny (two threads) then Sage.
    static let drawerCorpus = """
        {"type":"thread","id":"t1","agent":"Sage","about":"sleep and calm","locale":"en-US"}
        {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"I keep waking at night","meta":{"build":"2.4.0","model":"26.0"}}
        {"type":"thread","id":"t2","agent":"Penny","about":"money and budgets","locale":"en-US"}
        {"type":"message","thread":"t2","id":"m1","at":"2026-09-01T08:00:00Z","from":"person","text":"can I afford new shoes","meta":{"build":"2.5.0","model":"26.0"}}
        {"type":"thread","id":"t3","agent":"Penny","about":"money and budgets","locale":"en-US"}
        {"type":"message","thread":"t3","id":"m1","at":"2026-09-01T09:00:00Z","from":"Penny","screen":[{"say":"Your weekly budget is ready."}]}
        {"type":"thread","id":"g1","locale":"en-US","group":{"lead":"Sage","members":[{"name":"Sage","about":"sleep"},{"name":"Penny","about":"money"}]}}
        {"type":"message","thread":"g1","id":"m1","at":"2026-09-01T10:00:00Z","from":"person","text":"hello both","meta":{"build":"2.4.0","model":"26.0"}}

        """

    /// Four pushes over two threads (Coach's, then Sage's, in file order), and the person's
    /// messages between them, one written in Paris time. The next run after each push, in any
    /// thread: A 07:01 → 07:30 (t2, 1,740 s); B 10:00 → 11:00 (t2, 3,600 s); C 08:00 → 11:00
    /// (10,800 s); D 12:00 → none: never written.
    static let pushCorpus = """
        {"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}
        {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"Morning run done","meta":{"build":"2.4.0","model":"26.0"}}
        {"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"Nice pace today."}],"push":{"kind":"reply","batch":1}}
        {"type":"message","thread":"t1","id":"m3","at":"2026-09-01T10:00:00Z","from":"Coach","screen":[{"say":"Rest day tomorrow."}],"push":{"kind":"reply","batch":1}}
        {"type":"thread","id":"t2","agent":"Sage","locale":"en-US"}
        {"type":"message","thread":"t2","id":"m1","at":"2026-09-01T09:30:00+02:00","from":"person","text":"Slept badly","meta":{"build":"2.4.0","model":"26.0"}}
        {"type":"message","thread":"t2","id":"m2","at":"2026-09-01T08:00:00Z","from":"Sage","screen":[{"say":"Try a wind-down tonight."}],"push":{"kind":"reply","batch":1}}
        {"type":"message","thread":"t2","id":"m3","at":"2026-09-01T11:00:00Z","from":"person","text":"Will do","meta":{"build":"2.4.0","model":"26.0"}}
        {"type":"message","thread":"t2","id":"m4","at":"2026-09-01T12:00:00Z","from":"Sage","screen":[{"say":"Sleep well."}],"push":{"kind":"reply","batch":1}}

        """

    /// A model that picks Sage wherever it is asked to pick, and writes a plain line otherwise.
    final class PicksSage: LanguageModel, @unchecked Sendable {
        var info: ModelInfo { ModelInfo(name: "scripted", description: "", path: "scripted", parameters: 0, contextPerSequence: 4096, batchSize: 4) }
        func tokenCount(of text: SealedText) -> Int { text.utf8Count / 4 + 1 }
        func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { TokenCut(text: text, keptTokens: tokenCount(of: text), wasCut: false) }
        func promptTokenCount(for request: GenerationRequest) -> Int { 100 }
        func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
            requests.map { request in
                let output = request.choices != nil ? #"{"to":"Sage"}"# : #"{"line":"A pace note and a rest day"}"#
                return GenerationOutcome(output: .success(SealedText(output)), promptTokens: 100, outputTokens: 5, hostMilliseconds: 10,
                                         choiceProbability: 0.9)
            }
        }
    }

    /// The report of an in-process run over `corpus` with the facts gathered as a run gathers them.
    func report(_ corpus: String, change: (inout ReplayOptions) -> Void) throws -> (ReportValue, RunReport) {
        let directory = try TemporaryDirectory(prefix: "places")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(corpus, in: directory.path)]
        change(&options)
        let facts = CorpusFactsPass.read(options.corpus, wanted: RunJobs.wantedFacts(for: options)).facts
        let jobs = RunJobs.jobs(for: options, facts: facts)
        let tally = ReplayRunner(options: options, jobs: jobs, model: options.dryRun ? nil : PicksSage()).run()
        let value = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date()).build()
        return (value, try ReportValueDecoder(strict: true).decode(RunReport.self, from: value))
    }

    /// A scripted model that always picks Sage: right in Sage's thread (build 2.4.0), wrong in
    /// Penny's (2.5.0). The drawer's block and accuracy say so overall and by build, apart from
    /// the group's route; and a gate can name it.
    @Test func theDrawerIsJudgedApartFromTheGroups() throws {
        let (report, typed) = try report(Self.drawerCorpus) { $0.jobs = [.route] }
        #expect(report.at("jobs.route.drawer.scanned") == .int(2))
        #expect(report.at("jobs.route.drawer.eligible") == .int(2))
        #expect(report.at("jobs.route.drawer.asked") == .int(2))
        #expect(report.at("jobs.route.drawer.answered") == .int(2))
        #expect(report.at("jobs.route.drawer.in_budget.device") == .number(1))
        #expect(report.at("jobs.route.quality.drawer_accuracy.compared") == .int(2))
        #expect(report.at("jobs.route.quality.drawer_accuracy.mean") == .number(0.5))
        let byBuild = try #require(typed.jobs[.route]).byBuild
        #expect(byBuild.pairs.first { $0.key.text == "2.4.0" }?.value.quality.pairs.first { $0.key.name == "drawer_accuracy" }?.value.mean == 1)
        #expect(byBuild.pairs.first { $0.key.text == "2.5.0" }?.value.quality.pairs.first { $0.key.name == "drawer_accuracy" }?.value.mean == 0)
        // The group's message is the route job's too, judged by its own measure.
        #expect(report.at("jobs.route.eligible") == .int(3))
        #expect(report.at("jobs.route.quality.lead_accuracy.compared") == .int(1))
        #expect(report.at("jobs.route.counters.drawer:eligible") == .int(2))
        // Gates name the drawer's accuracy (a quality name is its mean), overall and by slice.
        let overall = try Threshold(parsing: "route.drawer_accuracy=0.6").judge(typed)
        #expect(overall.count == 1 && !overall[0].met && overall[0].value == 0.5)
        let right = try Threshold(parsing: "route[build=2.4.0].drawer_accuracy=1").judge(typed)
        #expect(right.count == 1 && right[0].met)
        let inBudget = try Threshold(parsing: "route.drawer.in_budget.device=0.9").judge(typed)
        #expect(inBudget.count == 1 && inBudget[0].met)
        // A run without routing, and the push job, have no drawer block.
        let (pushOnly, _) = try self.report(Self.drawerCorpus) { $0.jobs = [.push] }
        #expect(pushOnly.at("jobs.push.drawer") == nil)
    }

    /// Delays across two threads, exactly: the runs are gathered from the whole corpus before the
    /// run, so a push's next run may be in a thread read after it, written in another offset.
    @Test func nextRunDelaysComeFromEveryThread() throws {
        let (report, typed) = try report(Self.pushCorpus) {
            $0.jobs = [.push]
            $0.pushMode = .nextRun
        }
        #expect(report.at("jobs.push.push_mode") == .label("next-run"))
        #expect(report.at("jobs.push.eligible") == .int(4))
        #expect(report.at("jobs.push.next_run.followed") == .int(3))
        #expect(report.at("jobs.push.next_run.never_written") == .int(1))
        #expect(report.at("jobs.push.next_run.coverage") == .number(0.75))
        let mean: Double = (1740 + 3600 + 10_800) / 3
        #expect(report.at("jobs.push.next_run.delay_s.mean") == .number(mean))
        let delay = try #require(typed.jobs[.push]?.overall.nextRun?.delaySeconds)
        let p50 = try #require(delay.p50), p95 = try #require(delay.p95)
        #expect(abs(p50 - 3600) / 3600 < 0.01)    // logarithmic buckets: within 1%
        #expect(abs(p95 - 10_800) / 10_800 < 0.01)
        // The push never followed is never written, and not asked; the three are answered.
        #expect(report.at("jobs.push.fallbacks.no_next_run") == .int(1))
        #expect(report.at("jobs.push.asked") == .int(3) && report.at("jobs.push.answered") == .int(3))
        // In the extension, the same corpus asks every push and has no next-run block.
        let (plain, _) = try self.report(Self.pushCorpus) { $0.jobs = [.push] }
        #expect(plain.at("jobs.push.next_run") == nil && plain.at("jobs.push.fallbacks.no_next_run") == nil)
        #expect(plain.at("jobs.push.asked") == .int(4) && plain.at("jobs.push.push_mode") == .label("extension"))
    }

    /// The whole command: `--push-mode next-run` in a dry run (the delays need no model), the
    /// mode in the state, and shards of a thread split that gather the same runs as the whole
    /// and merge to its numbers; a shard of the other mode does not merge.
    @Test(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: several runs of the command"))
    func theCommandRepliesNextRunAndShardsAgree() throws {
        let directory = try TemporaryDirectory(prefix: "places")
        // The drawer's threads renamed t… to u… (ids and the messages' thread fields only), so
        // the two corpora's threads stay apart: four threads the person started, four drawer places.
        let drawer = Self.drawerCorpus.replacingOccurrences(of: #""id":"t"#, with: #""id":"u"#)
            .replacingOccurrences(of: #""thread":"t"#, with: #""thread":"u"#)
        let corpus = writeCorpus(Self.pushCorpus + drawer, in: directory.path)
        func run(_ out: String, _ extra: [String]) -> ExitCode {
            ReplayTool.main(["--dry-run", "--out", directory.path + "/" + out] + extra + [corpus], diagnostics: { _ in }, sandboxed: false)
        }
        #expect(run("whole", ["--push-mode", "next-run"]) == .success)
        #expect(run("shard-0", ["--push-mode", "next-run", "--shard", "0/2"]) == .success)
        #expect(run("shard-1", ["--push-mode", "next-run", "--shard", "1/2"]) == .success)
        #expect(run("other-1", ["--shard", "1/2"]) == .success)
        let whole = try StateFixtures.report(at: directory.path + "/whole/report.json")
        #expect(whole.at("jobs.push.next_run.followed") == .int(3) && whole.at("jobs.push.next_run.never_written") == .int(1))
        #expect(whole.at("jobs.route.drawer.eligible") == .int(4))
        #expect(whole.at("corpus.bad_lines") == .int(0))
        let state = try String(contentsOfFile: directory.path + "/whole/state.json", encoding: .utf8)
        #expect(state.contains("\"push_mode\": \"next-run\""))
        let merge = ReplayTool.main(["merge", "--out", directory.path + "/merged", directory.path + "/shard-0", directory.path + "/shard-1"],
                                    diagnostics: { _ in }, sandboxed: false)
        #expect(merge == .success)
        let merged = try StateFixtures.report(at: directory.path + "/merged/report.json")
        for key in ["jobs.push.next_run", "jobs.push.fallbacks", "jobs.route.drawer", "jobs.route.quality"] {
            #expect(merged.at(key) == whole.at(key), "\(key)")
        }
        var said: [String] = []
        let mixed = ReplayTool.main(["merge", "--out", directory.path + "/mixed", directory.path + "/shard-0", directory.path + "/other-1"],
                                    diagnostics: { said.append($0) }, sandboxed: false)
        #expect(mixed == .input)
        #expect(said.contains { $0.contains("--push-mode") })
    }

    @Test func nextRunCannotReadStandardInputTwice() {
        #expect(throws: ArgumentParser.UsageError.self) { try ArgumentParser.parse(["--push-mode", "next-run", "-"]) }
        #expect(throws: ArgumentParser.UsageError.self) { try ArgumentParser.parse(["--push-mode", "later", "c.jsonl"]) }
        guard case .replay(let options) = try? ArgumentParser.parse(["--push-mode", "next-run", "c.jsonl"]) else {
            Issue.record("--push-mode next-run does not parse")
            return
        }
        #expect(options.pushMode == .nextRun)
        #expect(RunJobs.wantedFacts(for: options) == CorpusFacts.Wanted(drawer: true, nextRuns: true))
        var pushless = options
        pushless.jobs = [.chips]
        #expect(!RunJobs.wantedFacts(for: pushless).any)   // no pass before a run that needs none
    }
}
