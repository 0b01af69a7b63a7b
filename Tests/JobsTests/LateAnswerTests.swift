import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Spec §2: an answer later than its budget is not shown. Quality scores what was shown; the
/// same measures over every valid answer are kept apart.
@Suite struct LateAnswerTests {
    /// For each job: an output that is valid, and whose quality differs from the app's fallback
    /// on `FallbackTests.firingThread` (the person answered "Fine"; the route message went to the
    /// lead; the draft message asks for a list).
    static let validOutputs: [JobKind: String] = [
        .chips: #"{"replies":["Fine","Not great"]}"#,
        .route: #"{"to":"Sage"}"#,
        .push: #"{"line":"Rest day tomorrow"}"#,
        .draft: #"{"kind":"checklist","title":"List","items":["One"]}"#,
    ]

    @Test(arguments: JobKind.allCases)
    func aLateAnswerScoresAsTheFallbackAndCountsOnlyAmongAllAnswers(kind: JobKind) throws {
        let job = kind.job()
        var ledger = JobLedger()
        let item = try #require(job.plan(FallbackTests.firingThread(kind, locale: "en-US", lang: nil),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        let output = try #require(Self.validOutputs[kind])
        // 100 prompt tokens: 60 ms of prefill on the phone. 20,000: 12 s, late for every job.
        let onTime = job.evaluate(item, outcome: Threads.outcome(output, promptTokens: 100, confidence: 0.9), device: .iPhone15Pro)
        let late = job.evaluate(item, outcome: Threads.outcome(output, promptTokens: 20_000, confidence: 0.9), device: .iPhone15Pro)
        let invalid = job.evaluate(item, outcome: Threads.outcome("{", confidence: 0.9), device: .iPhone15Pro)
        #expect(onTime.answered && onTime.fallback == nil)
        #expect(!late.answered && late.fallback == .timeBudget && late.inBudgetDevice == false)
        #expect(invalid.fallback == .invalidOutput)
        #expect(onTime.quality != invalid.quality, "the outputs must tell shown from fallback")
        // What the person saw: a late answer is the fallback, exactly as no answer is.
        #expect(late.quality == invalid.quality)
        // Every valid answer, late ones too: the late answer scores as the same answer on time.
        #expect(late.qualityAllAnswers == onTime.quality)
        #expect(onTime.qualityAllAnswers == onTime.quality)
        #expect(invalid.qualityAllAnswers == invalid.quality)
    }

    /// The clock that decides is the device estimate: a host far over the budget does not hide an
    /// answer the phone would have shown in time, and a fast host does not show a late one.
    @Test func theDeviceEstimateIsTheGateNotTheHost() throws {
        let job = ChipsJob()
        var ledger = JobLedger()
        let item = try #require(job.plan(FallbackTests.firingThread(.chips, locale: "en-US", lang: nil),
                                         tokenizer: ScriptedModel(output: ""), ledger: &ledger).first)
        func outcome(promptTokens: Int, hostMilliseconds: Double) -> GenerationOutcome {
            GenerationOutcome(output: .success(SealedText(#"{"replies":["Fine"]}"#)), promptTokens: promptTokens, outputTokens: 5,
                              hostMilliseconds: hostMilliseconds)
        }
        let slowHost = job.evaluate(item, outcome: outcome(promptTokens: 100, hostMilliseconds: 5000), device: .iPhone15Pro)
        #expect(slowHost.answered && slowHost.inBudgetHost == false && slowHost.quality["exact_match"] == 1)
        let slowPhone = job.evaluate(item, outcome: outcome(promptTokens: 2000, hostMilliseconds: 10), device: .iPhone15Pro)
        #expect(!slowPhone.answered && slowPhone.inBudgetHost == true && slowPhone.quality["exact_match"] == 0)
        #expect(slowPhone.qualityAllAnswers["exact_match"] == 1)
    }

    @Test func ledgersKeepBothQualitiesApart() throws {
        var ledger = JobLedger()
        let attribution = Attribution(build: "b", model: "m")
        ledger.add(ItemResult(job: .chips, attribution: attribution, answered: false, fallback: .timeBudget, inputWasCut: false,
                              asked: true, promptTokens: 1, outputTokens: 1, hostMilliseconds: 1, deviceMilliseconds: 900,
                              inBudgetHost: true, inBudgetDevice: false, quality: ["exact_match": 0], qualityAllAnswers: ["exact_match": 1]))
        var other = JobLedger()
        other.merge(ledger)
        #expect(other.overall.quality["exact_match"]?.mean == 0 && other.overall.qualityAllAnswers["exact_match"]?.mean == 1)
        #expect(other.byBuild["b"]?.qualityAllAnswers["exact_match"]?.count == 1)
    }
}
