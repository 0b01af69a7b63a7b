import Engine
import Jobs
import Testing
@testable import ReplayKit
import TestSupport

/// A long thread planned a range of messages per worker gives what one pass gives: the same
/// outcomes and requests in the same order, the same counts and the same prompt sizes, for every
/// job, in a dry run and a run with the model.
@Suite struct LongThreadPlanningTests {
    static func planner(workers: Int, dryRun: Bool) -> Planner {
        var options = ReplayOptions()
        options.dryRun = dryRun
        var planner = Planner(options: options, jobs: JobKind.allCases.map { RunJobs.job($0) },
                              phoneTokens: PhoneTokenizers(options.profiles), canary: nil, modelUnavailable: false, dryRun: dryRun,
                              itemKeys: .unkeyed(fileCount: 1))
        planner.workers = workers
        return planner
    }

    @Test func aLongThreadIsCutIntoOneRangePerWorkerAndAShortOneIsNot() {
        #expect(Planner.ranges(of: 0..<5_000, workers: 2) == [0..<5_000])
        #expect(Planner.ranges(of: 0..<(2 * Planner.rangeMessages - 1), workers: 2).count == 1)
        #expect(Planner.ranges(of: 0..<40_000, workers: 2) == [0..<20_000, 20_000..<40_000])
        #expect(Planner.ranges(of: 0..<40_000, workers: 1) == [0..<40_000])
        #expect(Planner.ranges(of: 10_000..<50_000, workers: 2) == [10_000..<30_000, 30_000..<50_000])
        #expect(Planner.ranges(of: 7..<7, workers: 2) == [7..<7])
        let three = Planner.ranges(of: 0..<30_001, workers: 8)
        #expect(three.count == 3 && three.first?.lowerBound == 0 && three.last?.upperBound == 30_001)
        #expect(zip(three, three.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    @Test(arguments: [true, false], [2, 3])
    func rangesPlanWhatOnePassPlans(dryRun: Bool, workers: Int) {
        let thread = VariedThread.make(messages: 3 * Planner.rangeMessages + 517, seed: 11, group: true, repeating: true)
        let input = PlanningInput(thread: thread, file: 0)
        let one = Self.planner(workers: 1, dryRun: dryRun).plan(input)
        let split = Self.planner(workers: workers, dryRun: dryRun).plan(input)
        #expect(Planner.ranges(of: thread.messages.indices, workers: workers).count == workers)
        #expect(one.outcomes.count + one.queued.count > 10_000)
        #expect(split.outcomes == one.outcomes)
        #expect(split.ledgers == one.ledgers)
        #expect(split.sizing == one.sizing)
        #expect(split.queued.map(\.attribution) == one.queued.map(\.attribution))
        #expect(split.queued.map(\.promptTokens) == one.queued.map(\.promptTokens))
        #expect(split.queuedPlaces.map(\.key) == one.queuedPlaces.map(\.key))
        #expect(dryRun ? one.queued.isEmpty : !one.queued.isEmpty)
    }
}
