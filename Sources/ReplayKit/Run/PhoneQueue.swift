import Engine
import Jobs

/// Budgets as the phone would see them (spec §7 and §10): one model call at a time on a
/// thread's phone, a prewarm when the thread opens, a cold start after the model sat idle.
///
/// `in_budget.device` judges each answer from the moment of its request, as if the phone ran one
/// job at a time with the model warm. Here a thread's asked places are replayed on one clock, in
/// the order they fire (the `at` of the message each fires at; ties in the jobs' order):
///
/// - a call starts when it fires or when the call before it ends, whichever is later;
/// - the model is loaded while it is used, and for `idleUnload` after its last use; a call that
///   finds it unloaded first waits `coldStart` for it to load;
/// - a person's message means their thread was open `prewarmLead` before it: the app prewarmed
///   then (spec §7), so the load began there, whether or not a job fires at that message;
/// - each call then takes its estimated device time.
///
/// A place's queued time is from firing to its answer; it is in budget when its answer is valid
/// and that time is within the job's budget. The export has no person id, so the phone is the
/// thread's: places of two threads never wait for each other (the person's other threads on the
/// same phone would only add waits). Places the export gives no readable time are judged as
/// `in_budget.device` judges them and counted `queue:untimed`.
struct PhoneQueue {
    let model: PhoneQueueModel
    /// Each job's budget in milliseconds.
    let budgets: [JobKind: Double]

    /// Counters the queue adds to a result's job.
    static let coldStart = JobCounter.queueColdStart.rawValue, waited = JobCounter.queueWaited.rawValue
    static let untimed = JobCounter.queueUntimed.rawValue

    /// `results`, one thread's asked places, judged on the phone's clock; `prewarms` the times of
    /// the person's messages in that thread.
    func judge(_ results: [ItemResult], prewarms: [Int64]) -> [ItemResult] {
        var judged = results
        let timed = results.indices.filter { results[$0].firedAtMilliseconds != nil }.sorted { a, b in
            let (x, y) = (results[a], results[b])
            if x.firedAtMilliseconds! != y.firedAtMilliseconds! { return x.firedAtMilliseconds! < y.firedAtMilliseconds! }
            let order = JobKind.allCases
            return order.firstIndex(of: x.job)! < order.firstIndex(of: y.job)! || (x.job == y.job && a < b)
        }
        var opens = prewarms.map { Double($0) - model.prewarmLeadMilliseconds }.sorted()[...]
        /// When the queue is free, when the model is (or will be) loaded, and when it was last used.
        var free = -Double.infinity, loadedAt: Double? = nil, lastUse = -Double.infinity
        func isLoaded(at time: Double) -> Bool { loadedAt != nil && time - lastUse < model.idleUnloadMilliseconds }
        /// Begins loading at `time` if the model is not loaded then; the time it is ready.
        func load(at time: Double) -> Double {
            if !isLoaded(at: time) { loadedAt = time + model.coldStartMilliseconds }
            lastUse = max(lastUse, time)
            return max(time, loadedAt!)
        }
        for index in timed {
            let fired = Double(judged[index].firedAtMilliseconds!)
            // The prewarms of the thread's openings up to this call (a load under way counts from its start).
            while let open = opens.first, open <= fired {
                _ = load(at: open)
                opens = opens.dropFirst()
            }
            let start = max(fired, free)
            let cold = !isLoaded(at: start) || loadedAt! > start
            let begins = load(at: start)
            let ends = begins + (judged[index].deviceMilliseconds ?? 0)
            free = ends
            lastUse = ends
            let queued = ends - fired
            let valid = judged[index].inBudgetDevice == true || judged[index].fallback == .timeBudget
            judged[index].queuedMilliseconds = queued
            judged[index].inBudgetQueued = valid && queued <= (budgets[judged[index].job] ?? .infinity)
            if cold { judged[index].counters[Self.coldStart, default: 0] += 1 }
            if start > fired { judged[index].counters[Self.waited, default: 0] += 1 }
        }
        for index in results.indices where results[index].firedAtMilliseconds == nil {
            judged[index].inBudgetQueued = judged[index].inBudgetDevice
            judged[index].queuedMilliseconds = judged[index].deviceMilliseconds
            judged[index].counters[Self.untimed, default: 0] += 1
        }
        return judged
    }
}

/// Holds each thread's judged answers until its last asked place is answered, then hands them
/// on judged by the phone's queue (`PhoneQueue`), so that a thread's places are judged together
/// however the model stage split them into calls. A few threads are held at a time: calls are
/// made in planning order.
struct PhoneQueueStage {
    let queue: PhoneQueue
    private var waiting: [UInt64: (left: Int, prewarms: [Int64], results: [ItemResult], outcomes: [ItemOutcome])] = [:]

    init(queue: PhoneQueue) { self.queue = queue }

    /// A thread whose `asked` places were queued for the model; `prewarms` its person's messages' times.
    mutating func expect(thread: UInt64, asked: Int, prewarms: [Int64]) {
        guard asked > 0 else { return }
        waiting[thread, default: (0, prewarms, [], [])].left += asked
    }

    /// Takes one answer and its outcome; the thread's answers and outcomes, judged, once it was
    /// the thread's last (`ItemOutcome.thread`).
    mutating func take(_ result: ItemResult, _ outcome: ItemOutcome) -> [(ItemResult, ItemOutcome)] {
        var held = waiting[outcome.thread] ?? (1, [], [], [])
        held.results.append(result)
        held.outcomes.append(outcome)
        held.left -= 1
        guard held.left <= 0 else {
            waiting[outcome.thread] = held
            return []
        }
        waiting[outcome.thread] = nil
        let judged = queue.judge(held.results, prewarms: held.prewarms)
        return zip(judged, held.outcomes).map { result, outcome in
            var outcome = outcome
            outcome.inBudgetQueued = result.inBudgetQueued
            return (result, outcome)
        }
    }

    /// Whether every expected answer has come.
    var isEmpty: Bool { waiting.isEmpty }
}
