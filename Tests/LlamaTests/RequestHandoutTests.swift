import Foundation
import Synchronization
import Testing
@testable import Llama

/// The pool's hand-out: each request once, owners from the front of their runs, a lane that is
/// done from the back of the run with the most work left.
@Suite struct RequestHandoutTests {
    @Test func ownersTakeTheirRunsInOrder() {
        let handout = RequestHandout(ranges: [0..<3, 3..<5], work: [1, 1, 1, 1, 1])
        #expect([handout.take(lane: 0), handout.take(lane: 1), handout.take(lane: 0)] == [0, 3, 1])
        // Its own run's next first, then what any lane may take next from another run.
        #expect(handout.upcoming(lane: 0, limit: 8) == [2, 4])
        #expect(handout.upcoming(lane: 1, limit: 8) == [4, 2])
    }

    /// Another run's next are its front (its owner's) and its back (a finished lane's), once each.
    @Test func upcomingRequestsIncludeEveryRunsFrontAndBack() {
        let handout = RequestHandout(ranges: [0..<2, 2..<40], work: Array(repeating: 1, count: 40))
        #expect(handout.upcoming(lane: 0, limit: 3) == [0, 1, 2, 3, 4, 37, 38, 39])
        #expect(handout.upcoming(lane: 1, limit: 3) == [2, 3, 4, 0, 1])
    }

    /// A lane whose run is done takes the last request of the run with the most work left.
    @Test func aDoneLaneTakesFromTheBackOfTheBusiestRun() {
        let handout = RequestHandout(ranges: [0..<1, 1..<4, 4..<8], work: [1, 9, 9, 9, 1, 1, 1, 1])
        #expect(handout.take(lane: 0) == 0)
        #expect(handout.take(lane: 0) == 3, "lane 1 has 27 left, lane 2 has 4")
        #expect(handout.take(lane: 0) == 2)
        #expect(handout.take(lane: 0) == 7, "lane 1 has 9 left in one request; lane 2 has 4 in four")
        #expect(handout.take(lane: 1) == 1, "its owner still starts on the front")
        #expect(handout.upcoming(lane: 2, limit: 8) == [4, 5, 6])
    }

    /// A run's last request is its owner's: taking it could leave the owner, which may not have
    /// started yet, with nothing.
    @Test func aRunsLastRequestIsLeftToItsOwner() {
        let handout = RequestHandout(ranges: [0..<1, 1..<2], work: [1, 1])
        #expect(handout.take(lane: 0) == 0)
        #expect(handout.take(lane: 0) == nil)
        #expect(handout.take(lane: 1) == 1)
        #expect(handout.take(lane: 1) == nil)
    }

    /// Lanes taking at once: every index exactly once, whoever takes it.
    @Test(arguments: [2, 3, 5])
    func everyRequestIsHandedOutOnce(lanes: Int) {
        let count = 2_000
        let work = (0..<count).map { 1 + ($0 * 7919) % 13 }
        let handout = RequestHandout(ranges: LlamaEnginePool.split(work, into: lanes), work: work)
        let taken = Mutex<[[Int]]>(Array(repeating: [], count: lanes))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var mine: [Int] = []
            while let index = handout.take(lane: lane) { mine.append(index) }
            taken.withLock { $0[lane] = mine }
        }
        #expect(taken.withLock { $0 }.flatMap { $0 }.sorted() == Array(0..<count))
    }

    /// One slow lane (it takes once for every ten the others take): the others end up answering
    /// most of its run, from the back, and between them every request is answered once.
    @Test func fastLanesTakeOverASlowLanesRun() {
        let work = [Int](repeating: 1, count: 60)
        let ranges = LlamaEnginePool.split(work, into: 3)
        let handout = RequestHandout(ranges: ranges, work: work)
        var taken: [[Int]] = [[], [], []]
        var turn = 0, misses = 0
        while misses < 33 {   // every lane found nothing, many times over
            let lane = turn % 11 == 0 ? 0 : 1 + turn % 2
            turn += 1
            if let index = handout.take(lane: lane) { taken[lane].append(index); misses = 0 } else { misses += 1 }
        }
        #expect(taken.flatMap { $0 }.sorted() == Array(0..<60))
        #expect(taken[0] == Array(ranges[0].prefix(taken[0].count)), "the slow lane only ever took its run's front")
        #expect(taken[0].count < ranges[0].count / 2)
        let stolen = taken[1...].flatMap { $0 }.filter { ranges[0].contains($0) }
        #expect(stolen.sorted() == Array(ranges[0].suffix(stolen.count)), "the others took its run from the back")
    }
}

