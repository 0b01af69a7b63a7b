import Audit
import Foundation
import Engine
import Export
import Flywheel
import Jobs
import Privacy

/// Streams a corpus through the jobs: reader → one thread at a time → model in batches → counts.
///
/// Holds one thread and at most one call's requests at a time; every answer is judged
/// as soon as it comes back and only numbers are kept, so memory stays flat and no word
/// outlives its batch.
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
    let jobs: [any Job]
    /// The model; nil for a dry run or when it could not be loaded.
    let model: (any LanguageModel)?
    /// Why the model could not be loaded, when it could not: every eligible place falls back.
    let modelUnavailable: String?
    /// Under `replay audit`: plants the canary, counts prompts and fingerprints outputs.
    let tap: AuditTap?
    let tokenizer: any Tokenizer
    let progress: ProgressLine

    private(set) var ledgers: [JobKind: JobLedger] = [:]
    private(set) var sizing: [JobKind: PromptSizing] = [:]
    /// Every item's outcome so far, in the order they were judged.
    private(set) var outcomes: [ItemOutcome] = []
    /// The keyed hashes that name items.
    let itemKeys: ItemKeys?
    private var queue: [JobItem] = []
    /// Where each queued item is, for its outcome.
    private var queuedPlaces: [ItemPlace] = []
    private var pending: [PlanningInput] = []
    private var asked = 0
    /// Threads that plan a dry run's threads in parallel.
    let planningWorkers: Int
    /// A dry run's planning, overlapping the reader: twice the workers' batches out at most.
    private lazy var planning = PlanningPipeline(maxInFlight: planningWorkers * 2)

    /// A runner over `options` with `model` (nil for `--dry-run`, which needs only a tokenizer).
    ///
    /// `itemKeys` names the items (`ItemKeys`, under the run key); nil keys them under a key of
    /// zeros with files named by their place, which only tests that ignore the keys may use.
    public init(options: ReplayOptions, jobs: [any Job], model: (any LanguageModel)?, tokenizer: any Tokenizer,
                modelUnavailable: String? = nil, tap: AuditTap? = nil, showProgress: Bool = false,
                planningWorkers: Int = ProcessInfo.processInfo.activeProcessorCount, itemKeys: ItemKeys? = nil) {
        self.options = options
        self.itemKeys = itemKeys
        self.planningWorkers = max(1, planningWorkers)
        self.tap = tap
        self.modelUnavailable = modelUnavailable
        self.jobs = jobs
        self.model = model
        self.tokenizer = tokenizer
        self.progress = ProgressLine(enabled: showProgress)
        for job in jobs {
            ledgers[job.kind] = JobLedger()
            sizing[job.kind] = PromptSizing()
        }
    }

    /// Where a resumed run starts: after this many reader events (a checkpoint's), with this many
    /// threads already replayed (for `--limit`).
    public struct ResumePoint: Sendable, Equatable {
        public var eventsRead: Int
        public var threadsReplayed: Int
        public init(eventsRead: Int, threadsReplayed: Int) {
            self.eventsRead = eventsRead
            self.threadsReplayed = threadsReplayed
        }
    }

    /// Reads the corpus (its shard of it, from `resume` on, up to `--limit` threads) and returns
    /// what it counted.
    ///
    /// `checkpoint` is called every `options.checkpointEvery` replayed threads, at the next thread
    /// line (a thread boundary in reading order), with everything counted before that line: the
    /// model's answers to every thread before it are in, and `eventsRead` says where a resumed run
    /// goes on. Reading order is deterministic, so a resumed run that reads and discards that many
    /// events counts the rest exactly as this run would have.
    public func run(resume: ResumePoint? = nil, checkpoint: (ReplayTally) -> Void = { _ in }) -> ReplayTally {
        var tally = ReplayTally()
        let shard = options.shard
        tally.shard = shard
        let allFiles: [String]
        do {
            allFiles = try CorpusReader(paths: options.corpus).files
        } catch {
            tally.fatal = .input(error.description)
            return tally
        }
        // A file split reads only its own files; each keeps its index in the whole list.
        let fileIndices = shard.by == .file ? allFiles.indices.filter { shard.owner(ofFile: $0) == shard.index } : Array(allFiles.indices)
        let reader: CorpusReader
        do {
            reader = try CorpusReader(paths: fileIndices.isEmpty ? [] : fileIndices.map { allFiles[$0] })
        } catch {
            if fileIndices.isEmpty { return tally }   // more shards than files: this one has none
            tally.fatal = .input(error.description)
            return tally
        }
        /// The index in the whole corpus of the file the reader is in.
        func currentFile() -> Int { fileIndices[max(0, min(fileIndices.count - 1, reader.stats.files - 1))] }

        var accounting = CorpusAccounting(shard: shard)
        var eventsRead = 0
        if let resume {
            while eventsRead < resume.eventsRead, reader.next() != nil { eventsRead += 1 }
            if eventsRead < resume.eventsRead {
                tally.fatal = .input("the corpus ends before the checkpoint's place (\(resume.eventsRead) events): it is not the corpus the checkpoint was made over")
                return tally
            }
        }
        accounting.begin(at: reader.stats)
        let segmentStart = eventsRead
        let replayedBefore = resume?.threadsReplayed ?? 0
        var replayedAtCheckpoint = replayedBefore
        var assembler = ThreadAssembler()
        var flywheel = options.flywheel ? FlywheelCounter(listed: options.labels) : nil
        var owned = false
        /// The corpus file the open thread is in (a thread never spans files).
        var threadFile = 0
        var stoppedEarly = false
        let totalBytes = reader.files.reduce(0) { $0 + ReplayTool.fileSize($1) }
        // What had been read before the current event: a thread ends only when the next record
        // comes, so at the limit that record is read but not replayed, and not counted.
        var readBefore = reader.stats

        /// Processes a completed thread; true when it was the last the limit allows.
        func complete(_ snapshot: ThreadSnapshot) -> Bool {
            process(PlanningInput(thread: snapshot, file: threadFile))
            if let limit = options.threadLimit, replayedBefore + assembler.completed >= limit {
                tally.stoppedAtLimit = true
                return true
            }
            return false
        }

        /// The tally so far, everything before the current event counted.
        func snapshot(reader stats: CorpusStats) -> ReplayTally {
            var copy = tally
            copy.corpus = accounting.stats(reader: stats)
            copy.threadsReplayed = assembler.completed
            copy.eventsRead = eventsRead - segmentStart
            copy.ledgers = ledgers
            copy.sizing = sizing
            copy.flywheel = flywheel
            copy.items = outcomes
            return copy
        }

        reading: while let event = reader.next() {
            let owner = accounting.owner(of: event, filesOpened: reader.stats.files)
            switch event {
            case .record(let record, _):
                switch record {
                case .thread(let thread):
                    // The open thread ends here, whoever's the next one is.
                    if let done = assembler.finish(), complete(done) { break reading }
                    if let every = options.checkpointEvery, replayedBefore + assembler.completed - replayedAtCheckpoint >= every {
                        planPending()
                        flush()
                        checkpoint(snapshot(reader: readBefore))
                        replayedAtCheckpoint = replayedBefore + assembler.completed
                    }
                    tally.threadsSeen += 1
                    owned = owner == shard.index
                    if owned {
                        threadFile = currentFile()
                        _ = assembler.take(.thread(thread))
                        flywheel?.add(record)
                    }
                case .header:
                    if let done = assembler.take(record), complete(done) { break reading }
                    owned = false
                case .message:
                    if owned {
                        _ = assembler.take(record)
                        flywheel?.add(record)
                    }
                }
            case .badLine(let bad):
                if owner == shard.index, tally.badLineSamples.count < 20 {
                    tally.badLineSamples.append(bad)
                    tally.badLineFiles.append(currentFile())
                }
                if options.strict {
                    // Every shard stops at the same line; the one it belongs to reports it.
                    // The reason may quote a thread id, which is the export's own text: through the id rule.
                    if owner == shard.index {
                        tally.fatal = .input("\(bad.location): \(ReportBuilder.safeReason(bad.reason)) (--strict)")
                        tally.fatalPlace = (currentFile(), bad.location.line)
                    } else {
                        tally.stoppedByAnotherShard = true
                    }
                    accounting.count(event, owner: owner)
                    eventsRead += 1
                    stoppedEarly = true
                    break reading
                }
            case .fileFailed(let error):
                if accounting.countsFiles {
                    tally.fileErrors.append(error)
                    tally.fileErrorFiles.append(currentFile())
                }
            }
            accounting.count(event, owner: owner)
            eventsRead += 1
            readBefore = reader.stats
            progress.update(threads: replayedBefore + assembler.completed, asked: asked,
                            fraction: totalBytes > 0 ? Double(readBefore.compressedBytes) / Double(totalBytes) : nil)
        }
        if !tally.stoppedAtLimit, !stoppedEarly, let done = assembler.finish() { process(PlanningInput(thread: done, file: threadFile)) }
        planPending()
        flush()
        progress.finish()
        let final = snapshot(reader: tally.stoppedAtLimit ? readBefore : reader.stats)
        return final
    }

    /// Plans a thread, or (in a dry run) sets it aside to be planned with others in the background.
    private func process(_ thread: PlanningInput) {
        guard model == nil, planningWorkers > 1 else {
            absorb(Self.plan(thread, context))
            if let model, queue.count >= Self.requestsPerCall(batchSize: model.info.batchSize) { flush() }
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
        let context = self.context
        planning.submit(pending) { Self.plan($0, context) }
        pending.removeAll(keepingCapacity: true)
        planning.take { batch in batch.forEach(absorb) }
    }

    /// Plans every set-aside thread and counts them all, in reading order (before a checkpoint,
    /// and at the end).
    private func planPending() {
        submitPending()
        planning.take(all: true) { batch in batch.forEach(absorb) }
    }

    /// Adds a planned thread's counts and queues its requests.
    private func absorb(_ planned: PlannedThread) {
        for (kind, ledger) in planned.ledgers { ledgers[kind, default: JobLedger()].merge(ledger) }
        for (kind, sizes) in planned.sizing { sizing[kind, default: PromptSizing()].merge(sizes) }
        outcomes += planned.outcomes
        queue += planned.queued
        queuedPlaces += planned.queuedPlaces
    }

    /// What planning needs, shareable across planning threads.
    struct PlanningContext: Sendable {
        let options: ReplayOptions
        let jobs: [any Job]
        let tokenizer: any Tokenizer
        let tap: AuditTap?
        let modelUnavailable: Bool
        let dryRun: Bool
        let itemKeys: ItemKeys
    }

    var context: PlanningContext {
        PlanningContext(options: options, jobs: jobs, tokenizer: tokenizer, tap: tap,
                        modelUnavailable: modelUnavailable != nil, dryRun: model == nil,
                        itemKeys: itemKeys ?? ItemKeys(key: RunKey(bytes: [UInt8](repeating: 0, count: RunKey.length))!,
                                                       fileDigests: options.corpus.map { _ in nil }))
    }

    /// One thread through every job: its counts, its prompt sizes, its items' outcomes known
    /// before asking, and the requests for the model.
    static func plan(_ input: PlanningInput, _ context: PlanningContext) -> PlannedThread {
        var planned = PlannedThread()
        let thread = input.thread
        let snapshot = context.tap.map { CanaryPlanting.planted(thread, tap: $0) } ?? thread
        let threadHash = context.itemKeys.thread(file: input.file, thread: thread.thread.id)
        let labels = context.options.labels
        func place(_ item: JobItem) -> ItemPlace {
            ItemPlace(key: context.itemKeys.key(file: input.file, thread: thread.thread.id, message: item.attribution.message, job: item.job),
                      thread: threadHash, build: ReportLabel(build: item.attribution.build, listed: labels).text,
                      model: ReportLabel(model: item.attribution.model, listed: labels).text)
        }
        func add(_ result: ItemResult, at item: JobItem, to ledger: inout JobLedger) {
            ledger.add(result)
            planned.outcomes.append(place(item).outcome(of: result))
        }
        let device = context.options.device
        for job in context.jobs {
            var ledger = JobLedger()
            var sizes = PromptSizing()
            let items = job.plan(snapshot, tokenizer: context.tokenizer, ledger: &ledger)
            for item in items {
                guard let request = item.request else {
                    add(job.unasked(item, reason: item.earlyFallback ?? .invalidOutput), at: item, to: &ledger)
                    continue
                }
                if context.modelUnavailable {
                    add(job.unasked(item, reason: .modelUnavailable), at: item, to: &ledger)
                    continue
                }
                // Planning counted most requests from words it had counted already.
                let promptTokens = item.promptTokens ?? context.tokenizer.promptTokenCount(for: request)
                let prefill = device.estimatedMilliseconds(promptTokens: promptTokens, outputTokens: 0)
                let overContext = promptTokens + request.maxOutputTokens > request.contextLimit
                sizes.add(promptTokens: promptTokens, devicePrefillMilliseconds: prefill,
                          overContext: overContext, overBudget: prefill > job.budgetMilliseconds)
                if context.dryRun {
                    // A dry run judges only what is certain without the model.
                    let certain: FallbackReason? = overContext ? .contextExceeded : prefill > job.budgetMilliseconds ? .timeBudget : nil
                    var result = job.unasked(item, reason: certain)
                    result.promptTokens = promptTokens
                    add(result, at: item, to: &ledger)
                } else {
                    planned.queued.append(item)
                    planned.queuedPlaces.append(place(item))
                }
            }
            planned.ledgers[job.kind] = ledger
            planned.sizing[job.kind] = sizes
        }
        return planned
    }

    /// Sends the queued requests to the model and counts the answers.
    private func flush() {
        guard let model, !queue.isEmpty else { return }
        let requests = queue.map { $0.request! }
        if let tap { requests.forEach { tap.notePrompt($0.prompt) } }
        let outcomes = model.respond(to: requests)
        asked += queue.count
        for ((item, place), outcome) in zip(zip(queue, queuedPlaces), outcomes) {
            if let tap, case .success(let output) = outcome.output { tap.record(output: output, isLabel: item.job == .route) }
            let job = jobs.first { $0.kind == item.job }!
            let result = job.evaluate(item, outcome: outcome, device: options.device)
            ledgers[item.job]!.add(result)
            self.outcomes.append(place.outcome(of: result))
        }
        queue.removeAll(keepingCapacity: true)
        queuedPlaces.removeAll(keepingCapacity: true)
    }
}

