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
    /// The run's phone; each answer is judged as its own model version runs on it (`profiles`).
    let device: DeviceProfile
    let profiles: ModelProfiles
    /// What each answer's sizes are counted in: the phone's tokens, by its model version.
    let phoneTokens: PhoneTokenizers
    /// Requests sent in one call.
    let requestsPerCall: Int
    private var queue: [JobItem] = []
    private var places: [ItemPlace] = []
    /// Requests sent so far.
    private(set) var asked = 0

    /// Raised when the run must stop (`StopSignals`): a call it stops is dropped whole.
    let stop: StopRequest?
    /// Whether a call was dropped because `stop` was raised; nothing is asked after it.
    private(set) var stopped = false
    /// Calls answered so far.
    private(set) var calls = 0

    init(model: any LanguageModel, jobs: [any Job], device: DeviceProfile, profiles: ModelProfiles = .builtIn, stop: StopRequest? = nil) {
        self.profiles = profiles
        phoneTokens = PhoneTokenizers(profiles)
        self.model = model
        self.stop = stop
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

    /// Whether no request waits: everything planned so far has been answered and counted.
    var isEmpty: Bool { queue.isEmpty }

    /// Asks the model about every queued request, and hands each judged result and outcome on.
    ///
    /// Once `stop` is raised the call is dropped whole (`stopped`), whether before it or during
    /// it: nothing of it is judged, the queue is left as it was, and nothing more is asked.
    func flush(_ judged: (ItemResult, ItemOutcome) -> Void) {
        guard !queue.isEmpty, !stopped else { return }
        // Each request carries its place's key, so an engine that decides per place (the
        // fallback injection) decides the same way in every run under the run key.
        let requests = zip(queue, places).map { item, place in
            var request = item.request!
            request.place = place.key
            return request
        }
        let answered = stop.map { model.respond(to: requests, unless: $0) } ?? model.respond(to: requests)
        guard let answers = answered else {
            stopped = true
            return
        }
        asked += queue.count
        calls += 1
        for ((item, place), answer) in zip(zip(queue, places), answers) {
            let model = item.attribution.model
            var result = jobs[item.job]!.evaluate(item, outcome: answer, device: profiles.device(device, model: model),
                                                  phoneTokens: phoneTokens.tokenizer(forModel: model))
            result.firedAtMilliseconds = item.firedAtMilliseconds
            judged(result, place.outcome(of: result))
        }
        queue.removeAll(keepingCapacity: true)
        places.removeAll(keepingCapacity: true)
    }
}
