import Engine
import Foundation
import Jobs
import Privacy
@testable import ReplayKit
import Testing
import TestSupport

/// Budgets are judged in the phone's tokens (docs/profiles.md, "Whose tokens"): what the stand-in
/// counts in its own tokenizer decides nothing, so two stand-ins that answer alike report alike.
@Suite struct PhoneTokenBudgetTests {
    func report(_ model: any LanguageModel, device: DeviceProfile = .iPhone15Pro) throws -> ReportValue {
        let directory = try TemporaryDirectory(prefix: "phone-tokens")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(tinyCorpus, in: directory.path)]
        options.labels = tinyLabels
        options.device = device
        let jobs: [any Job] = [ChipsJob()]
        let tally = ReplayRunner(options: options, jobs: jobs, model: model).run()
        return ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date(timeIntervalSince1970: 0)).build()
    }

    /// One stand-in counts 100 tokens a prompt, the other 5,000 (a tokenizer 50 times finer, as
    /// SmolLM2 is on Japanese beside a larger vocabulary): the same answers are in budget alike.
    @Test func theStandInsOwnCountsJudgeNothing() throws {
        let coarse = try report(ScriptedReplayModel(promptTokens: 100))
        let fine = try report(ScriptedReplayModel(promptTokens: 5000))
        #expect(coarse.at("jobs.chips.in_budget.device") == .number(1))
        #expect(coarse.at("jobs.chips.tokens") != nil && coarse.at("jobs.chips.tokens") == fine.at("jobs.chips.tokens"))
        #expect(coarse.at("jobs.chips.in_budget") == fine.at("jobs.chips.in_budget"))
        #expect(coarse.at("jobs.chips.latency_ms") != nil && coarse.at("jobs.chips.latency_ms") == fine.at("jobs.chips.latency_ms"))
        #expect(coarse.at("run.token_sizes") == .label(RunReport.TokenSizes.phone.rawValue))
    }

    /// A stand-in that cannot hold a prompt the phone's ceiling allows: the place falls back
    /// `context_exceeded` as any, and the run says which of those were the stand-in's.
    @Test func aPromptOnlyTheStandInCannotHoldIsCountedAsTheStandIns() throws {
        let report = try report(ContextExceededModel())
        #expect(report.at("jobs.chips.fallbacks.context_exceeded") == .int(2))
        #expect(report.at("jobs.chips.counters.stand_in_context_exceeded") == .int(2))
        // Planning found both within the phone's ceiling.
        #expect(report.at("jobs.chips.prompt_sizes.over_context") == .int(0))
    }

    /// A stand-in whose engine holds less than the phone's session.
    final class ContextExceededModel: LanguageModel, @unchecked Sendable {
        var info: ModelInfo { ModelInfo(name: "scripted", description: "", path: "scripted", parameters: 0, contextPerSequence: 64, batchSize: 2) }
        func tokenCount(of text: SealedText) -> Int { text.utf8Count }
        func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { TokenCut(text: text, keptTokens: tokenCount(of: text), wasCut: false) }
        func promptTokenCount(for request: GenerationRequest) -> Int { 9999 }
        func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
            requests.map { _ in
                GenerationOutcome(output: .failure(.contextExceeded(promptTokens: 9999, limit: 64)), promptTokens: 9999, outputTokens: 0,
                                  hostMilliseconds: 1)
            }
        }
    }
}
