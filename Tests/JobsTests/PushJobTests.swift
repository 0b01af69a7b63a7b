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
        #expect(item.attribution == Attribution(build: "2.4.0 (530)", model: "27.0"))   // the person's next message
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
        #expect(greeting.counters == ["rejected_greeting": 1] && greeting.quality["well_formed"] == 0)
        #expect(greeting.quality["length_chars"] == nil)
        let late = job.evaluate(item, outcome: Threads.outcome(#"{"line":"Rest day tomorrow"}"#, promptTokens: 1000, outputTokens: 90),
                                device: .iPhone15Pro)   // 600 ms + 3,000 ms
        #expect(late.fallback == .timeBudget && late.quality["well_formed"] == 1)
        let tooBig = job.evaluate(item, outcome: GenerationOutcome(output: .failure(.contextExceeded(promptTokens: 5000, limit: 4096)),
                                                                   promptTokens: 5000, outputTokens: 0, hostMilliseconds: 1),
                                  device: .iPhone15Pro)
        #expect(tooBig.fallback == .contextExceeded && !tooBig.asked && tooBig.quality["well_formed"] == nil)

        ledger.add(good)
        ledger.add(greeting)
        #expect(ledger.overall.counters["rejected_greeting"] == 1 && ledger.byModel["27.0"]?.counters["rejected_greeting"] == 1)
        #expect(ledger.overall.quality["well_formed"]?.mean == 0.5)
    }

    @Test func theInstructionsNameTheLanguage() {
        #expect(PushJob.instructions(language: "de-DE").withUnsealedText { $0.contains("in German,") })
    }
}
