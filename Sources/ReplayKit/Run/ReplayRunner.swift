import Audit
import Foundation
import Engine
import Export
import Flywheel
import Jobs
import Privacy

/// Streams a corpus through the jobs: reader → one thread at a time → model in batches → counts.
///
/// Holds one thread and at most a few batches of requests at a time; every answer is judged
/// as soon as it comes back and only numbers are kept, so memory stays flat and no word
/// outlives its batch.
public final class ReplayRunner {
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
    private var queue: [JobItem] = []
    private var pending: [ThreadSnapshot] = []
    private var asked = 0
    /// Threads that plan a dry run's threads in parallel.
    let planningWorkers: Int

    /// A runner over `options` with `model` (nil for `--dry-run`, which needs only a tokenizer).
    public init(options: ReplayOptions, jobs: [any Job], model: (any LanguageModel)?, tokenizer: any Tokenizer,
                modelUnavailable: String? = nil, tap: AuditTap? = nil, showProgress: Bool = false,
                planningWorkers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.options = options
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

    /// Reads the whole corpus (or up to `--limit` threads) and returns what it counted.
    public func run() -> ReplayTally {
        var tally = ReplayTally()
        let reader: CorpusReader
        do {
            reader = try CorpusReader(paths: options.corpus)
        } catch {
            tally.fatal = .input(error.description)
            return tally
        }
        var assembler = ThreadAssembler()
        var flywheel = options.flywheel ? FlywheelCounter() : nil
        let totalBytes = reader.files.reduce(0) { $0 + ReplayTool.fileSize($1) }
        // What had been read before the current event: a thread ends only when the next record
        // comes, so at the limit that record is read but not replayed, and not counted.
        var readBefore = reader.stats
        reading: while let event = reader.next() {
            switch event {
            case .record(let record, _):
                if let snapshot = assembler.take(record) {
                    process(snapshot)
                    if let limit = options.threadLimit, assembler.completed >= limit {
                        tally.stoppedAtLimit = true
                        break reading
                    }
                }
                flywheel?.add(record)
            case .badLine(let bad):
                if tally.badLineSamples.count < 20 { tally.badLineSamples.append(bad) }
                if options.strict {
                    // The reason may quote a thread id, which is the export's own text: through the id rule.
                    tally.fatal = .input("\(bad.location): \(ReportBuilder.safeReason(bad.reason)) (--strict)")
                    break reading
                }
            case .fileFailed(let error):
                tally.fileErrors.append(error)
            }
            readBefore = reader.stats
            progress.update(threads: assembler.completed, asked: asked, fraction: totalBytes > 0 ? Double(readBefore.compressedBytes) / Double(totalBytes) : nil)
        }
        if !tally.stoppedAtLimit, tally.fatal == nil, let snapshot = assembler.finish() { process(snapshot) }
        planPending()
        flush()
        progress.finish()
        tally.corpus = tally.stoppedAtLimit ? readBefore : reader.stats
        tally.threadsReplayed = assembler.completed
        tally.ledgers = ledgers
        tally.sizing = sizing
        tally.flywheel = flywheel
        return tally
    }

    /// Plans a thread, or (in a dry run) sets it aside to be planned with others in parallel.
    private func process(_ thread: ThreadSnapshot) {
        guard model == nil, planningWorkers > 1 else {
            absorb(Self.plan(thread, context))
            if let model, queue.count >= model.info.batchSize * 2 { flush() }
            return
        }
        pending.append(thread)
        if pending.count >= 64 { planPending() }
    }

    /// Plans the set-aside threads on `planningWorkers` threads and counts them in reading order.
    ///
    /// A dry run is bound by the tokenizer, which each worker runs on its own threads' words;
    /// merging in order keeps the counts identical to planning one thread at a time.
    private func planPending() {
        guard !pending.isEmpty else { return }
        let threads = pending
        let context = self.context
        let workers = min(planningWorkers, threads.count)
        let results = PlannedResults(count: threads.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: threads.count, by: workers) {
                results.set(index, Self.plan(threads[index], context))
            }
        }
        for planned in results.inOrder() { absorb(planned) }
        pending.removeAll(keepingCapacity: true)
    }

