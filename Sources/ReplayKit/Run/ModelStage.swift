import Engine
import Jobs

/// The third stage of a run: the requests planning left, sent to the model in calls of
/// `requestsPerCall`, each answer judged by its job as soon as it comes back.
///
/// It holds at most one call's requests, so only their words are in memory at once; what
/// leaves is numbers: each item's result, counted into the job's ledger, and its outcome.
///
/// Fallbacks injected at places (`injection`: refusals, guardrails, rate limits) are the phone's
/// framework failing before any output: such a request is not sent to the model, and its outcome
/// carries the prompt's size (what was prefilled before the refusal) and nothing written. Each
/// is decided by the place's key, job and topic, so the same places fail however calls are cut.
final class ModelStage {
    let model: any LanguageModel
    /// The fallbacks injected at places; nil: every request goes to the model.
    let injection: FallbackInjection?
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

    init(model: any LanguageModel, jobs: [any Job], device: DeviceProfile, profiles: ModelProfiles = .builtIn, stop: StopRequest? = nil,
         injection: FallbackInjection? = nil) {
        self.injection = injection.flatMap { $0.rates.isEmpty ? nil : $0 }
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
    /// it: nothing of it is judged, the queue is left as it was, and nothing more is asked; a call
    /// whose every place is injected, which asks the model nothing, is dropped so too.
    func flush(_ judged: (ItemResult, ItemOutcome) -> Void) {
        guard !queue.isEmpty, !stopped else { return }
        let injected = zip(queue, places).map { item, place in
            injection?.reason(at: place.key, job: item.job, topic: item.topic)
        }
        let requests = zip(queue, injected).compactMap { item, reason in reason == nil ? item.request! : nil }
        var answers: [GenerationOutcome] = []
        if !requests.isEmpty {
            guard let answered = stop.map({ model.respond(to: requests, unless: $0) }) ?? model.respond(to: requests) else {
                stopped = true
                return
            }
            answers = answered
        } else if stop?.isRaised == true {
            stopped = true
            return
        }
        asked += queue.count
        calls += 1
        var next = answers.makeIterator()
        let outcomes = zip(queue, injected).map { item, reason -> GenerationOutcome in
            guard let reason else { return next.next()! }
            return GenerationOutcome(output: .failure(reason.failure), promptTokens: item.promptTokens ?? model.promptTokenCount(for: item.request!),
                                     outputTokens: 0, hostMilliseconds: 0)
        }
        for (((item, place), answer), reason) in zip(zip(zip(queue, places), outcomes), injected) {
            let model = item.attribution.model
            var result = jobs[item.job]!.evaluate(item, outcome: answer, device: profiles.device(device, model: model),
                                                  phoneTokens: phoneTokens.tokenizer(forModel: model))
            // An injected fallback took no time on this host: it has no host latency to report,
            // rather than a 0 ms that would pull the host percentiles down as the rate rises.
            if reason != nil { result.hostMilliseconds = nil }
            result.firedAtMilliseconds = item.firedAtMilliseconds
            judged(result, place.outcome(of: result))
        }
        queue.removeAll(keepingCapacity: true)
        places.removeAll(keepingCapacity: true)
    }
}
