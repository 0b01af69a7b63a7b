import Audit
import Engine
import Export
import Flywheel
import Jobs

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
    private var asked = 0

    /// A runner over `options` with `model` (nil for `--dry-run`, which needs only a tokenizer).
    public init(options: ReplayOptions, jobs: [any Job], model: (any LanguageModel)?, tokenizer: any Tokenizer,
                modelUnavailable: String? = nil, tap: AuditTap? = nil, showProgress: Bool = false) {
        self.options = options
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
        reading: while let event = reader.next() {
            switch event {
            case .record(let record, _):
                flywheel?.add(record)
                if let snapshot = assembler.take(record) {
                    process(snapshot)
                    if let limit = options.threadLimit, assembler.completed >= limit {
                        tally.stoppedAtLimit = true
                        break reading
                    }
                }
            case .badLine(let bad):
                if tally.badLineSamples.count < 20 { tally.badLineSamples.append(bad) }
                if options.strict {
                    tally.fatal = .input("\(bad) (--strict)")
                    break reading
                }
            case .fileFailed(let error):
                tally.fileErrors.append(error)
            }
            progress.update(threads: assembler.completed, asked: asked, fraction: totalBytes > 0 ? Double(reader.stats.compressedBytes) / Double(totalBytes) : nil)
        }
        if !tally.stoppedAtLimit, tally.fatal == nil, let snapshot = assembler.finish() { process(snapshot) }
        flush()
        progress.finish()
        tally.corpus = reader.stats
        tally.threadsReplayed = assembler.completed
        tally.ledgers = ledgers
        tally.sizing = sizing
        tally.flywheel = flywheel
        return tally
    }

    private func process(_ thread: ThreadSnapshot) {
        let snapshot = tap.map { CanaryPlanting.planted(thread, tap: $0) } ?? thread
        for job in jobs {
            let items = job.plan(snapshot, tokenizer: tokenizer, ledger: &ledgers[job.kind, default: JobLedger()])
            for item in items {
                guard let request = item.request else {
                    ledgers[job.kind]!.add(job.unasked(item, reason: item.earlyFallback ?? .invalidOutput))
                    continue
                }
                if modelUnavailable != nil {
                    ledgers[job.kind]!.add(job.unasked(item, reason: .modelUnavailable))
                    continue
                }
                let promptTokens = tokenizer.promptTokenCount(for: request)
                let prefill = options.device.estimatedMilliseconds(promptTokens: promptTokens, outputTokens: 0)
                sizing[job.kind]!.add(promptTokens: promptTokens, devicePrefillMilliseconds: prefill,
                                      overContext: promptTokens + request.maxOutputTokens > request.contextLimit,
                                      overBudget: prefill > job.budgetMilliseconds)
                if model == nil {
                    // A dry run judges only what is certain without the model.
                    let certain: FallbackReason? = promptTokens + request.maxOutputTokens > request.contextLimit
                        ? .contextExceeded : prefill > job.budgetMilliseconds ? .timeBudget : nil
                    var result = job.unasked(item, reason: certain)
                    result.promptTokens = promptTokens
                    ledgers[job.kind]!.add(result)
                } else {
                    queue.append(item)
                }
            }
        }
        if let model, queue.count >= model.info.batchSize * 2 { flush() }
    }

    /// Sends the queued requests to the model and counts the answers.
    private func flush() {
        guard let model, !queue.isEmpty else { return }
        let requests = queue.map { $0.request! }
        if let tap { requests.forEach { tap.notePrompt($0.prompt) } }
        let outcomes = model.respond(to: requests)
        asked += queue.count
        for (item, outcome) in zip(queue, outcomes) {
            if let tap, case .success(let output) = outcome.output { tap.record(output: output) }
            let job = jobs.first { $0.kind == item.job }!
            ledgers[item.job]!.add(job.evaluate(item, outcome: outcome, device: options.device))
        }
        queue.removeAll(keepingCapacity: true)
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
