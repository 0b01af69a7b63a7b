import Jobs
import Testing
@testable import Compare
@testable import ReplayKit

/// `ItemJoin`: items pair on their key and job; the rest are counted on their side, per job and
/// per slice; a key that repeats in a run is left out of both and counted.
@Suite struct ItemJoinTests {
    typealias F = CompareFixtures

    @Test func itemsOnOneSideOnlyAreCountedPerJob() {
        let base = ItemTable([
            F.item(1, thread: 1), F.item(2, thread: 1), F.item(3, thread: 2),                 // chips: 1, 2 paired; 3 BASE only
            F.item(10, thread: 1, job: .route), F.item(11, thread: 3, job: .route),            // route: 10 paired; 11 BASE only
        ])
        let new = ItemTable([
            F.item(1, thread: 1), F.item(2, thread: 1), F.item(4, thread: 2), F.item(5, thread: 4),   // chips: 4, 5 NEW only
            F.item(10, thread: 1, job: .route),
            F.item(20, thread: 5, job: .push),                                                   // push: NEW only
        ])
        let join = ItemJoin(base: base, new: new)
        #expect(join.jobKinds == [.chips, .route, .push])
        #expect(join.jobs[.chips]!.counts() == JoinCounts(base: 3, new: 4, paired: 2, baseOnly: 1, newOnly: 2))
        #expect(join.jobs[.route]!.counts() == JoinCounts(base: 2, new: 1, paired: 1, baseOnly: 1, newOnly: 0))
        #expect(join.jobs[.push]!.counts() == JoinCounts(base: 0, new: 1, paired: 0, baseOnly: 0, newOnly: 1))
        #expect(join.total == JoinCounts(base: 5, new: 6, paired: 3, baseOnly: 2, newOnly: 3))
        #expect(join.jobs[.chips]!.pairs.map(\.base.key) == [1, 2])
    }

    /// The same key under another job is another item.
    @Test func aKeyPairsOnlyWithinItsJob() {
        let join = ItemJoin(base: ItemTable([F.item(7, thread: 1, job: .chips)]), new: ItemTable([F.item(7, thread: 1, job: .draft)]))
        #expect(join.jobs[.chips]!.counts() == JoinCounts(base: 1, new: 0, paired: 0, baseOnly: 1, newOnly: 0))
        #expect(join.jobs[.draft]!.counts() == JoinCounts(base: 0, new: 1, paired: 0, baseOnly: 0, newOnly: 1))
    }

    @Test func aRepeatedKeyIsLeftOutOfBothRuns() {
        let base = ItemTable([F.item(1, thread: 1), F.item(1, thread: 1), F.item(2, thread: 1), F.item(3, thread: 1)])
        let new = ItemTable([F.item(1, thread: 1), F.item(2, thread: 1), F.item(3, thread: 1), F.item(3, thread: 1)])
        let counts = ItemJoin(base: base, new: new).jobs[.chips]!.counts()
        // 1 repeats in BASE (2 there, 1 in NEW), 3 in NEW (1 there, 2 in NEW): 6 left out, 2 paired.
        #expect(counts == JoinCounts(base: 4, new: 4, paired: 1, baseOnly: 0, newOnly: 0, repeated: 6))
        #expect(counts.base + counts.new == 2 * counts.paired + counts.baseOnly + counts.newOnly + counts.repeated)
    }

    /// Slices count a paired item by BASE's build, any other by its own.
    @Test func slicesCountPairsByTheBaseBuild() {
        let base = ItemTable([F.item(1, thread: 1, build: "2.3.0"), F.item(2, thread: 1, build: "2.3.0")])
        let new = ItemTable([F.item(1, thread: 1, build: "2.4.0"), F.item(3, thread: 2, build: "2.4.0")])
        let job = ItemJoin(base: base, new: new).jobs[.chips]!
        #expect(job.counts { $0.build == "2.3.0" } == JoinCounts(base: 2, new: 1, paired: 1, baseOnly: 1, newOnly: 0))
        #expect(job.counts { $0.build == "2.4.0" } == JoinCounts(base: 0, new: 1, paired: 0, baseOnly: 0, newOnly: 1))
        let comparison = Comparison(base: base, new: new)
        #expect(comparison.job(.chips)!.byBuild.map(\.label) == ["2.3.0", "2.4.0"])
        #expect(comparison.job(.chips)!.byBuild[0].eligible.paired == 1)
    }
}
