import Privacy
import Engine
import Export
import Testing
@testable import Jobs

@Suite struct RouteJobTests {
    @Test(arguments: [
        ("@Sage I can't sleep", true),
        ("@sage I can't sleep", true),            // case does not matter
        ("@SAGE: help me wind down", true),
        ("hey @Penny, is this in budget?", true),
        ("ok @Coach", true),                      // the name ends the text
        ("@Sagebrush tea before bed?", false),    // the name must end at a word boundary
        ("@Bob can you help?", false),            // not a member
        ("mail it to bob@Sage.com", false),       // an address, not a mention
        ("Sage, can you help?", false),           // no @
    ])
    func aMembersNameWinsWithoutAsking(text: String, named: Bool) {
        var ledger = JobLedger()
        let items = RouteJob().plan(Threads.group([Threads.groupPerson("m1", text)]),
                                    tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(ledger.overall.scanned == 1)
        #expect(ledger.overall.counters["named", default: 0] == (named ? 1 : 0))
        #expect(items.count == (named ? 0 : 1))
        #expect(ledger.byBuild["2.4.0 (530)"]?.scanned == 1)
    }

    @Test func onlyGroupThreadsAreScanned() {
        var ledger = JobLedger()
        let items = RouteJob().plan(Threads.coach, tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(items.isEmpty && ledger.overall.scanned == 0)
    }

    @Test func theModelSeesTheMessageAndTheMembersOnly() throws {
        var ledger = JobLedger()
        let snapshot = Threads.group([
            Threads.groupPerson("m1", "first words here"),
            MessageRecord(thread: "g1", id: "m2", from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("agent words"))])),
            Threads.groupPerson("m3", "I keep waking at 3am", build: "2.3.0 (512)", model: "26.0"),
        ])
        let items = RouteJob().plan(snapshot, tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(ledger.overall.scanned == 2 && items.count == 2)
        let item = items[1]
        let request = try #require(item.request)
        #expect(request.choices == Route.outputs(members: ["Coach", "Sage", "Penny"]))
        #expect(request.choices?.count == 4)
        #expect(request.grammar == GrammarWriter.grammar(for: Route.schema(members: ["Coach", "Sage", "Penny"])))
        #expect(request.prompt.withUnsealedText {
            $0.contains("I keep waking at 3am") && $0.contains("- Sage: sleep and calm") && $0.contains("- Penny: money and budgets")
        })
        #expect(request.prompt.withUnsealedText { !$0.contains("first words") && !$0.contains("agent words") })
        #expect(item.attribution == Attribution(build: "2.3.0 (512)", model: "26.0", locale: "en-GB", message: item.attribution.message))   // the message's own meta
        #expect(item.labels["lead"] == "Coach")
    }

    /// Answers by the message's words, as a model that knows the answers would.
    static let knowingModel = ScriptedModel { request in
        let answer = request.prompt.withUnsealedText { prompt -> String in
            if prompt.contains("sleep at all") { return "Sage" }
            if prompt.contains("new shoes") { return "Penny" }
            if prompt.contains("budget help") { return "Penny" }
            return "lead"
        }
        return Threads.outcome(#"{"to":"\#(answer)"}"#, confidence: 0.9)
    }

    /// The members the team lists (`--labels`), so confusion counters name them.
    static let members = TeamLabels(members: ["Sage", "Penny"])

    @Test func qualityKeysJudgeTheGuessAgainstWhereTheMessageWent() {
        let job = RouteJob(labels: Self.members)
        let snapshot = Threads.group([
            Threads.groupPerson("m1", "I can't sleep at all", to: "Sage"),                      // chosen: right
            Threads.groupPerson("m2", "can I afford new shoes", to: "Penny", routed: "on-device"), // guessed: agrees
            Threads.groupPerson("m3", "morning all"),                                             // to the lead: right
            Threads.groupPerson("m4", "need budget help", to: "Coach"),                           // chosen the lead: wrong
        ])
        var ledger = JobLedger()
        let items = job.plan(snapshot, tokenizer: Self.knowingModel, ledger: &ledger)
        let outcomes = Self.knowingModel.respond(to: items.map { $0.request! })
        for (item, outcome) in zip(items, outcomes) { ledger.add(job.evaluate(item, outcome: outcome, device: .iPhone15Pro)) }
        let metrics = ledger.overall
        #expect(metrics.eligible == 4 && metrics.answered == 4)
        #expect(metrics.quality["accuracy"]?.mean == 0.5 && metrics.quality["accuracy"]?.count == 2)
        #expect(metrics.quality["agreement"]?.mean == 1)
        #expect(metrics.quality["lead_accuracy"]?.mean == 1)
        #expect(metrics.counters["confusion:Sage->Sage"] == 1)
        #expect(metrics.counters["confusion:lead->lead"] == 1)
        #expect(metrics.counters["confusion:lead->Penny"] == 1)
        #expect(metrics.counters["answered_lead"] == 1)
        #expect(metrics.counters.keys.filter { $0.hasPrefix("confusion:") }.count == 3)   // not for the on-device guess
    }

    @Test(arguments: [
        ("Sage", 0.9, "Sage", false),
        ("Sage", 0.41, "Sage", false),
        ("Sage", 0.4, "lead", true),     // at the threshold
        ("Sage", 0.2, "lead", true),
        ("lead", 0.3, "lead", false),    // "lead" is the lead at any confidence
        ("Coach", 0.9, "lead", false),   // the lead's own name is the lead
    ])
    func lowConfidenceMeansTheLead(answer: String, confidence: Double, expected: String, lowConfidence: Bool) throws {
        let job = RouteJob(labels: Self.members)
        var ledger = JobLedger()
        let item = try #require(job.plan(Threads.group([Threads.groupPerson("m1", "hello", to: "Sage")]),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = job.evaluate(item, outcome: Threads.outcome(#"{"to":"\#(answer)"}"#, confidence: confidence), device: .iPhone15Pro)
        #expect(result.answered)
        #expect(result.quality["accuracy"] == (expected == "Sage" ? 1 : 0))
        #expect(result.counters["confusion:Sage->\(expected)"] == 1)
        #expect(result.counters["low_confidence", default: 0] == (lowConfidence ? 1 : 0))
    }

    /// A member nobody listed is a hash in the confusion counters (a counter's key is written
    /// into the report); the lead stays `lead`.
    @Test func unlistedMembersAreHashedInTheCounters() throws {
        var ledger = JobLedger()
        let job = RouteJob()
        let item = try #require(job.plan(Threads.group([Threads.groupPerson("m1", "hello", to: "Sage")]),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = job.evaluate(item, outcome: Threads.outcome(#"{"to":"Sage"}"#, confidence: 0.9), device: .iPhone15Pro)
        let sage = ReportLabel(member: "Sage").text
        #expect(ReportLabel.isHashed(sage))
        #expect(result.counters["confusion:\(sage)->\(sage)"] == 1)
        #expect(!result.counters.keys.contains { $0.contains("Sage") })
    }

    /// The threshold is the job's (`--route-confidence`), and 0 turns the rule off: a member is
    /// kept at any confidence, even one that rounds to nothing.
    @Test(arguments: [(0.1, 0.3, true), (0.3, 0.3, false), (0.0, 0.3, true), (0.0, 0.0, true), (0.0, 1e-300, true), (0.9, 0.95, true)])
    func theThresholdIsConfigurable(threshold: Double, confidence: Double, kept: Bool) throws {
        let job = JobKind.route.job(routeConfidence: threshold)
        #expect((job as? RouteJob)?.minimumConfidence == threshold)
        var ledger = JobLedger()
        let item = try #require(job.plan(Threads.group([Threads.groupPerson("m1", "hello", to: "Sage")]),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = job.evaluate(item, outcome: Threads.outcome(#"{"to":"Sage"}"#, confidence: confidence), device: .iPhone15Pro)
        #expect(result.quality["accuracy"] == (kept ? 1 : 0))
        #expect(result.counters["low_confidence", default: 0] == (kept ? 0 : 1))
    }

    @Test(arguments: [
        (Threads.outcome(#"{"to":"Bob"}"#), FallbackReason.invalidOutput),            // not a member
        (Threads.outcome(#"{"to":"Sage"} "#), .invalidOutput),                          // trailing output
        (GenerationOutcome(output: .failure(.outputTruncated), promptTokens: 100, outputTokens: 48, hostMilliseconds: 5), .invalidOutput),
        (Threads.outcome(#"{"to":"Sage"}"#, promptTokens: 700), .timeBudget),          // 420 ms of prefill on the phone
    ])
    func fallbacksGoToTheLead(outcome: GenerationOutcome, reason: FallbackReason) throws {
        let job = RouteJob()
        var ledger = JobLedger()
        let item = try #require(job.plan(Threads.group([Threads.groupPerson("m1", "hello")]),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let result = job.evaluate(item, outcome: outcome, device: .iPhone15Pro)
        #expect(!result.answered && result.fallback == reason)
        // No guess shown in time means the lead (right here), for a late answer too; over every
        // valid answer, the late guess (Sage) is scored as if shown, and is wrong.
        #expect(result.quality["lead_accuracy"] == 1)
        #expect(result.counters["confusion:lead->lead"] == 1)
        #expect(result.qualityAllAnswers["lead_accuracy"] == (reason == .timeBudget ? 0 : 1))
    }

    @Test func theBudgetIsConfigurable() throws {
        let job = RouteJob(budgetMilliseconds: 1000)
        var ledger = JobLedger()
        let item = try #require(job.plan(Threads.group([Threads.groupPerson("m1", "hello")]),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        #expect(job.evaluate(item, outcome: Threads.outcome(#"{"to":"Sage"}"#, promptTokens: 700), device: .iPhone15Pro).answered)
    }

    @Test func namesThatCannotBeWrittenAreNeverGuessed() {
        #expect(Route.choices(members: ["Coach", "Ze\"d", "Sage", "Coach", "lead"]) == ["Coach", "Sage", "lead"])
    }
}
