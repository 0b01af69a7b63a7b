import Dispatch
import Synchronization
import Testing
@testable import Llama

/// `NativeTokenizerSlot`: the tokenizer is built at the first call, once, however many threads ask
/// at the same time, and never for a slot that holds its answer from the start (turned off).
@Suite struct NativeTokenizerSlotTests {
    @Test func itIsBuiltOnceWhenFirstAskedForByManyThreadsAtOnce() {
        let slot = NativeTokenizerSlot()
        let builds = Atomic<Int>(0)
        let answers = Mutex<[String?]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let built = slot.value {
                builds.add(1, ordering: .relaxed)
                return .init(tokenizer: nil, unavailable: "built")
            }
            answers.withLock { $0.append(built.unavailable) }
        }
        #expect(builds.load(ordering: .relaxed) == 1)
        #expect(answers.withLock { $0 } == Array(repeating: "built", count: 64))
    }

    @Test func aSlotHoldingItsAnswerNeverBuilds() {
        let slot = NativeTokenizerSlot(.init(tokenizer: nil, unavailable: "turned off"))
        let built = slot.value {
            Issue.record("built a tokenizer turned off")
            return .init(tokenizer: nil, unavailable: nil)
        }
        #expect(built.unavailable == "turned off")
    }
}
