import Confinement
import Dispatch
import Foundation
import Engine
import Export
import Jobs
import Privacy

/// The second stage of a run: a thread through every job, every fallback that is known before
/// the model is asked decided here, and what is left queued for the model.
///
/// A phone the injection makes unavailable (`FallbackInjection.isUnavailable(phone:)`) is the
/// thread's: the export names no person, and a thread is one person's conversation on their
/// phone, so its keyed hash is the phone's key, the same in every shard and run under the run key.
///
/// Planning is pure and `Sendable`, so a dry run plans threads on several workers
/// (`PlanningPipeline`) while the source goes on reading. Each item leaves with its place (its
/// keyed hash, its thread's, its build and model as the report shows them), so its outcome can
/// be kept whether it is decided here or by the model stage.
struct Planner: Sendable {
    let options: ReplayOptions
    let jobs: [any Job]
    /// What cuts and sizes are counted in: the phone's tokens, each model version's estimate
    /// (`options.profiles`), never the stand-in's.
    let phoneTokens: PhoneTokenizers
    /// Under `replay audit`: the tap whose canary is planted in every text before planning.
    let canary: AuditTap?
    /// The model could not be loaded: every item the model would be asked falls back.
    let modelUnavailable: Bool
    /// No model is asked (`--dry-run`): only what is certain without it is judged.
    let dryRun: Bool
    let itemKeys: ItemKeys
    /// The cores a long thread's planning is spread over.
    var workers = AvailableProcessors.count

    /// One thread (or the places of a piece of it) through every job: its counts, its prompt
    /// sizes, the outcomes of items decided without the model, and the requests for the model.
    ///
    /// A long thread is planned a range of messages per core (`ranges`), each range's items and
    /// counts then joined in order: the same items in the same order, and the same counts (every
    /// count is a whole number, so adding them in parts changes nothing), as one pass would give.
    /// A piece planned while the thread is still read takes one core, the reader having the other.
    func plan(_ input: PlanningInput) -> PlannedThread {
        var planned = PlannedThread(piece: input.piece)
        let thread = input.thread
        let snapshot = canary.map { CanaryPlanting.planted(thread, tap: $0) } ?? thread
        let threadHash = itemKeys.thread(file: input.file, thread: thread.thread.id)
        let keys = itemKeys.inThread(file: input.file, thread: thread.thread.id)
        let ranges = Self.ranges(of: input.places, workers: input.piece ? 1 : workers)
        for job in jobs {
            let parts: [PlannedPart]
            if ranges.count == 1 {
                parts = [plan(job, snapshot, messages: ranges[0], tokenizer: phoneTokens, threadHash: threadHash, keys: keys)]
            } else {
                let slots = PartSlots(count: ranges.count)
                DispatchQueue.concurrentPerform(iterations: ranges.count) { index in
                    slots.put(plan(job, snapshot, messages: ranges[index], tokenizer: phoneTokens, threadHash: threadHash, keys: keys), at: index)
                }
                parts = slots.parts
            }
            var ledger = JobLedger(), sizes = PromptSizing()
            for part in parts {
                ledger.merge(part.ledger)
                sizes.merge(part.sizes)
                planned.outcomes += part.outcomes
                planned.queued += part.queued
                planned.queuedPlaces += part.queuedPlaces
            }
            planned.ledgers[job.kind] = ledger
            planned.sizing[job.kind] = sizes
        }
        if !planned.queued.isEmpty { placeOnTheClock(&planned, thread.messages, threadHash: threadHash) }
        return planned
    }

    /// Gives each queued item the time it fires (its message's `at`, unless its job set another:
    /// a push line written at the next run) and the thread the times of the person's messages,
    /// for the phone's queue (`PhoneQueue`).
    private func placeOnTheClock(_ planned: inout PlannedThread, _ messages: MessageList, threadHash: UInt64) {
        var times: [String: Int64] = [:]
        for index in messages.indices {
            let message = messages[index]
            guard let at = UTCInstant.milliseconds(message.at) else { continue }
            times[message.id] = at
            if case .person = message.from { planned.prewarms.append(at) }
        }
        for index in planned.queued.indices {
            planned.queued[index].firedAtMilliseconds = planned.queued[index].firedAtMilliseconds
                ?? times[planned.queued[index].attribution.message]
        }
        planned.thread = threadHash
    }

