import Privacy
import Engine
import Export
import Testing
@testable import Jobs

@Suite struct PushJobTests {
    /// Coach's four replies (one word each), a Sage reply between, and the last one pushed as given.
    static func thread(push: PushInfo) -> ThreadSnapshot {
        Threads.coachThread([
            Threads.offline("m0", "hi", offline: false),
            Threads.reply("m1", "alpha"),
            Threads.reply("m2", "bravo"),
            Threads.reply("m3", "sagewords", from: "Sage"),
            Threads.reply("m4", "charlie"),
            Threads.reply("m5", "delta", push: push),
            Threads.offline("m6", "thanks", offline: false),
        ])
    }

    @Test(arguments: [
        ("reply", 1, ["delta"]),
        ("reply", 2, ["charlie", "delta"]),
        ("reply", 3, ["bravo", "charlie", "delta"]),
        ("reply", 5, ["bravo", "charlie", "delta"]),   // the newest three at most
        ("handoff", 1, []),
        ("quote", 3, []),
    ])
    func repliesFireAndReadTheNewestRepliesOfThatAgent(kind: String, batch: Int, words: [String]) throws {
        var ledger = JobLedger()
        let items = PushJob().plan(Self.thread(push: PushInfo(kind: kind, batch: batch)),
                                   tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(ledger.overall.scanned == 1)   // only messages with a push
        #expect(items.count == (words.isEmpty ? 0 : 1))
        #expect(ledger.overall.counters["relay_line_kept", default: 0] == (kind == "reply" ? 0 : 1))
        #expect(ledger.overall.counters["batched", default: 0] == (words.count > 1 ? 1 : 0))
        guard let item = items.first else { return }
        let all = ["alpha", "bravo", "sagewords", "charlie", "delta"]
        let seen = try #require(item.request).prompt.withUnsealedText { prompt in all.filter { prompt.contains($0) } }
        #expect(seen == words)
        #expect(item.inputTokens == words.count)
        #expect(item.labels["agent"] == "Coach")
        #expect(item.attribution == Attribution(build: "2.4.0 (530)", model: "27.0", locale: "en-US", message: item.attribution.message))   // the person's next message
    }

    @Test func aReplyWithoutWordsKeepsTheRelaysLine() {
        let snapshot = Threads.coachThread([
            MessageRecord(thread: "t1", id: "m1", from: .agent("Coach"), screen: Screen(nodes: [.picture]),
                          push: PushInfo(kind: "reply")),
        ])
        var ledger = JobLedger()
        #expect(PushJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger).isEmpty)
        #expect(ledger.overall.counters["no_words"] == 1)
    }

    @Test func theJoinedWordsAreCutOnceTo1000TokensFromTheEnd() throws {
        func words(_ tag: String) -> String { (1...600).map { "\(tag)\($0)" }.joined(separator: " ") }
        let snapshot = Threads.coachThread([
            Threads.reply("m1", words("a")),
            Threads.reply("m2", words("b")),
            Threads.reply("m3", words("c"), push: PushInfo(kind: "reply", batch: 3)),
        ])
        var ledger = JobLedger()
        let item = try #require(PushJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        #expect(item.inputWasCut && item.inputTokens == 1000)
        try #require(item.request).prompt.withUnsealedText { prompt in
            #expect(!prompt.contains("a600 ") && !prompt.contains("b200 "))
            #expect(prompt.contains("b201 ") && prompt.contains("c600"))
        }
    }

