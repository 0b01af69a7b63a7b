import Privacy
import Engine
import Export
import Testing
@testable import Jobs

/// Push lines written at the next app run (spec §4's fallback: `--push-mode next-run`): the line
/// is asked as in the extension, and written at the person's next message after the push, in
/// any thread; a push the app never ran after is never written.
@Suite struct PushNextRunTests {
    /// Coach's pushed replies at the given times, in a thread with no message of the person.
    static func pushes(_ times: [String]) -> ThreadSnapshot {
        Threads.coachThread(times.enumerated().map { index, at in
            MessageRecord(thread: "t1", id: "m\(index)", at: at, from: .agent("Coach"), screen: Screen(nodes: [.say(SealedText("words \(index)"))]),
                          push: PushInfo(kind: "reply"))
        })
    }

    /// The person's messages of other threads: 07:30 UTC (written in Paris time), and 11:00 UTC.
    static let runs = NextRuns(milliseconds: ["2026-09-01T09:30:00+02:00", "2026-09-01T11:00:00Z", "2026-09-01T11:00:00Z"].map {
        UTCInstant.milliseconds($0)!
    })

    @Test func theNextRunIsThePersonsNextMessageStrictlyAfter() {
        #expect(Self.runs.count == 2)   // an instant once
        #expect(Self.runs.delaySeconds(after: "2026-09-01T07:01:00Z") == 1740)
        #expect(Self.runs.delaySeconds(after: "2026-09-01T07:30:00Z") == 12_600)   // the same instant is not after it
        #expect(Self.runs.delaySeconds(after: "2026-09-01T10:59:59.5Z") == 0.5)
        #expect(Self.runs.delaySeconds(after: "2026-09-01T11:00:00Z") == nil)
        #expect(Self.runs.delaySeconds(after: "not a time") == nil)
        #expect(NextRuns.none.delaySeconds(after: "2026-09-01T07:01:00Z") == nil)
    }

    @Test func aPushFollowedByARunIsAskedAndItsDelayCounted() throws {
        let job = PushJob(mode: .nextRun, nextRuns: Self.runs)
        var ledger = JobLedger()
        let items = job.plan(Self.pushes(["2026-09-01T07:01:00Z", "2026-09-01T08:00:00Z", "2026-09-01T12:00:00Z", ""]),
                             tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(items.count == 4)
        #expect(items[0].request != nil && items[1].request != nil)   // the same request as in the extension
        // Each waits in the phone's queue from its next run, not from its push.
        #expect(items[0].firedAtMilliseconds == UTCInstant.milliseconds("2026-09-01T07:30:00Z"))
        #expect(items[1].firedAtMilliseconds == UTCInstant.milliseconds("2026-09-01T11:00:00Z"))
        var other = JobLedger()
        #expect(PushJob(nextRuns: Self.runs).plan(Self.pushes(["2026-09-01T07:01:00Z"]), tokenizer: ScriptedModel(output: ""),
                                                  ledger: &other).first?.firedAtMilliseconds == nil)   // the extension: the planner's `at`
        #expect(items[2].request == nil && items[2].earlyFallback == .noNextRun)   // nothing after noon
        #expect(items[3].request == nil && items[3].earlyFallback == .noNextRun)   // no time: no run known after it
        #expect(ledger.overall.nextRunDelay.count == 2)
        #expect(ledger.overall.nextRunDelay.sum == 1740 + 10_800)   // exact: 07:01 → 07:30, 08:00 → 11:00
        #expect(ledger.overall.counters["next_run:no_time"] == 1)
        #expect(ledger.byBuild["2.4.0 (530)"] == nil)   // no person message in the thread: counted as unknown
        #expect(ledger.byBuild["unknown"]?.nextRunDelay.count == 2)
        for item in items where item.request == nil { ledger.add(job.unasked(item, reason: item.earlyFallback)) }
        #expect(ledger.overall.fallbacks[.noNextRun] == 2)
    }

    @Test func theExtensionCountsNoRuns() {
        var ledger = JobLedger()
        let items = PushJob(nextRuns: Self.runs).plan(Self.pushes(["2026-09-01T07:01:00Z", "2026-09-01T12:00:00Z"]),
                                                      tokenizer: ScriptedModel(output: ""), ledger: &ledger)
        #expect(items.allSatisfy { $0.request != nil })
        #expect(ledger.overall.nextRunDelay.count == 0 && ledger.overall.fallbacks.isEmpty)
        #expect(PushJob().described.settings.pushMode == .extension)
        #expect(PushJob(mode: .nextRun).described.settings.pushMode == .nextRun)
    }

    /// A state written before the next-run path has no delays, and reads back with none; one with
    /// delays keeps every bucket.
    @Test func delaysSurviveAStateAndMerge() throws {
        var metrics = JobMetrics()
        let plain = try ReportValueEncoder().encode(metrics)
        #expect(plain["next_run_delay_s"] == nil)
        metrics.nextRunDelay.add(1740)
        metrics.nextRunDelay.add(10_800)
        let written = try ReportValueEncoder().encode(metrics)
        let read = try ReportValueDecoder().decode(JobMetrics.self, from: written)
        #expect(read == metrics && read.nextRunDelay.sum == 12_540)
        var merged = JobMetrics()
        merged.merge(read)
        merged.merge(read)
        #expect(merged.nextRunDelay.count == 4)
    }
}
