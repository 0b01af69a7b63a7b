import Export
import Flywheel
import Foundation
import Jobs
import Testing
@testable import ReplayKit
import Privacy
import TestSupport

/// report.json and the flywheel read the same export: where both count the same thing, they
/// must count it the same way (one `@Name` rule, one attribution of a push).
@Suite struct SharedRulesTests {
    /// A group where an e-mail address sits at a member's name, pushes before and after person
    /// messages of different builds, and a thread that opens with a push.
    static let corpus = """
        {"type":"thread","id":"g1","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach"},{"name":"Sage"}]}}
        {"type":"message","thread":"g1","id":"n1","at":"2026-09-01T07:00:00Z","from":"person","text":"mail it to x@sage.com","meta":{"group":{"to":"Sage","routed":"on-device"},"build":"A","model":"26.0"}}
        {"type":"message","thread":"g1","id":"n2","at":"2026-09-01T07:01:00Z","from":"Sage","screen":[{"say":"Sure thing"}],"push":{"kind":"reply","batch":1},"meta":{"build":"Z"}}
        {"type":"message","thread":"g1","id":"n3","at":"2026-09-01T07:02:00Z","from":"person","text":"@Sage thanks","meta":{"group":{"to":"Sage"},"build":"B","model":"26.4"}}
        {"type":"message","thread":"g1","id":"n4","at":"2026-09-01T07:03:00Z","from":"Coach","screen":[{"say":"Rest now"}],"push":{"kind":"handoff","batch":2}}
        {"type":"thread","id":"t2","agent":"Coach","locale":"en-US"}
        {"type":"message","thread":"t2","id":"m1","at":"2026-09-02T07:00:00Z","from":"Coach","screen":[{"say":"Morning plan"}],"push":{"kind":"reply","batch":1}}
        {"type":"message","thread":"t2","id":"m2","at":"2026-09-02T07:01:00Z","from":"person","text":"ok","meta":{"build":"C","model":"27.0"}}

        """

    func run() throws -> (ReportValue, FlywheelCounter) {
        let directory = try TemporaryDirectory(prefix: "replay-test")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(Self.corpus, in: directory.path)]
        options.dryRun = true
        options.flywheel = true
        // The builds are names, not versions: the team lists them to read them as written.
        options.labels = TeamLabels(builds: ["A", "B", "C", "Z"])
        let jobs = JobKind.allCases.map { $0.job() }
        let tally = ReplayRunner(options: options, jobs: jobs, model: nil).run()
        let report = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date()).build()
        return (report, try #require(tally.flywheel))
    }

    @Test func routingAndTheFlywheelAgreeOnWhichMessagesNameAMember() throws {
        let (report, flywheel) = try run()
        #expect(report.at("jobs.route.counters.named") == .int(1))   // "@Sage thanks" only
        #expect(report.at("jobs.route.eligible") == .int(1))         // the e-mail address is asked about
        #expect(flywheel.cell(.routeNamed).numerator == 1)
        #expect(flywheel.cell(.routeNamed).denominator == 2)
    }

    @Test func reportAndFlywheelCountEachPushUnderTheSameBuildAndModel() throws {
        let (report, flywheel) = try run()
        // n2 → B (the next person message, not the agent's own meta), n4 → B (the previous one;
        // none follows), m1 → C (the next one, though none came before).
        for (build, pushes) in [("A", 0), ("B", 2), ("C", 1), ("Z", 0), ("unknown", 0)] {
            let replayed = report.at("jobs.push.by_build")?[build]?["scanned"]?.doubleValue.map { Int($0) } ?? 0
            #expect(replayed == pushes, "build \(build)")
            #expect(flywheel.cell(.pushReply, .build, build).denominator == pushes, "build \(build)")
        }
        for (model, pushes) in [("26.0", 0), ("26.4", 2), ("27.0", 1)] {
            let replayed = report.at("jobs.push.by_model")?[model]?["scanned"]?.doubleValue.map { Int($0) } ?? 0   // "26.4" holds a dot
            #expect(replayed == pushes && flywheel.cell(.pushReply, .model, model).denominator == pushes, "model \(model)")
        }
    }
}
