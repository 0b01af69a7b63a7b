import Engine
import Jobs
import Privacy
import ReplayKit

/// Runs a suite's cases through the jobs with a model: each case as a one-thread snapshot planned
/// by its job's own `plan` (eligibility, the language check and the cuts are the app's code,
/// counted in the phone's tokens of the case's model version, as a run counts them), the requests left asked of the model in calls as a run
/// asks them, each answer judged by `Job.evaluate` as a run judges it, then every expectation
/// checked.
///
/// Takes any `LanguageModel`: the command passes the llama.cpp engine a run uses, tests a
/// scripted one. What leaves is `SuiteCaseResult`s: ids, flags, counts and fixed words.
public struct SuiteRunner: Sendable {
    public var suite: SuiteFile
    public var model: any LanguageModel
    public var prompts: PromptSet = .builtIn
    public var device: DeviceProfile = .iPhone15Pro
    /// The on-device model version the run stands for (`--model-version`): cases with
    /// `model_versions` run only when it is one of them. Carried as the messages' `meta.model`.
    public var modelVersion: String?
    /// Each model version's ceiling, languages and speed: a case is judged as `modelVersion`'s
    /// profile says (the profiles' unknown model without one), as a run judges a place.
    public var profiles: ModelProfiles = .builtIn

    /// The counters that say the app settled a place in planning, without the model: a case's
    /// `fallback` names the first one counted.
    static let planningFallbacks: [JobCounter] = [.named, .relayLineKept, .noWords]

    /// One run of a case: its plan, and what was found so far.
    private struct Pending {
        let suiteCase: SuiteCase
        let language: String?
        let job: any Job
        var item: JobItem?
        var observation = SuiteObservation()
        /// The request to ask the model, when the case is asked and gives no output.
        var request: GenerationRequest?
        var outcome: GenerationOutcome?
        var skipped = false
    }

    /// Every run of every case, in the file's order (a case's languages in its order).
    public func run() -> [SuiteCaseResult] {
        // Every case's cuts and sizes are counted in the phone's tokens of `modelVersion`'s profile.
        let phone = PhoneTokenizers(profiles)
        let tokens = phone.tokenizer(forModel: modelVersion ?? Attribution.unknown)
        var pending: [Pending] = []
        for suiteCase in suite.cases {
            for language in suiteCase.runLanguages {
                pending.append(plan(suiteCase, language: language, phone: phone, tokens: tokens))
            }
        }
        // The model is asked as a run asks it: calls of a few batches' worth of requests.
        let asked = pending.indices.filter { pending[$0].request != nil }
        let perCall = max(1, ReplayRunner.requestsPerCall(batchSize: model.info.batchSize))
        var start = 0
        while start < asked.count {
            let indices = Array(asked[start..<min(start + perCall, asked.count)])
            let outcomes = model.respond(to: indices.map { pending[$0].request! })
            for (index, outcome) in zip(indices, outcomes) { pending[index].outcome = outcome }
            start += perCall
        }
        return pending.map { finish($0, tokens: tokens) }
    }

    /// Plans one run of a case: everything the app decides before the model, and the output to
    /// judge when it is given.
    private func plan(_ suiteCase: SuiteCase, language: String?, phone: PhoneTokenizers, tokens: any Tokenizer) -> Pending {
        let version = profiles.profile(forModel: modelVersion ?? Attribution.unknown)
        let job = RunJobs.job(suiteCase.job, prompts: prompts, profiles: profiles, device: device)
        var run = Pending(suiteCase: suiteCase, language: language, job: job)
        // A case for some versions runs when the run's version is judged by the profile of one of
        // them (26.2 runs a case for 26.0); a run naming none stands for the unknown model's.
        if let versions = suiteCase.modelVersions, !versions.contains(where: { profiles.profile(forModel: $0).name == version.name }) {
            run.skipped = true
            return run
        }
        let (snapshot, target) = suiteCase.input.snapshot(language: language, modelVersion: modelVersion)
        var ledger = JobLedger()
        let items = run.job.plan(snapshot, tokenizer: tokens, ledger: &ledger)
        let counters = ledger.overall.counters
        var observation = SuiteObservation()
        observation.named = (counters[JobCounter.named.rawValue] ?? 0) > 0
        guard let item = items.first(where: { $0.attribution.message == target }) else {
            observation.fallback = Self.planningFallbacks.first { (counters[$0.rawValue] ?? 0) > 0 }?.rawValue ?? "none"
            run.observation = observation
            return run
        }
        run.item = item
        observation.fires = true
        guard let request = item.request else {
            observation.fallback = (item.earlyFallback ?? .invalidOutput).rawValue
            run.observation = observation
            return run
        }
        // Decided before asking exactly as a run's planner decides it (`PreAsk`): the case's model
        // version's languages, ceiling and speed.
        var preAsk = PreAsk(profiles: profiles, device: device, phoneTokens: phone)
        let size: PreAsk.Size
        switch preAsk.decide(item, request: request, modelUnavailable: false) {
        case .fallback(let reason):
            observation.fallback = reason.rawValue
            run.observation = observation
            return run
        case .ask(let asked, let sized):
            run.item?.request = asked
            run.item?.promptTokens = sized.promptTokens
            size = sized
        }
        observation.inputCut = item.inputWasCut
        observation.inputTokens = item.inputTokens
        if suiteCase.job == .push, let push = run.job as? PushJob {
            observation.repliesRead = repliesRead(suiteCase.input, inputTokens: item.inputTokens, batched: (counters[JobCounter.batched.rawValue] ?? 0) > 0,
                                                  cap: push.inputCap, tokens: tokens)
        }
        // The session's ceiling, which a run's engine meets when it asks: decided here.
        let promptTokens = size.promptTokens
        if size.overContext {
            observation.fallback = FallbackReason.contextExceeded.rawValue
            run.observation = observation
            return run
        }
        run.observation = observation
        if let given = suiteCase.given {
            run.outcome = GenerationOutcome(output: .success(given.output), promptTokens: promptTokens,
                                            outputTokens: tokens.tokenCount(of: given.output), hostMilliseconds: 0,
                                            choiceProbability: given.confidence)
        } else {
            run.request = run.item?.request
        }
        return run
    }

