import Confinement
import Foundation
import Engine
import Export
import Flywheel
import Jobs
import Privacy

/// A run: the corpus through its stages, source → planner → model → counts.
///
/// `ThreadSource` reads the corpus (this shard's threads, from a resume point, to the limit)
/// and counts what it read; `Planner` takes each thread through every job and decides every
/// fallback known before asking; `ModelStage` asks the model in calls and judges each answer;
/// this type joins them and keeps what they counted: each job's ledger, prompt sizes and every
/// item's outcome, as a `ReplayTally`. Under `replay audit` the model is an `AuditedModel` and
/// the planner plants the canary; no stage has code of its own for the audit.
///
/// Holds one thread and at most one call's requests at a time; every answer is judged as soon
/// as it comes back and only numbers are kept, so memory stays flat (but for the item outcomes,
/// about 150 bytes each) and no word outlives its batch.
public final class ReplayRunner {
    /// Requests sent to the model in one call, for a model answering `batchSize` at a time.
    ///
    /// Each call ends with a tail where fewer and fewer sequences generate, so the share of the
    /// tail falls as a call grows: 100 chips of the sample took 42.6–42.9 s in calls of 16 (twice
    /// the batch, as before), 41.7 s in calls of 32 and 38.7–39.4 s in calls of 64. Answers do not
    /// depend on the call (the engine is batch-independent); only the words of one call's
    /// requests are held at once.
    public static func requestsPerCall(batchSize: Int) -> Int { batchSize * 8 }

    let options: ReplayOptions
    let planner: Planner
    /// The model stage; nil for a dry run or when the model could not be loaded.
    let modelStage: ModelStage?
    let progress: ProgressLine
    /// Threads that plan a dry run's threads in parallel.
    let planningWorkers: Int
    /// Raised when the run must stop before its end (`StopSignals`); nil when nothing can stop it.
    let stop: StopRequest?
    /// The files the run's identity was taken over and the version of each it hashed: the source
    /// reads those files and fails one that is not that version (`ExpectedCorpus`). Nil: the
    /// corpus paths are resolved when the read begins and read as they are then.
    var expectedCorpus: ExpectedCorpus? = nil

    private(set) var ledgers: [JobKind: JobLedger] = [:]
    private(set) var sizing: [JobKind: PromptSizing] = [:]
    /// Every item's outcome so far, in the order they were judged.
    private(set) var outcomes: [ItemOutcome] = []
    private var pending: [PlanningInput] = []
    /// Each thread's answers, held until its last one to be judged on the phone's clock.
    private var phoneQueue: PhoneQueueStage
    /// The plans of the pieces of the thread being read, held until its last piece is planned.
    private var heldPieces: PlannedThread? = nil
    /// Messages of a thread read before a dry run starts planning it in pieces while the rest is
    /// read (nil: whole threads only). Pieces need a second core and a planner without a canary
    /// (planting it again in each piece would count its texts again).
    var firstPiece: Int? = 2 * Planner.rangeMessages
    /// How much of each screen the reader builds: what the jobs and the canary need.
    private let screens: ScreenDetail
    /// A dry run's planning, overlapping the reader: twice the workers' batches out at most.
    private lazy var planning = PlanningPipeline(maxInFlight: planningWorkers * 2)

