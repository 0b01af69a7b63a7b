import Privacy
import Engine
import Llama
import Export
import Testing
import TestSupport
@testable import Jobs

/// The chips job against the real default model: the grammar holds and the answer is stable.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct RealModelChipsTests {
    static let engine: Result<LlamaEngine, LlamaError> = {
        guard let path = DefaultModel.path() else {
            return .failure(.modelFileUnreadable(path: DefaultModel.cacheDirectory, reason: "run scripts/setup first"))
        }
        return Result { () throws(LlamaError) in try LlamaEngine(modelPath: path, sequences: 4, contextPerSequence: 2048, threads: 1) }
    }()

    @Test func chipsFromTheRealModelFitTheirGuides() throws {
        let engine = try Self.engine.get()
        let job = ChipsJob(contextLimit: 2048)
        var ledger = JobLedger()
        let items = job.plan(Threads.coach, tokenizer: engine, ledger: &ledger)
        #expect(items.count == 1)
        let outcomes = engine.respond(to: items.map { $0.request! })
        let text = try outcomes[0].output.get()
        let replies = try #require(Replies(output: text))
        #expect((1...3).contains(replies.replies.count))
        #expect(replies.replies.allSatisfy { !$0.isEmpty && $0.characterCount <= 40 })

        let result = job.evaluate(items[0], outcome: outcomes[0], device: .iPhone15Pro)
        #expect(result.asked && result.promptTokens > 50 && result.outputTokens > 3)
        #expect(result.quality["best_f1"] != nil)

        // Greedy: the same screen gives the same chips, alone or in a batch with others.
        let again = engine.respond(to: [items[0].request!, items[0].request!])
        #expect(try again[0].output.get() == text && again[1].output.get() == text)
    }
}
