import Engine
import Foundation
@testable import Jobs
import Testing
@testable import ReplayKit
import TestSupport

/// The phone's one queue (issue 44, point 5): each case's numbers worked out by hand from the
/// model in `PhoneQueue`'s documentation, with a cold start of 1,000 ms, an idle unload of 60 s
/// and a prewarm lead of 1,500 ms (the built-in estimates).
@Suite struct PhoneQueueTests {
    static let model = PhoneQueueModel(coldStartMilliseconds: 1000, idleUnloadMilliseconds: 60_000, prewarmLeadMilliseconds: 1500, source: "test")
    static let queue = PhoneQueue(model: model, budgets: [.chips: 800, .route: 400, .push: 3000, .draft: 2000])

    /// An asked place of `job` firing at `at` ms that took `device` ms on the phone, valid and in
    /// budget by itself unless told otherwise.
    static func place(_ job: JobKind, at: Int64?, device: Double, valid: Bool = true) -> ItemResult {
        let budget = queue.budgets[job]!
        return ItemResult(job: job, attribution: Attribution(build: "b", model: "m"), answered: valid && device <= budget,
                          fallback: valid ? (device <= budget ? nil : .timeBudget) : .invalidOutput, inputWasCut: false, asked: true,
                          promptTokens: 10, outputTokens: 5, hostMilliseconds: 1, deviceMilliseconds: device,
                          inBudgetHost: valid, inBudgetDevice: valid && device <= budget, firedAtMilliseconds: at)
    }

    /// A screen that lands with a push: chips and the push line fire together, on a warm phone
    /// (the person wrote 10 s before). Chips go first (the jobs' order); the push waits for them.
    @Test func twoJobsAtOneMessageWaitTheirTurn() {
        // Given push first: the order is the clock's and the jobs', not the input's.
        let judged = Self.queue.judge([Self.place(.push, at: 0, device: 500), Self.place(.chips, at: 0, device: 500)], prewarms: [-10_000])
        #expect(judged.map(\.queuedMilliseconds) == [1000, 500])
        #expect(judged.map(\.inBudgetQueued) == [true, true])
        #expect(judged[0].counters == [PhoneQueue.waited: 1] && judged[1].counters.isEmpty)
    }

    /// Nobody opened the thread: the model is cold when the screen lands, and 500 ms of chips
    /// become 1,500 ms, past the 800 ms budget, though in budget by themselves.
    @Test func aColdModelLoadsFirst() {
        let judged = Self.queue.judge([Self.place(.chips, at: 0, device: 500)], prewarms: [])
        #expect(judged[0].inBudgetDevice == true)
        #expect(judged[0].queuedMilliseconds == 1500 && judged[0].inBudgetQueued == false)
        #expect(judged[0].counters == [PhoneQueue.coldStart: 1])
    }

    /// A person's message means their thread was open 1,500 ms before: the prewarm began there,
    /// so a route guess at the message finds the model ready (1,500 ≥ 1,000 ms of load). With a
    /// load longer than the lead it waits the difference.
    @Test func aPrewarmWhenTheThreadOpensHidesTheLoad() {
        let warm = Self.queue.judge([Self.place(.route, at: 0, device: 300)], prewarms: [0])
        #expect(warm[0].queuedMilliseconds == 300 && warm[0].inBudgetQueued == true && warm[0].counters.isEmpty)
        let slow = PhoneQueue(model: PhoneQueueModel(coldStartMilliseconds: 1600, idleUnloadMilliseconds: 60_000,
                                                     prewarmLeadMilliseconds: 1500, source: "test"), budgets: Self.queue.budgets)
        let late = slow.judge([Self.place(.route, at: 0, device: 300)], prewarms: [0])
        #expect(late[0].queuedMilliseconds == 400 && late[0].inBudgetQueued == true && late[0].counters == [PhoneQueue.coldStart: 1])
    }

    /// An idle model unloads after 60 s: a second screen 30 s after the first call ends finds it
    /// loaded, one 70 s after does not.
    @Test func anIdleModelUnloads() {
        let soon = Self.queue.judge([Self.place(.chips, at: 0, device: 500), Self.place(.chips, at: 31_500, device: 500)], prewarms: [])
        #expect(soon.map(\.queuedMilliseconds) == [1500, 500])
        let later = Self.queue.judge([Self.place(.chips, at: 0, device: 500), Self.place(.chips, at: 71_500, device: 500)], prewarms: [])
        #expect(later.map(\.queuedMilliseconds) == [1500, 1500])
        #expect(later.map(\.inBudgetQueued) == [false, false])
    }