    /// The number of newest replies whose words, joined and cut as the push job joins and cuts
    /// them, are `inputTokens` long, and agree with whether the job counted the push `batched`.
    private func repliesRead(_ input: SuiteInput, inputTokens: Int, batched: Bool, cap: Int, tokens: any Tokenizer) -> Int? {
        let words = input.replyWords
        for count in 1...max(1, words.count) where (count > 1) == batched {
            let joined = SealedText.joined(words.suffix(count).filter { !$0.isEmpty }, separator: "\n\n")
            if tokens.suffix(of: joined, maxTokens: cap).keptTokens == inputTokens { return count }
        }
        return nil
    }

    /// Judges the run's output, if it has one, then every expectation.
    private func finish(_ run: Pending, tokens: any Tokenizer) -> SuiteCaseResult {
        let suiteCase = run.suiteCase
        var result = SuiteCaseResult(id: suiteCase.id, language: run.language, job: suiteCase.job, must: suiteCase.must,
                                     givenOutput: suiteCase.given != nil, skipped: run.skipped, expectations: [],
                                     perLanguage: suiteCase.languages != nil)
        guard !run.skipped else { return result }
        var observation = run.observation
        if let item = run.item, let outcome = run.outcome {
            judge(run.job, item: item, outcome: outcome, input: suiteCase.input, tokens: tokens, into: &observation)
        }
        result.expectations = suiteCase.expectations.map { expectation in
            SuiteVerdicts.verdict(expectation, observation, deterministic: suiteCase.given != nil || expectation.isDeterministic,
                                  lead: suiteCase.input.lead)
        }
        return result
    }

    /// The job's own judging of an output (`Job.evaluate`, as a run's model stage), and the
    /// facts of its checked answer.
    private func judge<J: Job>(_ job: J, item: JobItem, outcome: GenerationOutcome, input: SuiteInput, tokens: any Tokenizer,
                               into observation: inout SuiteObservation) {
        let result = job.evaluate(item, outcome: outcome, device: profiles.device(device, model: modelVersion ?? Attribution.unknown),
                                  phoneTokens: tokens)
        observation.judged = true
        observation.inBudget = result.inBudgetDevice ?? false
        observation.violations = result.counters.filter { $0.key.hasPrefix(NeverRule.counterPrefix) }.values.reduce(0, +)
        guard case .success(let text) = outcome.output else {
            observation.parses = false
            observation.accepted = false
            return
        }
        observation.parses = (try? ContentDecoder.decode(text, as: Self.schema(of: job.kind, input: input))) != nil
        let answer = job.check(text, for: item, outcome: outcome).answer
        observation.accepted = answer != nil
        observation.answer = answer.flatMap { SuiteAnswer($0) }
    }

    /// The schema a job's output decodes under (routing's is made per group).
    static func schema(of job: JobKind, input: SuiteInput) -> GenerationSchema {
        switch job {
        case .chips: Replies.schema
        case .route: Route.schema(members: input.memberNames)
        case .push: PushLine.schema
        case .draft: Draft.schema
        }
    }
}