    /// A runner over `options` with `model` (nil for `--dry-run`, which plans only). Every size is
    /// counted in the phone's tokens (`PhoneTokenizers` of `options.profiles`), with or without a model.
    ///
    /// `modelUnavailable` says why the model could not be loaded: every eligible place then falls
    /// back. `tap` (under `replay audit`) plants the canary and watches the model. `itemKeys`
    /// names the items (`ItemKeys`, under the run key); nil keys them under a key of zeros with
    /// files named by their place, which only tests that ignore the keys may use. `screens`
    /// overrides what of each screen is read (tests: a run reading every node counts the same).
    public init(options: ReplayOptions, jobs: [any Job], model: (any LanguageModel)?,
                modelUnavailable: String? = nil, tap: AuditTap? = nil, showProgress: Bool = false,
                planningWorkers: Int = AvailableProcessors.count, itemKeys: ItemKeys? = nil,
                stop: StopRequest? = nil, screens: ScreenDetail? = nil) {
        self.options = options
        self.stop = stop
        self.planningWorkers = max(1, planningWorkers)
        self.progress = ProgressLine(enabled: showProgress)
        // Fallbacks injected by topic need each place's topic, read at planning only then.
        let jobs = model != nil && options.injection?.followsTopics == true ? jobs.map { $0.labellingTopics() } : jobs
        let watched: (any LanguageModel)? = model.map { model in tap.map { AuditedModel(model, tap: $0) } ?? model }
        modelStage = watched.map { ModelStage(model: $0, jobs: jobs, device: options.device, profiles: options.profiles, stop: stop,
                                              injection: options.injection) }
        self.screens = screens ?? ThreadSource.screenDetail(for: jobs, plantsCanary: tap != nil)
        var planner = Planner(options: options, jobs: jobs, phoneTokens: PhoneTokenizers(options.profiles), canary: tap,
                              modelUnavailable: modelUnavailable != nil, dryRun: model == nil,
                              itemKeys: itemKeys ?? .unkeyed(fileCount: options.corpus.count))
        planner.workers = self.planningWorkers
        self.planner = planner
        for job in jobs {
            ledgers[job.kind] = JobLedger()
            sizing[job.kind] = PromptSizing()
        }
        phoneQueue = PhoneQueueStage(queue: PhoneQueue(model: options.profiles.queue,
                                                       budgets: Dictionary(jobs.map { ($0.kind, $0.budgetMilliseconds) }) { a, _ in a }))
    }

    /// Where a resumed run starts: after this many reader events (a checkpoint's), with this many
    /// threads already replayed (for `--limit`).
    public struct ResumePoint: Sendable, Equatable {
        public var eventsRead: Int
        public var threadsReplayed: Int
    }

    /// Reads the corpus (its shard of it, from `resume` on, up to `--limit` threads) and returns
    /// what it counted.
    ///
    /// `checkpoint` is called every `options.checkpointEvery` replayed threads, at the next thread
    /// line (a thread boundary in reading order), with everything counted before that line: the
    /// model's answers to every thread before it are in, and `eventsRead` says where a resumed run
    /// goes on. Reading order is deterministic, so a resumed run that reads and discards that many
    /// events counts the rest exactly as this run would have.
    ///
    /// When `stop` is raised the run ends early (`ReplayTally.end`): the read stops at the next
    /// thread line, a model call in flight is dropped whole, and the tally is the counts at the
    /// last thread boundary before which every request had been answered, exactly what a
    /// checkpoint there would have held; a resumed run from it counts the rest as this run would have.
    public func run(resume: ResumePoint? = nil, checkpoint: (ReplayTally) -> Void = { _ in }) -> ReplayTally {
        let source = ThreadSource(options: options, expected: expectedCorpus, screens: screens)
        var replayedAtCheckpoint = resume?.threadsReplayed ?? 0
        /// The counts at the last boundary with nothing waiting for the model (kept on a stop),
        /// the items by their number: every outcome after them is only appended.
        var kept: (tally: ReplayTally, items: Int)? = nil
        func keep(_ before: ReplayTally) {
            // The place this process started from is no place to keep.
            guard before.threadsReplayed > 0 else { return }
            var tally = before
            tally.ledgers = ledgers
            tally.sizing = sizing
            kept = (tally, outcomes.count)
        }
        let read = source.read(
            resume: resume,
            thread: { process($0); return true },
            boundary: { before, replayed in
                if stop?.isRaised == true {
                    // A dry run's planning catches up with this line; a model run keeps this line
                    // only if nothing waits for the model and no call was dropped.
                    planPending()
                    if modelStage.map({ $0.isEmpty && !$0.stopped }) ?? true { keep(before()) }
                    return false
                }
                if stop != nil, let modelStage, modelStage.isEmpty { keep(before()) }
                guard let every = options.checkpointEvery, replayed - replayedAtCheckpoint >= every else { return true }
                planPending()
                flush()
                if modelStage?.stopped == true { return false }
                checkpoint(counted(before()))
                if stop != nil { keep(before()) }
                replayedAtCheckpoint = replayed
                return true
            },
            progress: { threads, fraction in progress.update(threads: threads, asked: modelStage?.asked ?? 0, fraction: fraction) },
            pieces: piecesWanted.map { first in (first, { [self] piece in
                // Planned at once, on the core the reader leaves free.
                pending.append(piece)
                submitPending()
            }) })
        planPending()
        // Pieces of a thread the read stopped inside: it is not replayed, so neither are they.
        heldPieces = nil
        flush()
        progress.finish()
        guard read.stoppedOnRequest || modelStage?.stopped == true else { return counted(read) }
        // Stopped: what was kept, else nothing (the place this process started from).
        guard let kept else {
            var nothing = ReplayTally()
            nothing.shard = options.shard
            nothing.end = .stopped(kept: false)
            return nothing
        }
        var stopped = kept.tally
        stopped.items = Array(outcomes.prefix(kept.items))
        stopped.end = .stopped(kept: true)
        return stopped
    }