    /// An invalid answer takes its time on the phone too, and is never in budget; a late one is
    /// judged on the queue's clock as well.
    @Test func everyCallTakesItsTimeAndOnlyValidAnswersCount() {
        let judged = Self.queue.judge([Self.place(.chips, at: 0, device: 700, valid: false), Self.place(.push, at: 0, device: 2000)],
                                      prewarms: [-5000])
        #expect(judged.map(\.queuedMilliseconds) == [700, 2700])
        #expect(judged.map(\.inBudgetQueued) == [false, true])
    }

    /// A place the export gives no readable time keeps its device figures and is counted.
    @Test func anUntimedPlaceIsJudgedAsByItself() {
        let judged = Self.queue.judge([Self.place(.chips, at: nil, device: 500)], prewarms: [])
        #expect(judged[0].inBudgetQueued == true && judged[0].queuedMilliseconds == 500 && judged[0].counters == [PhoneQueue.untimed: 1])
    }

    /// A thread's answers are held until its last, however the calls split them, then judged
    /// together; another thread's are judged apart.
    @Test func aThreadIsJudgedOnceItsLastAnswerIsIn() {
        var stage = PhoneQueueStage(queue: Self.queue)
        stage.expect(thread: 1, asked: 2, prewarms: [-10_000])
        stage.expect(thread: 2, asked: 1, prewarms: [])
        func take(_ result: ItemResult, thread: UInt64) -> [(ItemResult, ItemOutcome)] {
            stage.take(result, ItemOutcome(result, key: 0, thread: thread, build: "b", model: "m", locale: "en"))
        }
        #expect(take(Self.place(.chips, at: 0, device: 500), thread: 1).isEmpty)
        let other = take(Self.place(.chips, at: 0, device: 500), thread: 2)
        #expect(other.map(\.0.queuedMilliseconds) == [1500] && other.map(\.1.inBudgetQueued) == [false])
        let both = take(Self.place(.push, at: 0, device: 500), thread: 1)
        #expect(both.map(\.0.queuedMilliseconds) == [500, 1000] && both.map(\.1.inBudgetQueued) == [true, true] && stage.isEmpty)
    }

    /// Through a run: a thread whose screens land with pushes, on a warm phone, is in budget
    /// queued less often than by itself, and the report has both figures and the queue's numbers.
    @Test func aRunReportsBothFiguresAndTheQueuesNumbers() throws {
        let work = try TemporaryDirectory(prefix: "phone-queue")
        var options = ReplayOptions()
        options.corpus = [writeCorpus(Self.busyThread, in: work.path)]
        let jobs: [any Job] = [ChipsJob(), PushJob()]
        let tally = ReplayRunner(options: options, jobs: jobs, model: ScriptedReplayModel(promptTokens: 300)).run()
        let report = ReportBuilder(options: options, tally: tally, model: nil, jobs: jobs, seconds: 0, started: Date()).build()
        let chips = try #require(report.at("jobs.chips")), push = try #require(report.at("jobs.push"))
        #expect(chips["asked"] == .int(2) && push["asked"] == .int(2))
        // Chips first at each screen: warm at 07:00:00 (the person wrote at 06:59:50), cold at
        // 09:00:00 (two hours idle): 1 of 2 in its queue. Each push waits for its chips.
        #expect(chips["in_budget"]?["device"] == .number(1) && chips["in_budget"]?["queued"] == .number(0.5))
        #expect(chips["counters"]?["queue:cold_start"] == .int(1) && push["counters"]?["queue:waited"] == .int(2))
        #expect(report.at("run.profiles.queue.cold_start_ms") == .number(1000))
        #expect(report.at("run.profiles.queue.idle_unload_s") == .number(60))
    }

    static let busyThread = """
        {"type":"export","version":1}
        {"type":"thread","id":"t1","agent":"Coach","locale":"en-US"}
        {"type":"message","thread":"t1","id":"m1","at":"2026-09-01T06:59:50Z","from":"person","text":"Morning run done","meta":{"build":"2.4.0","model":"26.4"}}
        {"type":"message","thread":"t1","id":"m2","at":"2026-09-01T07:00:00Z","from":"Coach","screen":[{"say":"How did it feel?"}],"push":{"kind":"reply","batch":1}}
        {"type":"message","thread":"t1","id":"m3","at":"2026-09-01T09:00:00Z","from":"Coach","screen":[{"say":"Ready for tomorrow?"}],"push":{"kind":"reply","batch":1}}

        """
}
