import Engine
import Foundation
import Jobs
import Privacy
import Testing
@testable import Compare
@testable import ReplayKit
@testable import Replay
import TestSupport

/// Each model version judged by its own profile in a run, and fallbacks injected into one: what
/// issue 35 asks of points 3 and 4, through the run's own stages.
@Suite struct ModelVersionRunTests {
    /// Offline messages of `words` words, one thread each: (thread, model version, locale).
    static func corpus(words: Int, threads: [(String, String, String)]) -> String {
        let text = (1...words).map { "w\($0)" }.joined(separator: " ")
        var lines = [#"{"type":"export","version":1}"#]
        for (id, model, locale) in threads {
            lines.append(#"{"type":"thread","id":"\#(id)","agent":"Coach","locale":"\#(locale)"}"#)
            lines.append(#"{"type":"message","thread":"\#(id)","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"\#(text)","meta":{"offline":true,"build":"2.4.0","model":"\#(model)"}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A dry run of the draft job over `corpus`; the report.
    static func dryRun(_ corpus: String, profiles: ModelProfiles = .builtIn) throws -> ReportValue {
        let work = try TemporaryDirectory(prefix: "model-version")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(corpus, in: work.path)]
        options.dryRun = true
        options.profiles = profiles
        let jobs = [RunJobs.job(.draft, profiles: profiles)]
        let tally = ReplayRunner(options: options, jobs: jobs, model: nil).run()
        return ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date(timeIntervalSince1970: 0)).build()
    }

    @Test func aMessageOver4096TokensFitsOn27ButNotOn26() throws {
        // 3,000 words of 16,892 characters: about 4,830 phone tokens, over 26.x's 4,096 and within 27.0's 8,192.
        let report = try Self.dryRun(Self.corpus(words: 3000, threads: [("t1", "26.4", "en-US"), ("t2", "27.0", "en-US"), ("t3", "27.1", "en-US")]))
        // Version labels hold dots, so the slices are read by subscript, not by `at`'s path.
        let byModel = try #require(report.at("jobs.draft")?["by_model"])
        #expect(byModel["26.4"]?["fallbacks"]?["context_exceeded"] == .int(1))
        #expect(byModel["27.0"]?["fallbacks"]?["context_exceeded"] == nil)
        #expect(byModel["27.1"]?["fallbacks"]?["context_exceeded"] == nil)
        // Not cut, but judged on 27.0's clock: 4,800 tokens of prefill is past the 2,000 ms budget.
        #expect(byModel["27.0"]?["fallbacks"]?["time_budget"] == .int(1))
        #expect(report.at("jobs.draft.prompt_sizes.over_context") == .int(1))
        let versions = try #require(report.at("run.profiles.versions"))
        guard case .array(let list) = versions else { Issue.record("run.profiles.versions is not a list"); return }
        #expect(list.map { $0["context_tokens"] } == [.int(4096), .int(4096), .int(8192)])
        #expect(report.at("run.profiles.name") == .label("built-in"))
    }

    @Test func aVersionThatDoesNotSpeakALanguageFallsBackThereAlone() throws {
        let text = """
            {"schema":"replay.profiles/1","name":"team","unknown_model":"26.4",
             "devices":[{"name":"phone","prefill_ms_per_token":0.1,"decode_tokens_per_s":50,"source":"s"}],
             "models":[{"name":"26.4","from":"26.4","below":"27.0","context_tokens":4096,"languages":["en","fr"],"source":"s"},
                       {"name":"27.0","from":"27.0","context_tokens":8192,"languages":["en"],"source":"s"}]}
            """
        let profiles = try ModelProfiles(parsing: Array(text.utf8), file: "team.json")
        let report = try Self.dryRun(Self.corpus(words: 5, threads: [("t1", "26.4", "fr-FR"), ("t2", "27.0", "fr-FR"), ("t3", "27.0", "en-GB")]),
                                     profiles: profiles)
        let draft = try #require(report.at("jobs.draft"))
        #expect(draft["by_model"]?["27.0"]?["fallbacks"]?["unsupported_language"] == .int(1))
        #expect(draft["by_model"]?["26.4"]?["fallbacks"]?["unsupported_language"] == nil)
        #expect(draft["by_locale"]?["fr-FR"]?["eligible"] == .int(2))
        #expect(draft["by_locale"]?["fr-FR"]?["fallbacks"]?["unsupported_language"] == .int(1))
        #expect(draft["by_locale"]?["en-GB"]?["fallbacks"]?["unsupported_language"] == nil)
    }

    /// The issue's own test: 5% of answers refused moves `answered` by 5% (of what was answered)
    /// within its interval in `replay compare`, and the refusals are exactly the places the
    /// injection picked, counted under the app's reason.
    @Test func aFivePercentRefusalRateMovesAnsweredByFivePercentInCompare() throws {
        let work = try TemporaryDirectory(prefix: "inject")
        let corpus = writeCorpus(CompareFixtures.corpus(threads: 1000), in: work.path)
        func run(_ injection: FallbackInjection?) -> ReplayTally {
            var options = ReplayOptions()
            options.corpus = [corpus]
            options.injection = injection
            return ReplayRunner(options: options, jobs: [ChipsJob()], model: ScriptedReplayModel()).run()
        }
        let injection = try FallbackInjection.parse("refusal=0.05", seed: 11)
        let base = run(nil), new = run(injection)
        #expect(base.ledgers[.chips]?.overall.answered == 1000)
        let refused = new.items.filter { injection.reason(at: $0.key, job: $0.job, topic: nil) == .refusal }.count
        #expect(new.ledgers[.chips]?.overall.fallbacks[.refusal] == refused)
        #expect(new.ledgers[.chips]?.overall.answered == 1000 - refused)
        #expect(abs(refused - 50) < 4 * 7)   // binomial(1000, 0.05): sd ≈ 6.9
        // The same places again in a second run: the injection is seeded, not random.
        #expect(run(injection).items.map(\.fallback) == new.items.map(\.fallback))

        let comparison = Comparison(base: ItemTable(base.items), new: ItemTable(new.items))
        let chips = try #require(comparison.job(.chips))
        let answered = try #require(chips.overall.metrics.first { $0.metric.key == "answered" })
        let lower = try #require(answered.lower), upper = try #require(answered.upper)
        #expect(lower <= -0.05 && -0.05 <= upper, "answered moved by [\(lower), \(upper)]")
        #expect(abs((answered.difference ?? 0) + Double(refused) / 1000) < 1e-12 && answered.verdict == .worse)
        let refusal = try #require(chips.overall.metrics.first { $0.metric.key == "fallback.refusal" })
        #expect((refusal.lower ?? 1) <= 0.05 && 0.05 <= (refusal.upper ?? 0))
    }
}

/// `--as-model-version V`: the corpus as V would run it, paired screen by screen with the corpus
/// as recorded (issue 44, point 2).
@Suite struct UpgradePreviewTests {
    typealias M = ModelVersionRunTests

    /// The same 4,830-token offline messages: over 26.x's 4,096-token ceiling, within 27.0's 8,192.
    /// Recorded on 26.4 and 27.0; previewed as 27.0 neither is cut, previewed as 26.4 both are.
    @Test func everyPlaceIsJudgedAsThePreviewedVersionAndKeepsItsRecordedSlice() throws {
        let corpus = M.corpus(words: 3000, threads: [("t1", "26.4", "en-US"), ("t2", "27.0", "en-US")])
        let recorded = try M.dryRun(corpus)
        let as27 = try M.dryRun(corpus, profiles: ModelProfiles.builtIn.previewing("27.0"))
        let as26 = try M.dryRun(corpus, profiles: ModelProfiles.builtIn.previewing("26.4"))
        func contextExceeded(_ report: ReportValue, _ model: String) -> ReportValue? {
            report.at("jobs.draft")?["by_model"]?[model]?["fallbacks"]?["context_exceeded"]
        }
        #expect(contextExceeded(recorded, "26.4") == .int(1) && contextExceeded(recorded, "27.0") == nil)
        // by_model is the version each place was recorded on: the 26.4 place, run as 27.0.
        #expect(contextExceeded(as27, "26.4") == nil && contextExceeded(as27, "27.0") == nil)
        #expect(as27.at("jobs.draft")?["by_model"]?["26.4"]?["fallbacks"]?["time_budget"] == .int(1))
        #expect(contextExceeded(as26, "26.4") == .int(1) && contextExceeded(as26, "27.0") == .int(1))
        // The report says it is a preview, and of which version; a recorded run has no such key.
        #expect(as27.at("run.profiles.as_model_version") == .label("27.0"))
        #expect(recorded.at("run.profiles.as_model_version") == nil)
        let typed = try ReportValueDecoder(strict: true).decode(RunReport.self, from: as27)
        #expect(MarkdownReport.render(typed).contains("**Upgrade preview**: every place replayed as model version 27.0 would run it"))
    }

    /// A version's languages go with it: previewed as a 27.0 without French, the French place
    /// recorded on 26.4 falls back as unsupported.
    @Test func thePreviewedVersionsLanguagesDecide() throws {
        let text = """
            {"schema":"replay.profiles/1","name":"team","unknown_model":"26.4",
             "devices":[{"name":"phone","prefill_ms_per_token":0.1,"decode_tokens_per_s":50,"source":"s"}],
             "models":[{"name":"26.4","from":"26.4","below":"27.0","context_tokens":4096,"languages":["en","fr"],"source":"s"},
                       {"name":"27.0","from":"27.0","below":"28.0","context_tokens":8192,"languages":["en"],"source":"s"}]}
            """
        let profiles = try ModelProfiles(parsing: Array(text.utf8), file: "team.json")
        let corpus = M.corpus(words: 5, threads: [("t1", "26.4", "fr-FR"), ("t2", "26.4", "en-GB")])
        let recorded = try M.dryRun(corpus, profiles: profiles)
        let preview = try M.dryRun(corpus, profiles: profiles.previewing("27.0"))
        #expect(recorded.at("jobs.draft")?["by_model"]?["26.4"]?["fallbacks"]?["unsupported_language"] == nil)
        #expect(preview.at("jobs.draft")?["by_model"]?["26.4"]?["fallbacks"]?["unsupported_language"] == .int(1))
        #expect(preview.at("jobs.draft")?["by_locale"]?["en-GB"]?["fallbacks"]?["unsupported_language"] == nil)
        // A version no profile covers cannot be previewed: the error names what they cover.
        for version in ["28.1", "banana"] {
            #expect(throws: EngineError.previewVersionIsNotProfiled(version: version, profiles: "team", covered: ["26.4 up to 27.0", "27.0 up to 28.0"])) {
                try profiles.previewing(version)
            }
        }
    }

    /// Through the command: the preview and the recorded run pair every item in `replay compare`,
    /// which names the preview among the options that differ; a merge of a preview shard with a
    /// recorded one is refused.
    @Test func aPreviewPairsWithTheRecordedRunScreenByScreen() throws {
        let work = try TemporaryDirectory(prefix: "preview")
        let corpus = writeCorpus(CompareFixtures.corpus(threads: 12), in: work.path)
        var said = ""
        let say: (String) -> Void = { said += $0 + "\n" }
        #expect(ReplayTool.main(["--dry-run", "--job", "chips", "--out", work.path + "/recorded", corpus], diagnostics: say, sandboxed: false) == .success)
        #expect(ReplayTool.main(["--dry-run", "--job", "chips", "--as-model-version", "27.0", "--out", work.path + "/preview", corpus],
                                diagnostics: say, sandboxed: false) == .success)
        #expect(said.contains("replay: upgrade preview: every place replayed as model version 27.0 would run it"))
        #expect(ReplayTool.main(["compare", "--out", work.path + "/cmp", work.path + "/recorded", work.path + "/preview"],
                                diagnostics: say, sandboxed: false) == .success)
        let compare = try ReportValue(parsingExactJSON: String(contentsOfFile: work.path + "/cmp/compare.json", encoding: .utf8))
        let join = try #require(compare.at("jobs.chips.join"))
        #expect(join["paired"] == join["base"] && join["base_only"] == .int(0) && join["new_only"] == .int(0))
        #expect(compare.at("differences.options") == .array([.label("--as-model-version")]))
        #expect(ReplayTool.main(["--dry-run", "--job", "chips", "--as-model-version", "26.x", corpus], diagnostics: say, sandboxed: false) == .usage)
        #expect(said.contains("--as-model-version 26.x: no version of the built-in profiles covers it"))
    }
}

