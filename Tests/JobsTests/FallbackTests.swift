import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Fallbacks shared by every job (spec §6): unsupported languages, and results counted by reason.
@Suite struct FallbackTests {
    @Test(arguments: [
        ("en-US", true), ("en-GB", true), ("fr-FR", true), ("de-DE", true), ("es-ES", true), ("ja-JP", true),
        ("zh-Hant-TW", true), ("pt_BR", true), ("nb-NO", true),
        ("ru-RU", false), ("ar", false), ("pl-PL", false), ("fi", false),
    ])
    func supportedLanguagesAreApplesList(tag: String, supported: Bool) {
        #expect(SupportedLanguages.appleIntelligence.supports(tag) == supported)
    }

    @Test func anAbsentLanguageIsThePhonesOwn() {
        #expect(SupportedLanguages.appleIntelligence.supports(nil))
        #expect(SupportedLanguages.englishOnly.supports(nil) && !SupportedLanguages.englishOnly.supports("fr-FR"))
    }

    /// A thread each job fires on once, in `locale`, with an optional message `lang`.
    static func firingThread(_ job: JobKind, locale: String?, lang: String?) -> ThreadSnapshot {
        switch job {
        case .chips:
            return Threads.coachThread([
                MessageRecord(thread: "t1", id: "m1", from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("How was it?"))])),
                Threads.offline("m2", "Fine", offline: false, lang: lang),
            ], locale: locale)
        case .route:
            return Threads.group([Threads.groupPerson("m1", "hello there", lang: lang)], locale: locale)
        case .push:
            return Threads.coachThread([Threads.reply("m1", "Rest day tomorrow", push: PushInfo(kind: "reply"), lang: lang)], locale: locale)
        case .draft:
            return Threads.coachThread([Threads.offline("m1", "make me a list", lang: lang)], locale: locale)
        }
    }

    static let jobs: [JobKind: any Job] = Dictionary(uniqueKeysWithValues: JobKind.allCases.map { ($0, $0.job()) })

    @Test(arguments: JobKind.allCases, [
        ("ru-RU", nil, false), ("en-US", "ru", false), ("ru-RU", "en", true), ("ja-JP", nil, true), ("fr-FR", nil, true),
        (nil, nil, true),
    ] as [(locale: String?, lang: String?, supported: Bool)])
    func anUnsupportedLanguageFallsBackBeforeAsking(kind: JobKind, language: (locale: String?, lang: String?, supported: Bool)) throws {
        let job = try #require(Self.jobs[kind])
        var ledger = JobLedger()
        let items = job.plan(Self.firingThread(kind, locale: language.locale, lang: language.lang),
                             tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        let item = try #require(items.first)
        #expect(items.count == 1)
        #expect((item.request != nil) == language.supported)
        #expect(item.earlyFallback == (language.supported ? nil : .unsupportedLanguage))
        if !language.supported {
            ledger.add(job.unasked(item, reason: item.earlyFallback))
            #expect(ledger.overall.fallbacks == [.unsupportedLanguage: 1] && ledger.overall.asked == 0)
        }
    }

    @Test func aNarrowerListIsConfigurable() {
        var ledger = JobLedger()
        let items = DraftJob(supportedLanguages: .englishOnly)
            .plan(Self.firingThread(.draft, locale: "fr-FR", lang: nil), tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(items.first?.earlyFallback == .unsupportedLanguage)
    }

    @Test(arguments: [
        (GenerationOutcome(output: .failure(.decodeFailed(status: 1)), promptTokens: 10, outputTokens: 0, hostMilliseconds: 1),
         FallbackReason.engineFailure, true),
        (GenerationOutcome(output: .failure(.grammarDeadEnd), promptTokens: 10, outputTokens: 3, hostMilliseconds: 1),
         .invalidOutput, true),
        (GenerationOutcome(output: .failure(.contextExceeded(promptTokens: 5000, limit: 4096)), promptTokens: 5000, outputTokens: 0,
                           hostMilliseconds: 1), .contextExceeded, false),
    ])
    func engineFailuresFallBackTheSameWayInEveryJob(outcome: GenerationOutcome, reason: FallbackReason, asked: Bool) throws {
        for kind in [JobKind.route, .push, .draft] {
            let job = try #require(Self.jobs[kind])
            var ledger = JobLedger()
            let item = try #require(job.plan(Self.firingThread(kind, locale: "en-US", lang: nil),
                                             tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
            let result = job.evaluate(item, outcome: outcome, device: .iPhone15Pro)
            #expect(result.fallback == reason && !result.answered && result.asked == asked)
            #expect(result.job == kind)
        }
    }

    @Test func resultCountersReachEveryLedgerSplit() {
        var ledger = JobLedger()
        let attribution = Attribution(build: "b1", model: "26.4")
        ledger.add(ItemResult(job: .draft, attribution: attribution, answered: true, fallback: nil, inputWasCut: false, asked: true,
                              promptTokens: 1, outputTokens: 1, hostMilliseconds: 1, deviceMilliseconds: 1, inBudgetHost: true,
                              inBudgetDevice: true, counters: ["kind:timer": 1]))
        var other = JobLedger()
        other.count("kind:timer", attribution)
        ledger.merge(other)
        #expect(ledger.overall.counters["kind:timer"] == 2)
        #expect(ledger.byBuild["b1"]?.counters["kind:timer"] == 2 && ledger.byModel["26.4"]?.counters["kind:timer"] == 2)
    }
}
