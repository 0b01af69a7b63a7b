import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Hand-made threads whose answers are known.
enum Threads {
    static func agent(_ id: String, _ nodes: [ScreenNode], from agent: String = "Coach") -> MessageRecord {
        MessageRecord(thread: "t1", id: id, from: .agent(agent), screen: Screen(nodes: nodes))
    }
    static func person(_ id: String, _ text: String, build: String? = "2.4.0 (530)", model: String? = "26.4", via: String? = nil) -> MessageRecord {
        MessageRecord(thread: "t1", id: id, from: .person, text: SealedText(text),
                      meta: MessageMeta(via: via, build: build, model: model))
    }
    static let asks: [ScreenNode] = [.stat(label: SealedText("Weight"), value: SealedText("-2.3"), unit: SealedText("lb")),
                                     .say(SealedText("Nice week. How did your knee feel?"))]
    static let tells: [ScreenNode] = [.say(SealedText("Rest day tomorrow."))]
    static let asksWithButtons: [ScreenNode] = [.say(SealedText("Which plan?")), .choose(prompt: nil, optionCount: 2)]

    /// Three screens: one asks in words (answered "Bit sore but fine"), one tells, one has buttons.
    static let coach = ThreadSnapshot(
        thread: ThreadRecord(id: "t1", agent: "Coach", locale: "en-US"),
        messages: [
            person("m1", "Morning run done", build: "2.3.0 (512)", model: "26.0"),
            agent("m2", asks),
            person("m3", "Bit sore but fine"),
            agent("m4", tells),
            person("m5", "Thanks"),
            agent("m6", asksWithButtons),
        ])
}

@Suite struct ChipsJobTests {
    @Test func firesOnlyWhereTheScreenAsksInWords() {
        var ledger = JobLedger()
        let model = ScriptedModel(output: "")
        let items = ChipsJob().plan(Threads.coach, tokenizer: model, ledger: &ledger)
        #expect(ledger.overall.scanned == 3)
        #expect(items.count == 1)
        let item = items[0]
        #expect(item.attribution == Attribution(build: "2.4.0 (530)", model: "26.4", locale: "en-US", message: "m2"))   // the app that showed it
        #expect(item.reference == SealedText("Bit sore but fine"))
        #expect(!item.inputWasCut)
        #expect(item.inputTokens == 10)   // "Weight: -2.3 lb" (3) + the say (7), in the scripted tokens
        let prompt = item.request!.prompt
        #expect(prompt.withUnsealedText { $0.contains("Coach wrote:") && $0.contains("How did your knee feel?") && $0.contains("Morning run done") })
        #expect(item.request!.grammar == Replies.grammar)
        #expect(item.request!.contextLimit == 4096)
    }

    @Test func screenWordsAreCutToTheLast600Tokens() {
        let long = (1...900).map { "w\($0)" }.joined(separator: " ") + " ok?"
        let snapshot = ThreadSnapshot(thread: ThreadRecord(id: "t1", agent: "Coach"),
                                      messages: [Threads.agent("m1", [.say(SealedText(long))])])
        var ledger = JobLedger()
        let item = ChipsJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger)[0]
        #expect(item.inputWasCut && item.inputTokens == 600)
        item.request!.prompt.withUnsealedText { prompt in
            #expect(!prompt.contains("w300 "))
            #expect(prompt.contains("w302 ") && prompt.contains("ok?"))
        }
        #expect(item.reference == nil)
        #expect(item.attribution == Attribution(build: nil, model: nil, locale: nil, message: item.attribution.message))
    }

    @Test func validChipsThatMatchTheReplyScoreFully() {
        let job = ChipsJob()
        var ledger = JobLedger()
        let item = job.plan(Threads.coach, tokenizer: ScriptedModel(output: ""), ledger: &ledger)[0]
        let outcome = GenerationOutcome(output: .success(SealedText(#"{"replies":["Bit sore, but fine!","Great"]}"#)),
                                        promptTokens: 200, outputTokens: 12, hostMilliseconds: 900)
        let result = job.evaluate(item, outcome: outcome, device: .iPhone15Pro)
        #expect(result.answered && result.fallback == nil)
        #expect(result.deviceMilliseconds == 200 * 0.6 + 12.0 / 30 * 1000)   // 520 ms
        #expect(result.inBudgetDevice == true && result.inBudgetHost == false)
        #expect(result.quality["exact_match"] == 1 && result.quality["best_f1"] == 1)
    }

    @Test(arguments: [
        (GenerationOutcome(output: .success(SealedText(#"{"replies":["ok"]}"#)), promptTokens: 1000, outputTokens: 10, hostMilliseconds: 5),
         FallbackReason.timeBudget, true),     // 600 + 333 ms on the device
        (GenerationOutcome(output: .success(SealedText("{\"replies\":[")), promptTokens: 100, outputTokens: 160, hostMilliseconds: 5),
         .invalidOutput, true),
        (GenerationOutcome(output: .failure(.outputTruncated), promptTokens: 100, outputTokens: 160, hostMilliseconds: 5),
         .invalidOutput, true),
        (GenerationOutcome(output: .failure(.contextExceeded(promptTokens: 5000, limit: 4096)), promptTokens: 5000, outputTokens: 0, hostMilliseconds: 1),
         .contextExceeded, false),
    ])
    func fallbacksByReason(outcome: GenerationOutcome, reason: FallbackReason, asked: Bool) {
        let job = ChipsJob()
        var ledger = JobLedger()
        let item = job.plan(Threads.coach, tokenizer: ScriptedModel(output: ""), ledger: &ledger)[0]
        let result = job.evaluate(item, outcome: outcome, device: .iPhone15Pro)
        #expect(!result.answered)
        #expect(result.fallback == reason)
        #expect(result.asked == asked)
        // No chips were shown: 0 where the model was asked; a prompt never evaluated is not scored.
        #expect(result.quality["exact_match"] == (asked ? 0 : nil))
        // Over every valid answer the late chip ("ok") is scored as if shown; it does not match.
        #expect(result.qualityAllAnswers["exact_match"] == (asked ? 0 : nil))
    }

    @Test(arguments: ["ja-JP", "fr-FR", nil] as [String?])
    func instructionsNameThePersonsLanguage(locale: String?) {
        let expected = ["ja-JP": "Japanese", "fr-FR": "French"][locale ?? ""] ?? "English"
        let instructions = ChipsJob().asking.prompts.instructions(PromptValues(language: locale))
        #expect(instructions.withUnsealedText { $0.contains("in \(expected),") })
    }
}