/// Counts words: a prompt is as long as its words, so a long message overruns a ceiling.
final class WordTokenizer: Tokenizer, @unchecked Sendable {
    func tokenCount(of text: SealedText) -> Int { text.withUnsealedText { $0.split(whereSeparator: \.isWhitespace).count } }
    func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        let count = tokenCount(of: text)
        guard count > maxTokens else { return TokenCut(text: text, keptTokens: count, wasCut: false, textTokens: count) }
        let kept = text.withUnsealedText { $0.split(whereSeparator: \.isWhitespace).suffix(maxTokens).joined(separator: " ") }
        return TokenCut(text: SealedText(kept), keptTokens: maxTokens, wasCut: true, textTokens: maxTokens)
    }
    func promptTokenCount(for request: GenerationRequest) -> Int {
        tokenCount(of: request.instructions) + tokenCount(of: request.prompt) + 10
    }
}

/// The never rules through a whole run: an answer that breaks a rule is counted in report.json's
/// `violations`, per job and per slice, and an answer that breaks none counts zeros, every rule
/// of the job listed.
@Suite struct ViolationReportTests {
    /// Answers every request with `output`.
    final class FixedModel: LanguageModel, @unchecked Sendable {
        let output: String
        init(_ output: String) { self.output = output }
        var info: ModelInfo { ModelInfo(name: "scripted", description: "", path: "scripted", parameters: 0, contextPerSequence: 4096, batchSize: 2) }
        func tokenCount(of text: SealedText) -> Int { text.withUnsealedText { $0.split(separator: " ").count } }
        func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { TokenCut(text: text, keptTokens: tokenCount(of: text), wasCut: false) }
        func promptTokenCount(for request: GenerationRequest) -> Int { 100 }
        func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
            requests.map { _ in GenerationOutcome(output: .success(SealedText(output)), promptTokens: 100, outputTokens: 10, hostMilliseconds: 5) }
        }
    }

    static func report(answering output: String) throws -> ReportValue {
        let work = try TemporaryDirectory(prefix: "violations")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(CompareFixtures.corpus(threads: 6), in: work.path)]
        let jobs: [any Job] = [ChipsJob()]
        let tally = ReplayRunner(options: options, jobs: jobs, model: FixedModel(output)).run()
        return ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date(timeIntervalSince1970: 0)).build()
    }

    @Test func anAnswerInTheAgentsVoiceAndAnotherLanguageIsCountedUnderEachRule() throws {
        // The corpus's people write in en-US; this chip is Japanese, and this one coaches.
        let broken = try Self.report(answering: #"{"replies":["今日はゆっくり休みます","Great job! Keep it up"]}"#)
        let chips = try #require(broken.at("jobs.chips"))
        #expect(chips["eligible"] == .int(6) && chips["answered"] == .int(6))
        #expect(chips["violations"] == .object([("chips_wrong_language", .int(6)), ("chips_agent_voice", .int(6))]))
        #expect(chips["by_locale"]?["en-US"]?["violations"]?["chips_wrong_language"] == .int(6))
        #expect(chips["by_model"]?["26.1"]?["violations"]?["chips_agent_voice"] == .int(6))

        let clean = try Self.report(answering: #"{"replies":["Pretty good, thanks","A bit tired"]}"#)
        #expect(clean.at("jobs.chips.violations") == .object([("chips_wrong_language", .int(0)), ("chips_agent_voice", .int(0))]))
    }
}
