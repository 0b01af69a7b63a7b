import Engine
import Testing
import TestSupport
@testable import Jobs

/// A thread planned in consecutive ranges of its messages gives the items and counts of one pass
/// over it: what a long thread planned a range per core relies on (`Job.plan(_:messages:…)`).
///
/// The cuts fall anywhere, between a screen and the reply after it, inside a push's batch, before
/// the thread's first person message and after its last, so every job's look back (the person's
/// last words, an agent's newest replies) and look ahead (the next message, the next person
/// message's build) crosses a cut.
@Suite struct RangePlanningTests {
    static let jobs: [any Job] = [ChipsJob(), RouteJob(), PushJob(), PushJob(newestReplies: 1), DraftJob()]

    /// Consecutive ranges of `count` messages cut at `cuts` (sorted, within the thread).
    static func ranges(_ count: Int, cuts: [Int]) -> [Range<Int>] {
        let bounds = [0] + cuts + [count]
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    @Test(arguments: 0..<jobs.count, [false, true])
    func rangesPlanWhatOnePassPlans(job index: Int, group: Bool) {
        let job = Self.jobs[index]
        for seed in 1...3 {
            let snapshot = VariedThread.make(messages: 1500, seed: UInt64(seed), group: group)
            var random = VariedThread.Generator(state: UInt64(seed) &* 7919)
            let count = snapshot.messages.count
            let cutSets: [[Int]] = [
                [count / 2],
                [1, count - 1],
                (0..<9).map { _ in random.below(count - 1) + 1 }.sorted(),
                Array(stride(from: 1, to: count, by: 1)).filter { $0 % 97 == 0 },
            ]
            for tokenizer in LinearPlanningTests.tokenizers {
                var whole = JobLedger()
                let items = job.plan(snapshot, tokenizer: tokenizer, ledger: &whole)
                #expect(!items.isEmpty || (job.kind == .route && !group))   // route fires in groups only
                for cuts in cutSets {
                    var joined = JobLedger()
                    var pieces: [JobItem] = []
                    for range in Self.ranges(count, cuts: Array(Set(cuts)).sorted()) {
                        var ledger = JobLedger()
                        pieces += job.plan(snapshot, messages: range, tokenizer: tokenizer, ledger: &ledger)
                        joined.merge(ledger)
                    }
                    #expect(LinearPlanningTests.differences(pieces, items) == 0)
                    #expect(joined == whole)
                }
            }
        }
    }

    /// An empty range plans nothing and counts nothing, wherever it is.
    @Test(arguments: 0..<jobs.count)
    func anEmptyRangePlansNothing(job index: Int) {
        let snapshot = VariedThread.make(messages: 300, seed: 5, group: true)
        for start in [0, 150, 300] {
            var ledger = JobLedger()
            #expect(Self.jobs[index].plan(snapshot, messages: start..<start, tokenizer: ApproximateTokenizer(), ledger: &ledger).isEmpty)
            #expect(ledger == JobLedger())
        }
    }

    /// The places before a person message, planned on the thread read up to and including it,
    /// are planned as the whole thread plans them: what a piece of a thread still being read is.
    @Test(arguments: 0..<jobs.count)
    func placesBeforeAPersonMessagePlanOnWhatWasReadUpToIt(job index: Int) {
        let job = Self.jobs[index]
        let snapshot = VariedThread.make(messages: 1500, seed: 9, group: true)
        let persons = snapshot.messages.indices.filter { snapshot.messages[$0].from == .person }
        var start = 0
        var pieces: [JobItem] = []
        var joined = JobLedger()
        for cut in persons where cut - start >= 40 {
            let read = ThreadSnapshot(thread: snapshot.thread, messages: MessageList(snapshot.messages[...cut]))
            var ledger = JobLedger()
            pieces += job.plan(read, messages: start..<cut, tokenizer: ApproximateTokenizer(), ledger: &ledger)
            joined.merge(ledger)
            start = cut
        }
        var ledger = JobLedger()
        pieces += job.plan(snapshot, messages: start..<snapshot.messages.count, tokenizer: ApproximateTokenizer(), ledger: &ledger)
        joined.merge(ledger)
        var whole = JobLedger()
        let items = job.plan(snapshot, tokenizer: ApproximateTokenizer(), ledger: &whole)
        #expect(start > 1000)
        #expect(LinearPlanningTests.differences(pieces, items) == 0)
        #expect(joined == whole)
    }
}