    /// The places of one job among `messages`: its counts, sizes, outcomes and requests.
    private func plan(_ job: any Job, _ snapshot: ThreadSnapshot, messages: Range<Int>, tokenizer: any Tokenizer,
                      threadHash: UInt64, keys: ItemKeys.ThreadKeys) -> PlannedPart {
        var part = PlannedPart()
        // A thread has a few builds, models and locales: each label is made once (a hashed one costs an HMAC).
        var builds: [String?: String] = [:], models: [String?: String] = [:], locales: [String: String] = [:]
        func place(_ item: JobItem) -> ItemPlace {
            let build = item.attribution.build, model = item.attribution.model, locale = item.attribution.locale
            let buildLabel = builds[build] ?? ReportLabel(build: build, listed: options.labels).text
            let modelLabel = models[model] ?? ReportLabel(model: model, listed: options.labels).text
            let localeLabel = locales[locale] ?? ReportLabel(locale: locale).text
            builds[build] = buildLabel
            models[model] = modelLabel
            locales[locale] = localeLabel
            return ItemPlace(key: keys.key(message: item.attribution.message, job: item.job),
                             thread: threadHash, build: buildLabel, model: modelLabel, locale: localeLabel)
        }
        var preAsk = PreAsk(profiles: options.profiles, device: options.device, phoneTokens: phoneTokens)
        func add(_ result: ItemResult, at item: JobItem) {
            part.ledger.add(result)
            part.outcomes.append(place(item).outcome(of: result))
        }
        let items = job.plan(snapshot, messages: messages, tokenizer: tokenizer, ledger: &part.ledger)
        for var item in items {
            guard let request = item.request else {
                add(job.unasked(item, reason: item.earlyFallback ?? .invalidOutput), at: item)
                continue
            }
            let size: PreAsk.Size
            switch preAsk.decide(item, request: request, modelUnavailable: modelUnavailable) {
            case .fallback(let reason):
                add(job.unasked(item, reason: reason), at: item)
                continue
            case .ask(let asked, let sized):
                item.request = asked
                item.promptTokens = sized.promptTokens
                size = sized
            }
            let (promptTokens, prefill, overContext) = (size.promptTokens, size.devicePrefillMilliseconds, size.overContext)
            part.sizes.add(promptTokens: promptTokens, devicePrefillMilliseconds: prefill,
                           overContext: overContext, overBudget: prefill > job.budgetMilliseconds)
            if dryRun {
                // A dry run judges only what is certain without the model.
                let certain: FallbackReason? = overContext ? .contextExceeded : prefill > job.budgetMilliseconds ? .timeBudget : nil
                var result = job.unasked(item, reason: certain)
                result.promptTokens = promptTokens
                add(result, at: item)
            } else if options.injection?.isUnavailable(phone: threadHash) == true {
                // The thread's phone cannot run the model (injected): the app never asks. Its
                // prompt is sized all the same: the sizes are the corpus's, whoever answers.
                add(job.unasked(item, reason: .deviceUnavailable), at: item)
            } else {
                part.queued.append(item)
                part.queuedPlaces.append(place(item))
            }
        }
        return part
    }

    /// Messages a range holds at least: below twice this a thread is planned in one pass, as
    /// nearly every thread is (splitting one costs each range a pass back over what precedes it).
    static let rangeMessages = 8192

    /// Consecutive ranges covering `places`, one per worker, none shorter than `rangeMessages`:
    /// a single range for any thread but a long one.
    static func ranges(of places: Range<Int>, workers: Int) -> [Range<Int>] {
        let messages = places.count
        let count = max(1, min(workers, messages / rangeMessages))
        return (0..<count).map { index in
            (places.lowerBound + messages * index / count)..<(places.lowerBound + messages * (index + 1) / count)
        }
    }
}

/// What a place of one model version is judged by: that version's languages and ceiling, and
/// the run's device as that version runs on it.
/// One job's share of a thread (a range of its messages) as planned.
private struct PlannedPart: Sendable {
    var ledger = JobLedger()
    var sizes = PromptSizing()
    var outcomes: [ItemOutcome] = []
    var queued: [JobItem] = []
    var queuedPlaces: [ItemPlace] = []
}

/// Where the workers planning one thread leave their parts, each in its own slot.
private final class PartSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [PlannedPart?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func put(_ part: PlannedPart, at index: Int) {
        lock.withLock { slots[index] = part }
    }

    /// Every part, in order; called once every worker is done.
    var parts: [PlannedPart] {
        lock.withLock { slots.map { $0! } }
    }
}

/// A thread to plan, the corpus file it is in (by its index in the whole corpus), and which of
/// its messages' places to plan: all of them, or (a long thread still being read, `ThreadPieces`)
/// a piece, whose `thread` holds what was read so far.
struct PlanningInput: Sendable {
    var thread: ThreadSnapshot
    var file: Int
    /// The places planned: indices of `thread.messages`.
    var places: Range<Int>
    /// A piece of a thread whose other places are planned after: its plan is held until the
    /// thread's last piece (`places` up to the end) is planned.
    var piece: Bool

    init(thread: ThreadSnapshot, file: Int, places: Range<Int>? = nil, piece: Bool = false) {
        self.thread = thread
        self.file = file
        self.places = places ?? thread.messages.indices
        self.piece = piece
    }
}

/// One thread's counts, prompt sizes, outcomes and model requests, before they are added to the run's.
struct PlannedThread: Sendable {
    /// A piece of a thread still being read (`PlanningInput.piece`).
    var piece = false
    var ledgers: [JobKind: JobLedger] = [:]
    var sizing: [JobKind: PromptSizing] = [:]
    /// The outcomes of items decided without the model.
    var outcomes: [ItemOutcome] = []
    var queued: [JobItem] = []
    /// Where each of `queued` is.
    var queuedPlaces: [ItemPlace] = []
    /// The thread's hash (`ItemPlace.thread`) and the times of the person's messages in it, when
    /// it queued requests: the phone's queue judges them together (`PhoneQueueStage`).
    var thread: UInt64 = 0
    var prewarms: [Int64] = []

    /// Adds the plan of the thread's next places.
    mutating func append(_ next: PlannedThread) {
        for (kind, ledger) in next.ledgers { ledgers[kind, default: JobLedger()].merge(ledger) }
        for (kind, sizes) in next.sizing { sizing[kind, default: PromptSizing()].merge(sizes) }
        outcomes += next.outcomes
        queued += next.queued
        queuedPlaces += next.queuedPlaces
        if !next.queued.isEmpty { (thread, prewarms) = (next.thread, prewarms + next.prewarms) }
        piece = next.piece
    }
}