extension RequestHandoutTests {
    /// What is left to hand out counts every run's requests, whoever takes them.
    @Test func remainingCountsWhatIsLeftOnEveryRun() {
        let handout = RequestHandout(ranges: [0..<2, 2..<5], work: [1, 1, 1, 1, 1])
        #expect(handout.remaining == 5)
        _ = handout.take(lane: 1)
        #expect(handout.remaining == 4)
        _ = (handout.take(lane: 0), handout.take(lane: 0))
        #expect(handout.remaining == 2, "lane 0's run is done")
        _ = handout.take(lane: 0)
        #expect(handout.remaining == 1, "taken from the back of lane 1's")
    }

    /// Exhausted exactly when `take` would give nothing: the lane's own run is empty and no run
    /// holds two or more.
    @Test func exhaustedWhenTakingGivesNothing() {
        let handout = RequestHandout(ranges: [0..<1, 1..<4], work: [1, 1, 1, 1])
        #expect(!handout.isExhausted(for: 0))
        #expect(handout.take(lane: 0) == 0)
        #expect(!handout.isExhausted(for: 0), "lane 1's run holds three")
        #expect(handout.take(lane: 0) == 3)
        #expect(handout.take(lane: 0) == 2)
        #expect(handout.isExhausted(for: 0), "lane 1's last request is its own")
        #expect(!handout.isExhausted(for: 1))
        #expect(handout.take(lane: 1) == 1)
        #expect(handout.isExhausted(for: 1) && handout.take(lane: 1) == nil)
    }
}

/// Where the pool's runs meet: between two groups' prompts, near the even split.
@Suite struct RunBoundaryTests {
    /// Prompts of three groups: each group's share a member list of 5 tokens, then a message.
    static let prompts: [[Int32]] = (0..<12).map { index in
        let group: Int32 = index < 5 ? 1 : (index < 9 ? 2 : 3)
        return [9, 9, group, group, group, group, group, Int32(100 + index)]
    }

    @Test func aBoundaryMovesToTheNearestPlaceBetweenGroups() {
        // The even split at 6 falls inside group 2 (5..<9): the nearest group edge within a
        // quarter of the shorter run (1 request) is 5.
        #expect(LlamaEnginePool.placeBoundaries([0..<6, 6..<12], prompts: Self.prompts) == [0..<5, 5..<12])
        // Within reach of neither edge it stays.
        #expect(LlamaEnginePool.placeBoundaries([0..<7, 7..<12], prompts: Self.prompts) == [0..<7, 7..<12])
        // Already between groups, it stays.
        #expect(LlamaEnginePool.placeBoundaries([0..<9, 9..<12], prompts: Self.prompts) == [0..<9, 9..<12])
    }

    @Test func everyRunKeepsARequest() {
        #expect(LlamaEnginePool.placeBoundaries([0..<1, 1..<2], prompts: Array(Self.prompts.prefix(2))) == [0..<1, 1..<2])
        let three = LlamaEnginePool.placeBoundaries([0..<4, 4..<8, 8..<12], prompts: Self.prompts)
        #expect(three.allSatisfy { !$0.isEmpty } && three.first?.lowerBound == 0 && three.last?.upperBound == 12)
        #expect(zip(three, three.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }
}
