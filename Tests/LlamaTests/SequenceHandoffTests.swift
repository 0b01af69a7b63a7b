import Foundation
import Synchronization
import Testing
@testable import Llama

/// The pool's hand-off at a call's end: a lane holding three or more sequences, and two more than
/// an idle lane, passes one to it; every promise is delivered once; a waiting lane stops waiting
/// exactly when no lane could still pass it anything.
@Suite struct SequenceHandoffTests {
    static func parcel(_ request: Int) -> SequenceHandoff.Parcel {
        let slot = LlamaEngine.Slot(request: request, prompt: [1, 2, 3], instructionPrefix: 0, maxOutputTokens: 8,
                                    grammar: nil, grammarText: nil, measuresConfidence: false)
        return SequenceHandoff.Parcel(slot: slot, state: [])
    }

    @Test func aLaneWithThreeOrMorePassesToAnIdleOneUntilEven() {
        let handoff = SequenceHandoff(lanes: 2)
        #expect(handoff.report(lane: 1, active: 0) == nil, "an idle lane has nothing to pass")
        #expect(handoff.report(lane: 0, active: 4) == 1)
        // The promise counts at once: 3 against 1 still passes, 2 against 2 does not.
        #expect(handoff.report(lane: 0, active: 3) == 1)
        #expect(handoff.report(lane: 0, active: 2) == nil)
    }

    @Test(arguments: [(2, 0), (3, 2), (4, 3)])
    func noPassWithFewerThanThreeOrLessThanTwoMore(giver: Int, taker: Int) {
        let handoff = SequenceHandoff(lanes: 2)
        _ = handoff.report(lane: 1, active: taker)
        #expect(handoff.report(lane: 0, active: giver) == nil)
    }

    /// Only lanes that have reported (nothing left to take) and are not done are given sequences;
    /// of those, the one holding fewest.
    @Test func theTakerIsTheIdlestLaneStillAtWork() {
        let handoff = SequenceHandoff(lanes: 4)
        #expect(handoff.report(lane: 0, active: 6) == nil, "no other lane has reported")
        _ = handoff.report(lane: 1, active: 2)
        _ = handoff.report(lane: 2, active: 0)
        handoff.finish(lane: 2)
        _ = handoff.report(lane: 3, active: 1)
        #expect(handoff.report(lane: 0, active: 6) == 3, "lane 2 is done; lane 3 holds fewer than lane 1")
    }

    @Test func promisesAreDeliveredOnceInOrder() {
        let handoff = SequenceHandoff(lanes: 2)
        _ = handoff.report(lane: 1, active: 0)
        #expect(handoff.report(lane: 0, active: 5) == 1)
        #expect(handoff.mayReceive(lane: 1), "a sequence is promised to it")
        handoff.give(Self.parcel(7), to: 1)
        #expect(handoff.report(lane: 0, active: 4) == 1)
        handoff.give(Self.parcel(9), to: 1)
        #expect(handoff.receive(lane: 1).map(\.slot.request) == [7, 9])
        #expect(handoff.receive(lane: 1).isEmpty)
        #expect(handoff.receive(lane: 0).isEmpty)
    }

    /// A lane with nothing waits while another lane is still taking requests or holds three or
    /// more, and stops once every other lane holds fewer or is done.
    @Test func anIdleLaneWaitsOnlyWhileItCouldStillBeGivenOne() {
        let handoff = SequenceHandoff(lanes: 3)
        _ = handoff.report(lane: 0, active: 0)
        #expect(handoff.mayReceive(lane: 0), "lanes 1 and 2 are still taking requests")
        _ = handoff.report(lane: 1, active: 2)
        #expect(handoff.mayReceive(lane: 0), "lane 2 is still taking requests")
        handoff.finish(lane: 2)
        #expect(!handoff.mayReceive(lane: 0), "lane 1 holds two: it keeps them")
        let other = SequenceHandoff(lanes: 2)
        _ = other.report(lane: 0, active: 0)
        _ = other.report(lane: 1, active: 2)
        #expect(!other.mayReceive(lane: 0))
        other.finish(lane: 1)
        #expect(!other.mayReceive(lane: 0))
    }

    /// Lanes reporting at once from many threads: every promise made is delivered exactly once.
    @Test func concurrentLanesDeliverEveryPromise() {
        let lanes = 4
        let handoff = SequenceHandoff(lanes: lanes)
        let delivered = Mutex<[Int]>([])
        let promised = Mutex(0)
        // Every lane but the first has nothing left to take and nothing in flight to begin with.
        for lane in 1..<lanes { #expect(handoff.report(lane: lane, active: 0) == nil) }
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var active = lane == 0 ? 40 : 0
            var next = lane * 1_000
            for _ in 0..<200 {
                active += handoff.receive(lane: lane).count
                if let taker = handoff.report(lane: lane, active: active) {
                    active -= 1
                    promised.withLock { $0 += 1 }
                    handoff.give(Self.parcel(next), to: taker)
                    next += 1
                }
            }
            handoff.finish(lane: lane)
            delivered.withLock { $0.append(active) }
        }
        let leftover = (0..<lanes).map { handoff.receive(lane: $0).count }.reduce(0, +)
        #expect(delivered.withLock { $0 }.reduce(0, +) + leftover == 40, "no sequence made or lost")
        #expect(promised.withLock { $0 } > 0)
    }
}
