import Engine
import Export
import Foundation
@testable import Jobs
import Testing
@testable import ReplayKit
@testable import Replay
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
        options.labels = tinyLabels
        change(&options)
        let tally = ReplayRunner(options: options, jobs: jobs, model: model ?? ScriptedReplayModel()).run()
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

    /// A phone that reads a prompt token in 100 ms: every chip prompt (dozens of tokens) is seconds late.
    static func slowPhone(_ options: inout ReplayOptions) { options.device = DeviceProfile.custom("custom:100,30")! }

    /// Spec §2: late chips don't show. Every chip here matches the reply but comes seconds after
    /// the screen on the phone: nobody saw one, so a quality gate must not pass on them.
    @Test func aQualityGateCannotPassOnChipsNobodySaw() throws {
        let report = try report(tinyCorpus, options: Self.slowPhone)
        #expect(report.at("jobs.chips.fallbacks.time_budget") == .int(2))
        #expect(report.at("jobs.chips.quality.exact_match.compared") == .int(1))
        #expect(report.at("jobs.chips.quality.exact_match.mean") == .number(0))
        #expect(report.at("jobs.chips.quality_all_answers.exact_match.mean") == .number(1))
        #expect(report.at("jobs.chips.quality_all_answers.exact_match.compared") == .int(1))
        let typed = try ReportValueDecoder(strict: true).decode(RunReport.self, from: report)
        let gate = try Threshold(parsing: "chips.exact_match=0.5").judge(typed)
        #expect(gate.count == 1 && !gate[0].met && gate[0].value == 0)
        let allAnswers = try Threshold(parsing: "chips.quality_all_answers.exact_match.mean=0.5").judge(typed)
        #expect(allAnswers.count == 1 && allAnswers[0].met)   // the model's quality apart from its speed stays gateable by its full path
        #expect(report.at("jobs.chips.by_build.A.quality.exact_match.mean") == .number(0))
        #expect(report.at("jobs.chips.by_build.A.quality_all_answers.exact_match.mean") == .number(1))
    }

    @Test func chipsShownInTimeScoreTheSameBothWays() throws {
        let report = try report(tinyCorpus)
        #expect(report.at("jobs.chips.quality.exact_match.mean") == .number(1))
        #expect(report.at("jobs.chips.quality_all_answers.exact_match.mean") == .number(1))
    }

    /// Each job's block says where its budget comes from: chips' 800 ms is the spec's, the others
    /// the project's, and a `--budget` or `--config` number says so.
    @Test func everyJobBlockSaysWhereItsBudgetComesFrom() throws {
        let jobs = JobKind.allCases.map { RunJobs.job($0, budget: $0 == .push ? 4500 : nil) }
        let report = try report(tinyCorpus, jobs: jobs, model: nil)
        #expect(report.at("run.jobs") == .array(JobKind.allCases.map { .label($0.rawValue) }))
        for (kind, budget, source) in [("chips", 800.0, "spec"), ("route", 400, "default"), ("push", 4500, "flag_or_config"),
                                       ("draft", 2000, "default")] {
            #expect(report.at("jobs.\(kind).budget_ms") == .number(budget))
            #expect(report.at("jobs.\(kind).budget_source") == .label(source))
            #expect(report.at("jobs.\(kind).context_limit_tokens") == .int(4096))
        }
        #expect(report.at("jobs.route.minimum_confidence") == .number(0.4))
        #expect(report.at("jobs.route.minimum_confidence_source") == .label("default"))
        #expect(report.at("jobs.chips.input_cap_tokens") == .int(600) && report.at("jobs.push.input_cap_tokens") == .int(1000))
        #expect(report.at("jobs.push.newest_replies") == .int(3))
        #expect(report.at("jobs.route.input_cap_tokens") == nil && report.at("jobs.draft.input_cap_tokens") == nil)
        let markdown = MarkdownReport.render(try ReportValueDecoder(strict: true).decode(RunReport.self, from: report))
        #expect(markdown.contains("Budget 800 ms (spec)."))
        #expect(markdown.contains("Budget 4500 ms (flag_or_config)."))
        #expect(markdown.contains("Budget 400 ms (default)."))
    }

    /// The builder writes what a job describes, without knowing its type.
    @Test func theReportBuilderWritesWhatAJobDescribes() throws {
        let report = try report(tinyCorpus, jobs: [DescribedOnlyJob()], model: nil)
        #expect(report.at("jobs.draft.budget_ms") == .number(1234))
        #expect(report.at("jobs.draft.budget_source") == .label("flag_or_config"))
        #expect(report.at("jobs.draft.input_cap_tokens") == .int(77))
        #expect(report.at("jobs.draft.newest_replies") == .int(7))
    }

    @Test func markdownShowsWhatThePersonSawAndEveryAnswerApart() throws {
        let value = try report(tinyCorpus, options: Self.slowPhone)
        let markdown = MarkdownReport.render(try ReportValueDecoder(strict: true).decode(RunReport.self, from: value))
        #expect(markdown.contains("\nquality: best_f1 0.0% over 1; exact_match 0.0% over 1."))
        #expect(markdown.contains("\nquality_all_answers: best_f1 100.0% over 1; exact_match 100.0% over 1."))
    }
}

/// A job known only by what it describes: it fires nowhere.
struct DescribedOnlyJob: Job {
    var kind: JobKind { .draft }
    var budgetMilliseconds: Double { 1234 }
    var readsScreenWords: Bool { false }
    static var defaultBudget: Budget { Budget(milliseconds: 1, source: .projectDefault) }
    var described: JobDescription {
        JobDescription(kind: kind, budget: budget, inputCapTokens: 77, contextLimitTokens: 99, outputSchema: nil,
                       settings: JobSettings.Own(newestReplies: 7))
    }
    func plan(_ thread: ThreadSnapshot, messages: Range<Int>, tokenizer: any Tokenizer, ledger: inout JobLedger) -> [JobItem] { [] }
    func check(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<Int> { .rejected() }
    func score(_ answer: Int?, for item: JobItem) -> Scored { Scored() }
}
