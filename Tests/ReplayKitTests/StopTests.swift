import Corpus
import Engine
import Export
import Foundation
import Jobs
import Privacy
@testable import ReplayKit
import Spawn
import Testing
import RunTestSupport
import TestSupport

/// A run asked to stop (`StopRequest`) keeps exactly what a checkpoint at its last fully answered
/// thread boundary holds, whenever the request comes: resumed from there, it counts what a run
/// never stopped counts.
@Suite struct StopTests {
    /// The fixtures' scripted model, raising `stop` during call `stoppingAt` (counted from 1) and
    /// then answering nothing, as an engine stopped between two steps does.
    final class StoppingModel: LanguageModel, @unchecked Sendable {
        let inner = LabelScriptedModel(routeTo: "Penny")
        let stop: StopRequest
        let stoppingAt: Int
        private(set) var calls = 0
        init(stop: StopRequest, stoppingAt: Int) {
            self.stop = stop
            self.stoppingAt = stoppingAt
        }
        var info: ModelInfo { inner.info }
        func tokenCount(of text: SealedText) -> Int { inner.tokenCount(of: text) }
        func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { inner.suffix(of: text, maxTokens: maxTokens) }
        func promptTokenCount(for request: GenerationRequest) -> Int { inner.promptTokenCount(for: request) }
        func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] { inner.respond(to: requests) }
        func respond(to requests: [GenerationRequest], unless stop: StopRequest) -> [GenerationOutcome]? {
            calls += 1
            if calls == stoppingAt { stop.raise() }
            return stop.isRaised ? nil : inner.respond(to: requests)
        }
    }

    /// What an in-process run of the fixtures' corpus counted, as a state, and how it ended.
    static func run(_ paths: [String], dryRun: Bool = false, model: (any LanguageModel)? = nil, stop: StopRequest? = nil,
                    resume: ReplayRunner.ResumePoint? = nil, every: Int? = nil,
                    checkpoint: (ReplayTally) -> Void = { _ in }) -> (state: RunState, tally: ReplayTally) {
        var options = StateFixtures.options(paths, dryRun: dryRun)
        options.checkpointEvery = every
        let jobs = options.jobs.map { RunJobs.job($0) }
        let scripted = model ?? LabelScriptedModel(routeTo: "Penny")
        let identity = CorpusIdentity.of((try? CorpusReader(paths: paths).files) ?? [], key: StateFixtures.key).identity
        let runner = ReplayRunner(options: options, jobs: jobs, model: dryRun ? nil : scripted, planningWorkers: 2,
                                  itemKeys: ItemKeys(key: StateFixtures.key, fileDigests: identity.files.map(\.digest)), stop: stop)
        let tally = runner.run(resume: resume, checkpoint: checkpoint)
        let state = RunState(tally: tally, options: StateOptions(options, jobs: jobs), corpusIdentity: identity, model: .none,
                             timing: Timing(started: Date(timeIntervalSince1970: 0), seconds: 1))
        return (state, tally)
    }

    /// Stopped during its first, second, fourth or seventh model call (the fixtures' corpus takes
    /// more than seven), the run keeps the last boundary with nothing waiting; resumed, it equals
    /// the run never stopped, items included.
    @Test(arguments: [1, 2, 4, 7])
    func aRunStoppedDuringACallResumesToTheSameCounts(call: Int) throws {
        let directory = try TemporaryDirectory(prefix: "stop-call")
        let paths = try StateFixtures.corpus(in: directory)
        let whole = Self.run(paths).state
        let stop = StopRequest()
        let model = StoppingModel(stop: stop, stoppingAt: call)
        let stopped = Self.run(paths, model: model, stop: stop)
        #expect(model.calls == call, "nothing is asked after the call that was stopped")
        // After a call was answered some threads are kept; before, only threads that asked nothing.
        #expect(stopped.tally.end == .stopped(kept: stopped.tally.threadsReplayed > 0))
        if call > 1 { #expect(stopped.tally.end == .stopped(kept: true)) }
        #expect(stopped.tally.threadsReplayed < whole.corpus.threadsReplayed)
        let point = ReplayRunner.ResumePoint(eventsRead: stopped.tally.eventsRead, threadsReplayed: stopped.tally.threadsReplayed)
        let kept = stopped.tally.end == .stopped(kept: true)
        let rest = Self.run(paths, resume: kept ? point : nil).state
        let resumed = kept ? stopped.state.continued(with: rest) : rest
        #expect(StateFixtures.comparable(resumed) == StateFixtures.comparable(whole))
        #expect(resumed.items.count == whole.items.count)
    }

    /// Stopped at a checkpoint (the request raised while it is written), a dry run and a model run
    /// stop at the next thread line and keep exactly that line: resumed, the run never stopped.
    @Test(arguments: [true, false], [1, 3])
    func aRunStoppedBetweenThreadsKeepsThatLine(dryRun: Bool, atCheckpoint: Int) throws {
        let directory = try TemporaryDirectory(prefix: "stop-line")
        let paths = try StateFixtures.corpus(in: directory)
        let whole = Self.run(paths, dryRun: dryRun).state
        let stop = StopRequest()
        var checkpoints: [ReplayTally] = []
        let stopped = Self.run(paths, dryRun: dryRun, stop: stop, every: 4) { partial in
            checkpoints.append(partial)
            if checkpoints.count == atCheckpoint { stop.raise() }
        }
        #expect(stopped.tally.end == .stopped(kept: true))
        #expect(checkpoints.count == atCheckpoint, "no checkpoint after the request")
        // The next thread line after the checkpoint: one more thread replayed than it holds at most.
        #expect(stopped.tally.threadsReplayed >= checkpoints.last!.threadsReplayed)
        #expect(stopped.tally.threadsReplayed <= checkpoints.last!.threadsReplayed + 1)
        let point = ReplayRunner.ResumePoint(eventsRead: stopped.tally.eventsRead, threadsReplayed: stopped.tally.threadsReplayed)
        let resumed = stopped.state.continued(with: Self.run(paths, dryRun: dryRun, resume: point).state)
        #expect(StateFixtures.comparable(resumed) == StateFixtures.comparable(whole))
    }

    /// A request raised after the last thread line, once every call is answered, changes nothing:
    /// the run is whole, and says so.
    @Test func aRequestAfterTheLastAnswerLeavesAWholeRun() throws {
        let directory = try TemporaryDirectory(prefix: "stop-late")
        let paths = try StateFixtures.corpus(in: directory)
        let whole = Self.run(paths).state
        let stop = StopRequest()
        let model = StoppingModel(stop: stop, stoppingAt: .max)
        let run = Self.run(paths, model: model, stop: stop)
        stop.raise()
        #expect(run.tally.end == .finished)
        #expect(StateFixtures.comparable(run.state) == StateFixtures.comparable(whole))
    }
}
