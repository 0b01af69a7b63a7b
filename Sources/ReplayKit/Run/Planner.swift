import Audit
import Engine
import Jobs
import Privacy

/// The second stage of a run: a thread through every job, every fallback that is known before
/// the model is asked decided here, and what is left queued for the model.
///
/// Planning is pure and `Sendable`, so a dry run plans threads on several workers
/// (`PlanningPipeline`) while the source goes on reading. Each item leaves with its place (its
/// keyed hash, its thread's, its build and model as the report shows them), so its outcome can
/// be kept whether it is decided here or by the model stage.
struct Planner: Sendable {
    let options: ReplayOptions
    let jobs: [any Job]
    let tokenizer: any Tokenizer
    /// Under `replay audit`: the tap whose canary is planted in every text before planning.
    let canary: AuditTap?
    /// The model could not be loaded: every item the model would be asked falls back.
    let modelUnavailable: Bool
    /// No model is asked (`--dry-run`): only what is certain without it is judged.
    let dryRun: Bool
    let itemKeys: ItemKeys

    /// One thread through every job: its counts, its prompt sizes, the outcomes of items decided
    /// without the model, and the requests for the model.
    func plan(_ input: PlanningInput) -> PlannedThread {
        var planned = PlannedThread()
        let thread = input.thread
        let snapshot = canary.map { CanaryPlanting.planted(thread, tap: $0) } ?? thread
        let threadHash = itemKeys.thread(file: input.file, thread: thread.thread.id)
        let keys = itemKeys.inThread(file: input.file, thread: thread.thread.id)
        func place(_ item: JobItem) -> ItemPlace {
            ItemPlace(key: keys.key(message: item.attribution.message, job: item.job),
                      thread: threadHash, build: ReportLabel(build: item.attribution.build, listed: options.labels).text,
                      model: ReportLabel(model: item.attribution.model, listed: options.labels).text)
        }
        func add(_ result: ItemResult, at item: JobItem, to ledger: inout JobLedger) {
            ledger.add(result)
            planned.outcomes.append(place(item).outcome(of: result))
        }
        let device = options.device
        for job in jobs {
            var ledger = JobLedger()
            var sizes = PromptSizing()
            let items = job.plan(snapshot, tokenizer: tokenizer, ledger: &ledger)
            for item in items {
                guard let request = item.request else {
                    add(job.unasked(item, reason: item.earlyFallback ?? .invalidOutput), at: item, to: &ledger)
                    continue
                }
                if modelUnavailable {
                    add(job.unasked(item, reason: .modelUnavailable), at: item, to: &ledger)
                    continue
                }
                // Planning counted most requests from words it had counted already.
                let promptTokens = item.promptTokens ?? tokenizer.promptTokenCount(for: request)
                let prefill = device.estimatedMilliseconds(promptTokens: promptTokens, outputTokens: 0)
                let overContext = promptTokens + request.maxOutputTokens > request.contextLimit
                sizes.add(promptTokens: promptTokens, devicePrefillMilliseconds: prefill,
                          overContext: overContext, overBudget: prefill > job.budgetMilliseconds)
                if dryRun {
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
}

/// A thread to plan and the corpus file it is in (by its index in the whole corpus).
struct PlanningInput: Sendable {
    var thread: ThreadSnapshot
    var file: Int
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