    /// Adds a planned thread's counts and queues its requests.
    private func absorb(_ planned: PlannedThread) {
        for (kind, ledger) in planned.ledgers { ledgers[kind, default: JobLedger()].merge(ledger) }
        for (kind, sizes) in planned.sizing { sizing[kind, default: PromptSizing()].merge(sizes) }
        queue += planned.queued
    }

    /// What planning needs, shareable across planning threads.
    struct PlanningContext: Sendable {
        let options: ReplayOptions
        let jobs: [any Job]
        let tokenizer: any Tokenizer
        let tap: AuditTap?
        let modelUnavailable: Bool
        let dryRun: Bool
    }

    var context: PlanningContext {
        PlanningContext(options: options, jobs: jobs, tokenizer: tokenizer, tap: tap,
                        modelUnavailable: modelUnavailable != nil, dryRun: model == nil)
    }

    /// One thread through every job: its counts, its prompt sizes and the requests for the model.
    static func plan(_ thread: ThreadSnapshot, _ context: PlanningContext) -> PlannedThread {
        var planned = PlannedThread()
        let snapshot = context.tap.map { CanaryPlanting.planted(thread, tap: $0) } ?? thread
        let device = context.options.device
        for job in context.jobs {
            var ledger = JobLedger()
            var sizes = PromptSizing()
            let items = job.plan(snapshot, tokenizer: context.tokenizer, ledger: &ledger)
            for item in items {
                guard let request = item.request else {
                    ledger.add(job.unasked(item, reason: item.earlyFallback ?? .invalidOutput))
                    continue
                }
                if context.modelUnavailable {
                    ledger.add(job.unasked(item, reason: .modelUnavailable))
                    continue
                }
                let promptTokens = context.tokenizer.promptTokenCount(for: request)
                let prefill = device.estimatedMilliseconds(promptTokens: promptTokens, outputTokens: 0)
                let overContext = promptTokens + request.maxOutputTokens > request.contextLimit
                sizes.add(promptTokens: promptTokens, devicePrefillMilliseconds: prefill,
                          overContext: overContext, overBudget: prefill > job.budgetMilliseconds)
                if context.dryRun {
                    // A dry run judges only what is certain without the model.
                    let certain: FallbackReason? = overContext ? .contextExceeded : prefill > job.budgetMilliseconds ? .timeBudget : nil
                    var result = job.unasked(item, reason: certain)
                    result.promptTokens = promptTokens
                    ledger.add(result)
                } else {
                    planned.queued.append(item)
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
        for (item, outcome) in zip(queue, outcomes) {
            if let tap, case .success(let output) = outcome.output { tap.record(output: output, isLabel: item.job == .route) }
            let job = jobs.first { $0.kind == item.job }!
            ledgers[item.job]!.add(job.evaluate(item, outcome: outcome, device: options.device))
        }
        queue.removeAll(keepingCapacity: true)
    }
}

/// One thread's counts, prompt sizes and model requests, before they are added to the run's.
struct PlannedThread: Sendable {
    var ledgers: [JobKind: JobLedger] = [:]
    var sizing: [JobKind: PromptSizing] = [:]
    var queued: [JobItem] = []
}

/// Planned threads written by planning workers, each at its own index, read back in order.
final class PlannedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [PlannedThread?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ planned: PlannedThread) {
        lock.lock()
        slots[index] = planned
        lock.unlock()
    }

    func inOrder() -> [PlannedThread] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}

/// Prompt sizes of a job's requests, known before the model runs (also in a dry run).
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

/// Everything a run counted, for the report.
public struct ReplayTally: Sendable {
    /// Why the run stopped early with an error, if it did.
    public enum Fatal: Sendable, Equatable {
        case input(String)
    }
    public var fatal: Fatal? = nil
    public var corpus = CorpusStats()
    public var fileErrors: [ExportError] = []
    public var badLineSamples: [BadLine] = []
    public var threadsReplayed = 0
    public var stoppedAtLimit = false
    public var ledgers: [JobKind: JobLedger] = [:]
    public var sizing: [JobKind: PromptSizing] = [:]
    /// The flywheel metrics of the same records, when asked for.
    public var flywheel: FlywheelCounter? = nil
}