    /// The source's counts with the later stages' added.
    private func counted(_ source: ReplayTally) -> ReplayTally {
        var tally = source
        tally.ledgers = ledgers
        tally.sizing = sizing
        tally.items = outcomes
        return tally
    }

    /// Plans a thread, or (in a dry run) sets it aside to be planned with others in the background.
    private func process(_ thread: PlanningInput) {
        guard modelStage == nil, planningWorkers > 1 else {
            absorb(planner.plan(thread))
            return
        }
        pending.append(thread)
        if pending.count >= 64 { submitPending() }
    }

    /// Sends the set-aside threads to the planning workers, and counts every batch already planned.
    ///
    /// A dry run is bound by the tokenizer, which each worker runs on its own threads' words,
    /// while this thread goes on reading; batches are counted in reading order, which keeps the
    /// counts identical to planning one thread at a time.
    private func submitPending() {
        guard !pending.isEmpty else { return }
        let planner = self.planner
        planning.submit(pending) { planner.plan($0) }
        pending.removeAll(keepingCapacity: true)
        planning.take { batch in batch.forEach(absorb) }
    }

    /// Plans every set-aside thread and counts them all, in reading order (before a checkpoint,
    /// and at the end).
    private func planPending() {
        submitPending()
        planning.take(all: true) { batch in batch.forEach(absorb) }
    }

    /// Messages before a thread is planned in pieces, when this run does (`firstPiece`).
    private var piecesWanted: Int? {
        modelStage == nil && planningWorkers > 1 && planner.canary == nil ? firstPiece : nil
    }

    /// Adds a planned thread's counts and queues its requests (asking the model when a call's worth
    /// waits); a piece's plan is held until the thread's last piece comes.
    private func absorb(_ next: PlannedThread) {
        if next.piece {
            if heldPieces == nil { heldPieces = next } else { heldPieces?.append(next) }
            return
        }
        var planned = next
        if var held = heldPieces {
            held.append(next)
            planned = held
            heldPieces = nil
        }
        for (kind, ledger) in planned.ledgers { ledgers[kind, default: JobLedger()].merge(ledger) }
        for (kind, sizes) in planned.sizing { sizing[kind, default: PromptSizing()].merge(sizes) }
        outcomes += planned.outcomes
        guard let modelStage, !planned.queued.isEmpty else { return }
        phoneQueue.expect(thread: planned.thread, asked: planned.queued.count, prewarms: planned.prewarms)
        if modelStage.enqueue(planned.queued, at: planned.queuedPlaces) { flush() }
    }

    /// Asks the model about the queued requests and counts the answers.
    private func flush() {
        modelStage?.flush { result, outcome in
            for (judged, outcome) in phoneQueue.take(result, outcome) {
                ledgers[judged.job, default: JobLedger()].add(judged)
                outcomes.append(outcome)
            }
        }
    }
}

