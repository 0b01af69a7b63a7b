import Foundation
import Testing
@testable import ReplayKit
import Export
import Jobs
import Privacy
import TestSupport

/// A run reads of each screen only what its jobs need (`ScreenDetail`); what it counts must be
/// what a run reading every node counts, for each job alone and all four, dry and with a model.
@Suite struct ScreenDetailTests {
    @Test func theDetailFollowsTheJobsAndTheCanary() {
        let route: any Job = RouteJob(), draft: any Job = DraftJob(), chips: any Job = ChipsJob(), push: any Job = PushJob()
        #expect(ThreadSource.screenDetail(for: [route], plantsCanary: false) == .facts)
        #expect(ThreadSource.screenDetail(for: [route, draft], plantsCanary: false) == .facts)
        #expect(ThreadSource.screenDetail(for: [draft, chips], plantsCanary: false) == .words)
        #expect(ThreadSource.screenDetail(for: [push], plantsCanary: false) == .words)
        #expect(ThreadSource.screenDetail(for: [route], plantsCanary: true) == .nodes)
        #expect(ThreadSource.screenDetail(for: [route, draft, chips, push], plantsCanary: true) == .nodes)
    }

    @Test(arguments: [[JobKind.chips], [.route], [.push], [.draft], JobKind.allCases], [true, false])
    func aRunCountsTheSameAsOneReadingEveryNode(kinds: [JobKind], dryRun: Bool) {
        var options = ReplayOptions()
        options.corpus = [BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"]
        options.dryRun = dryRun
        options.jobs = kinds
        let jobs = kinds.map { RunJobs.job($0) }
        func report(_ screens: ScreenDetail?) -> (json: String, items: Int) {
            let model = LabelScriptedModel(routeTo: "Penny")
            let tally = ReplayRunner(options: options, jobs: jobs, model: dryRun ? nil : model,
                                     planningWorkers: 2, screens: screens).run()
            let built = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0,
                                      started: Date(timeIntervalSince1970: 0)).build()
            return (ReportValue.object([("corpus", built["corpus"]!), ("jobs", built["jobs"]!)]).json(), tally.items.count)
        }
        let chosen = report(nil), everyNode = report(.nodes)
        #expect(chosen.json == everyNode.json)
        #expect(chosen.items == everyNode.items && chosen.items > 0)
    }
}