/// One thread's counts, prompt sizes, outcomes and model requests, before they are added to the run's.
struct PlannedThread: Sendable {
    var ledgers: [JobKind: JobLedger] = [:]
    var sizing: [JobKind: PromptSizing] = [:]
    /// The outcomes of items decided without the model.
    var outcomes: [ItemOutcome] = []
    var queued: [JobItem] = []
    /// Where each of `queued` is.
    var queuedPlaces: [ItemPlace] = []
}

/// A thread to plan and the corpus file it is in (by its index in the whole corpus).
struct PlanningInput: Sendable {
    var thread: ThreadSnapshot
    var file: Int
}

/// An item's key, thread and slices, which its outcome carries.
struct ItemPlace: Sendable {
    var key: UInt64
    var thread: UInt64
    var build: String
    var model: String

    func outcome(of result: ItemResult) -> ItemOutcome {
        ItemOutcome(result, key: key, thread: thread, build: build, model: model)
    }
}

public struct PromptSizing: Sendable, Equatable {
    public var promptTokens = LogHistogram()
    public var devicePrefillMilliseconds = LogHistogram()
    public var maxPromptTokens = 0
    /// Requests whose prompt plus output allowance exceed the session ceiling.
    public var overContext = 0
    /// Requests whose estimated device prefill alone exceeds the job's budget.
    public var overBudgetBeforeOutput = 0

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
    public var ledgers: [JobKind: JobLedger] = [:]
    public var sizing: [JobKind: PromptSizing] = [:]
    /// The flywheel metrics of the same records, when asked for.
    public var flywheel: FlywheelCounter? = nil
    /// Every item's outcome, in the order judged.
    public var items: [ItemOutcome] = []
}