    @Test(arguments: [
        (#"{"line":"Weight down 2.3 lb. Rest day or a light 3k tomorrow?"}"#, nil),
        (#"{"line":"Hiking plan for Saturday is ready"}"#, nil),        // "Hi" only as a whole word
        (#"{"line":"  Rest day tomorrow  "}"#, nil),
        (#"{"line":"Hi! Weight down 2.3 lb"}"#, PushLine.Rejection.greeting),
        (#"{"line":"hello there, new plan"}"#, .greeting),
        (#"{"line":"Good morning: rest day"}"#, .greeting),
        (#"{"line":"Bonjour, journée de repos"}"#, .greeting),
        (#"{"line":"こんにちは、休息日です"}"#, .greeting),
        (#"{"line":"Coach says rest tomorrow"}"#, .agentSays),
        (#"{"line":"coach: rest tomorrow"}"#, .agentSays),
        (#"{"line":"Your COACH said to rest"}"#, .agentSays),
        (#"{"line":"   "}"#, .blank),
        (#"{"line":""}"#, .schema),
        (#"{"line":"ok"} "#, .schema),
        (#"{"text":"ok"}"#, .schema),
        ("{\"line\":\"" + String(repeating: "x", count: 91) + "\"}", .schema),
    ] as [(String, PushLine.Rejection?)])
    func linesAreCheckedAfterGeneration(output: String, rejection: PushLine.Rejection?) {
        let result = PushLine.check(output: SealedText(output), agent: "Coach")
        let got: PushLine.Rejection? = if case .failure(let reason) = result { reason } else { nil }
        #expect(got == rejection)
        if case .success(let line) = result {
            #expect(line.characterCount <= 90)
            #expect(line.line.withUnsealedText { $0.first?.isWhitespace == false && $0.last?.isWhitespace == false })
        }
    }

    @Test func evaluationCountsRejectionsAndScoresWellFormedLines() throws {
        let job = PushJob()
        var ledger = JobLedger()
        let item = try #require(job.plan(Self.thread(push: PushInfo(kind: "reply")), tokenizer: ScriptedModel(output: ""),
                                         ledger: &ledger).first)
        let good = job.evaluate(item, outcome: Threads.outcome(#"{"line":"Rest day tomorrow"}"#), device: .iPhone15Pro)
        #expect(good.answered && good.quality["well_formed"] == 1 && good.quality["length_chars"] == 17)
        let greeting = job.evaluate(item, outcome: Threads.outcome(#"{"line":"Hey, rest day"}"#), device: .iPhone15Pro)
        #expect(!greeting.answered && greeting.fallback == .invalidOutput)
        #expect(greeting.counters == ["rejected_greeting": 1, NeverRule.pushGreeting.counter: 1] && greeting.quality["well_formed"] == 0)
        #expect(greeting.quality["length_chars"] == nil)
        let late = job.evaluate(item, outcome: Threads.outcome(#"{"line":"Rest day tomorrow"}"#, promptTokens: 1000, outputTokens: 90),
                                device: .iPhone15Pro)   // 600 ms + 3,000 ms
        #expect(late.fallback == .timeBudget && late.quality["well_formed"] == 0)   // nobody saw it
        #expect(late.qualityAllAnswers["well_formed"] == 1 && late.quality["length_chars"] == nil)
        let tooBig = job.evaluate(item, outcome: GenerationOutcome(output: .failure(.contextExceeded(promptTokens: 5000, limit: 4096)),
                                                                   promptTokens: 5000, outputTokens: 0, hostMilliseconds: 1),
                                  device: .iPhone15Pro)
        #expect(tooBig.fallback == .contextExceeded && !tooBig.asked && tooBig.quality["well_formed"] == nil)

        ledger.add(good)
        ledger.add(greeting)
        #expect(ledger.overall.counters["rejected_greeting"] == 1 && ledger.byModel["27.0"]?.counters["rejected_greeting"] == 1)
        #expect(ledger.overall.quality["well_formed"]?.mean == 0.5)
    }

    /// A greeting and a line spoken for the agent ("<Agent> says") in each language the tool accepts.
    static let perLanguage: [(code: String, greeting: String, agentSays: String)] = [
        ("en", "Hello, rest day tomorrow", "Coach says rest tomorrow"),
        ("fr", "Bonjour, repos demain", "Coach dit repos demain"),
        ("de", "Hallo, morgen Ruhetag", "Coach sagt morgen Ruhetag"),
        ("es", "Hola, mañana descanso", "Coach dice descanso mañana"),
        ("it", "Ciao, domani riposo", "Coach dice riposo domani"),
        ("pt", "Olá, amanhã descanso", "Coach diz descanso amanhã"),
        ("ja", "こんにちは、明日は休息日", "Coachが言うには明日は休息日"),
        ("zh", "你好，明天休息", "Coach说明天休息"),
        ("ko", "안녕하세요, 내일은 휴식", "Coach님이 말했어요: 내일은 휴식"),
        ("nl", "Hoi, morgen rustdag", "Coach zegt morgen rustdag"),
        ("da", "Hej, hviledag i morgen", "Coach siger hviledag i morgen"),
        ("sv", "Hallå, vilodag i morgon", "Coach säger vilodag i morgon"),
        ("nb", "Hei, hviledag i morgen", "Coach sier hviledag i morgen"),
        ("no", "Hallo, hviledag i morgen", "Coach sier hviledag i morgen"),
        ("tr", "Merhaba, yarın dinlenme günü", "Coach diyor ki yarın dinlenme"),
        ("vi", "Xin chào, mai nghỉ ngơi", "Coach nói mai nghỉ ngơi"),
    ]

    /// Every language the tool accepts has a rule of its own: none is passed for want of one.
    @Test func everySupportedLanguageHasARule() {
        #expect(Set(Self.perLanguage.map(\.code)) == SupportedLanguages.appleIntelligence.codes)
        for code in SupportedLanguages.appleIntelligence.codes {
            #expect(PushLineRule.byLanguage[code] != nil, "no push-line rule for \(code)")
        }
    }

    @Test(arguments: perLanguage)
    func greetingsAndAgentSaysAreRejectedInEveryLanguage(code: String, greeting: String, agentSays: String) {
        func rejection(_ line: String) -> PushLine.Rejection? {
            let output = SealedText(#"{"line":"\#(line)"}"#)
            if case .failure(let reason) = PushLine.check(output: output, agent: "Coach", language: code) { return reason }
            return nil
        }
        #expect(rejection(greeting) == .greeting)
        #expect(rejection(agentSays) == .agentSays)
    }

    @Test(arguments: [
        "Heisann plan for Saturday",     // a greeting of its own
        "Hejsa, new plan",
        "Goedemorgen! Rust vandaag",
        "大家好，今天休息",
    ])
    func greetingsOfOtherLanguagesAreRejectedInAnyLanguage(line: String) {
        let result = PushLine.check(output: SealedText(#"{"line":"\#(line)"}"#), agent: "Coach", language: "en")
        let got: PushLine.Rejection? = if case .failure(let reason) = result { reason } else { nil }
        #expect(got == .greeting)
    }

    @Test(arguments: [
        "Hejira dates for the trip",        // "hej" only as a whole word
        "Heidi's plan is ready",            // "hei" too
        "Saying goodbye to the old plan",   // "say", not "says"
        "Coach sample: rest tomorrow",      // the name then a word that only begins like a verb
        "Coaching plan: rest tomorrow",
        "明天休息，多喝水",
    ])
    func ordinaryLinesPassInEveryLanguage(line: String) {
        for code in ["en", "da", "nb", "zh"] {
            let result = PushLine.check(output: SealedText(#"{"line":"\#(line)"}"#), agent: "Coach", language: code)
            if case .failure = result { Issue.record("rejected in \(code)") }
        }
    }

    /// A line in a language with no rule is `unchecked`: shown (the checks found nothing), but
    /// never scored well formed.
    @Test func aLineInALanguageWithoutARuleIsUncheckedNotPassed() throws {
        let job = PushJob(supportedLanguages: SupportedLanguages(codes: ["en", "fi"]))
        let snapshot = Threads.coachThread([Threads.reply("m1", "Lepopäivä huomenna", push: PushInfo(kind: "reply"))], locale: "fi-FI")
        var ledger = JobLedger()
        let item = try #require(job.plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = job.evaluate(item, outcome: Threads.outcome(#"{"line":"Lepopäivä huomenna"}"#), device: .iPhone15Pro)
        #expect(result.answered && result.counters["unchecked"] == 1)
        #expect(result.quality["well_formed"] == nil)
        let greeting = job.evaluate(item, outcome: Threads.outcome(#"{"line":"Hei, lepopäivä huomenna"}"#), device: .iPhone15Pro)
        #expect(greeting.counters == ["rejected_greeting": 1, NeverRule.pushGreeting.counter: 1] && greeting.quality["well_formed"] == 0)   // still checked by every rule
    }

    @Test func theInstructionsNameTheLanguage() {
        #expect(PushJob().asking.prompts.instructions(PromptValues(language: "de-DE")).withUnsealedText { $0.contains("in German,") })
    }
}
