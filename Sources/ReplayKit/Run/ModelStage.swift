import Engine
import Jobs

/// The third stage of a run: the requests planning left, sent to the model in calls of
/// `requestsPerCall`, each answer judged by its job as soon as it comes back.
///
/// It holds at most one call's requests, so only their words are in memory at once; what
/// leaves is numbers: each item's result, counted into the job's ledger, and its outcome.
final class ModelStage {
    let model: any LanguageModel
    let jobs: [JobKind: any Job]
    let device: DeviceProfile
    /// Requests sent in one call.
    let requestsPerCall: Int
    private var queue: [JobItem] = []
    private var places: [ItemPlace] = []
    /// Requests sent so far.
    private(set) var asked = 0

    init(model: any LanguageModel, jobs: [any Job], device: DeviceProfile) {
        self.model = model
        self.jobs = Dictionary(jobs.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.device = device
        requestsPerCall = ReplayRunner.requestsPerCall(batchSize: model.info.batchSize)
    }

    /// Queues planned requests; true when a call's worth is waiting.
    func enqueue(_ items: [JobItem], at places: [ItemPlace]) -> Bool {
        queue += items
        self.places += places
        return queue.count >= requestsPerCall
    }

    /// Asks the model about every queued request, and hands each judged result and outcome on.
    func flush(_ judged: (ItemResult, ItemOutcome) -> Void) {
        guard !queue.isEmpty else { return }
        let answers = model.respond(to: queue.map { $0.request! })
        asked += queue.count
        for ((item, place), answer) in zip(zip(queue, places), answers) {
            let result = jobs[item.job]!.evaluate(item, outcome: answer, device: device)
            judged(result, place.outcome(of: result))
        }
        queue.removeAll(keepingCapacity: true)
        places.removeAll(keepingCapacity: true)
    }
}