/// A job's `prompt_sizes` in a state.
public struct PromptSizing: Sendable, Equatable, Codable {
    public var promptTokens = LogHistogram()
    public var devicePrefillMilliseconds = LogHistogram()
    public var maxPromptTokens = 0
    /// Requests whose prompt plus output allowance exceed the session ceiling.
    public var overContext = 0
    /// Requests whose estimated device prefill alone exceeds the job's budget.
    public var overBudgetBeforeOutput = 0

    enum CodingKeys: String, CodingKey {
        case promptTokens = "prompt_tokens"
        case devicePrefillMilliseconds = "device_prefill_ms"
        case maxPromptTokens = "max_prompt_tokens"
        case overContext = "over_context"
        case overBudgetBeforeOutput = "over_budget_before_output"
    }

    /// Adds another set of sizes of the same job.
    mutating func merge(_ other: PromptSizing) {
        promptTokens.merge(other.promptTokens)
        devicePrefillMilliseconds.merge(other.devicePrefillMilliseconds)
        maxPromptTokens = max(maxPromptTokens, other.maxPromptTokens)
        overContext += other.overContext
        overBudgetBeforeOutput += other.overBudgetBeforeOutput
    }

    mutating func add(promptTokens tokens: Int, devicePrefillMilliseconds ms: Double, overContext over: Bool, overBudget: Bool) {
        promptTokens.add(Double(tokens))
        devicePrefillMilliseconds.add(ms)
        maxPromptTokens = max(maxPromptTokens, tokens)
        if over { overContext += 1 }
        if overBudget { overBudgetBeforeOutput += 1 }
    }
}

/// Everything a run counted, for the report: of its shard, and from where it resumed.
public struct ReplayTally: Sendable {
    /// How a run ended.
    public enum End: Sendable, Equatable {
        /// It read to its end, its limit or a line that stops it: the counts are the run's.
        case finished
        /// It was asked to stop (`StopRequest`). With `kept`, the counts are those at the last
        /// thread boundary before which every request was answered, as a checkpoint there holds
        /// them; without, nothing since this process started is kept.
        case stopped(kept: Bool)
    }

    /// Why the run stopped early with an error, if it did.
    public enum Fatal: Sendable, Equatable {
        case input(String)
    }
    public var fatal: Fatal? = nil
    /// Where the fatal bad line was (the file's index in the corpus, its line), when it was one.
    public var fatalPlace: (file: Int, line: Int)? = nil
    /// Under `--strict`, the run stopped at another shard's bad line (which that shard reports).
    public var stoppedByAnotherShard = false
    public var corpus = CorpusStats()
    public var fileErrors: [ExportError] = []
    /// The index in the corpus's file list of each of `fileErrors`' files.
    public var fileErrorFiles: [Int] = []
    public var badLineSamples: [BadLine] = []
    /// The index in the corpus's file list of each of `badLineSamples`' files.
    public var badLineFiles: [Int] = []
    public var threadsReplayed = 0
    /// Thread lines read, this shard's and other shards' (a file split reads only its own).
    public var threadsSeen = 0
    /// Reader events handed out (records, bad lines, failed files): a resumed run skips as many.
    public var eventsRead = 0
    /// The part of the corpus this run replayed.
    public var shard = ShardSpec.whole
    public var stoppedAtLimit = false
    /// The read stopped at a thread line because the run was asked to stop.
    public var stoppedOnRequest = false
    /// How the run ended.
    public var end = End.finished
    public var ledgers: [JobKind: JobLedger] = [:]
    public var sizing: [JobKind: PromptSizing] = [:]
    /// The flywheel metrics of the same records, when asked for.
    public var flywheel: FlywheelCounter? = nil
    /// Every item's outcome, in the order judged.
    public var items: [ItemOutcome] = []
}

extension ReplayTally {
    /// Nothing counted yet (the auditor encodes an empty report to read its keys).
    package static var empty: ReplayTally { ReplayTally() }
}

extension PromptSizing {
    /// No prompt sized yet.
    package static var empty: PromptSizing { PromptSizing() }
}
