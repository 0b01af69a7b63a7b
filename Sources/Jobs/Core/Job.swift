import Engine
import Privacy

/// A job of the phone's model, replayed: what it is, where it fires, what it asks, and how to
/// judge the answer.
///
/// A job says what it is once (`described`: its kind, budget and where that budget comes from,
/// caps, output schema and report settings), so the report and the command iterate over jobs
/// instead of naming them; `JobKind.job(budgetMilliseconds:)` is the one place that maps a kind to
/// its type. Judging is shared (`evaluate`): a job only decodes and checks an output (`check`) and
/// scores what the person saw (`score`), so every job gates on the same clock and reports quality
/// the same two ways.
public protocol Job: Sendable {
    /// What a checked output becomes: the job's output type, or (routing) the member it names.
    associatedtype Answer: Sendable

    /// Which job this is.
    var kind: JobKind { get }
    /// The job's time budget in milliseconds: an answer later than this on the device is not shown.
    var budgetMilliseconds: Double { get }
    /// The budget this job has unless told otherwise, and where that number comes from.
    static var defaultBudget: Budget { get }
    /// The job as report.json describes it.
    var described: JobDescription { get }
    /// Whether planning reads a screen's words (`Screen.words`): a run whose jobs do not reads
    /// only each screen's facts (`ScreenDetail.facts`), and a job that read them anyway would
    /// stop the program, so the answer must be true for a job that reads them.
    var readsScreenWords: Bool { get }

    /// Counts what the job looked at among `messages` (indices of `thread.messages`) and returns
    /// one item per place it fires there, reading whatever else of the thread those places need
    /// (earlier replies, the next message).
    ///
    /// Planning consecutive ranges gives the items of the whole thread in order, and their
    /// ledgers add up to its ledger: a long thread is planned a range per core. A place looks
    /// ahead no further than the next message and the person's next message, so `thread` may be
    /// the thread read so far, up to a person message at or after `messages.upperBound`: a long
    /// thread is planned in pieces while the rest is read. A job that looks further ahead breaks
    /// that (RangePlanningTests hold every job to it).
    func plan(_ thread: ThreadSnapshot, messages: Range<Int>, tokenizer: any Tokenizer, ledger: inout JobLedger) -> [JobItem]
    /// Decodes and checks an output the engine produced for `item`: the answer, or none when the
    /// output is rejected, with the counters that say how (`rejected_greeting`, `kind:timer`…).
    func check(_ output: SealedText, for item: JobItem, outcome: GenerationOutcome) -> Checked<Answer>
    /// The quality measures (and counters that follow from them) of `answer` at `item`, where nil
    /// is the app's fallback: no chips, the lead, the relay's line, no draft.
    func score(_ answer: Answer?, for item: JobItem) -> Scored
    /// The job planning as it does, each item also saying what the words the model sees there
    /// are about (`JobItem.topic`): for fallbacks injected by topic (`FallbackInjection`). A job
    /// that asks about no words is itself.
    func labellingTopics() -> Self
}

/// An output after the job's checks: the answer, or nil when rejected; and what the checks counted.
public struct Checked<Answer: Sendable>: Sendable {
    public var answer: Answer?
    public var counters: [String: Int]

    public init(answer: Answer?, counters: [String: Int] = [:]) {
        self.answer = answer
        self.counters = counters
    }

    /// An accepted answer.
    public static func accepted(_ answer: Answer, counters: [String: Int] = [:]) -> Checked {
        Checked(answer: answer, counters: counters)
    }

    /// A rejected output, counted under `counter` when given.
    public static func rejected(_ counter: String? = nil) -> Checked {
        Checked(answer: nil, counters: counter.map { [$0: 1] } ?? [:])
    }
}

/// Quality measures of one item (0 or 1 for rates, else a size) and the counters scoring adds.
public struct Scored: Sendable, Equatable {
    public var quality: [String: Double]
    public var counters: [String: Int]

    public init(quality: [String: Double] = [:], counters: [String: Int] = [:]) {
        self.quality = quality
        self.counters = counters
    }
}

extension Job {
    public func labellingTopics() -> Self { self }

    /// Counts what the job looked at in `thread` and returns one item per place it fires.
    public func plan(_ thread: ThreadSnapshot, tokenizer: any Tokenizer, ledger: inout JobLedger) -> [JobItem] {
        plan(thread, messages: thread.messages.indices, tokenizer: tokenizer, ledger: &ledger)
    }

    /// The budget and its source: the default's source when the budget is the default number,
    /// else `flagOrConfig` (the command sets budgets only from `--budget` and `--config`).
    public var budget: Budget {
        budgetMilliseconds == Self.defaultBudget.milliseconds
            ? Self.defaultBudget
            : Budget(milliseconds: budgetMilliseconds, source: .flagOrConfig)
    }

    /// The result of an item the model was not asked about: a fallback known before asking, or
    /// (with no reason) a dry run's item that may still be answered. Nothing is scored.
    public func unasked(_ item: JobItem, reason: FallbackReason?) -> ItemResult {
        ItemResult(job: kind, attribution: item.attribution, answered: false, fallback: reason,
                   inputWasCut: item.inputWasCut, asked: false, promptTokens: item.inputTokens, outputTokens: 0,
                   hostMilliseconds: nil, deviceMilliseconds: nil, inBudgetHost: nil, inBudgetDevice: nil, place: item.place)
    }

    /// `evaluate(_:outcome:device:)` with the sizes counted in the phone's tokens
    /// (`JobItem.phoneSized`): the stand-in's own counts are its tokenizer's, a different
    /// model's, so they judge nothing.
    ///
    /// A prompt the phone's ceiling allows but the stand-in cannot hold (`contextExceeded` after
    /// planning let it through) falls back `context_exceeded` as any, and is counted
    /// `stand_in_context_exceeded`, so a run says which of its fallbacks are the stand-in's.
    public func evaluate(_ item: JobItem, outcome: GenerationOutcome, device: DeviceProfile, phoneTokens tokens: any Tokenizer) -> ItemResult {
        var result = evaluate(item, outcome: item.phoneSized(outcome, tokens: tokens), device: device)
        if case .failure(.contextExceeded) = outcome.output { result.counters[JobCounter.standInContextExceeded.rawValue, default: 0] += 1 }
        return result
    }

    /// The result of an asked item, judged the same way for every job: the engine's failures by
    /// reason, then the job's `check`, then the time budget, then `score` twice.
    ///
    /// The gate is the device estimate (`DeviceProfile`), never this host's time: the spec's
    /// budgets are the phone's ("ready within 800 ms … or they don't show"), and the host that
    /// replays is a different machine, whose time is reported (`inBudgetHost`) but decides
    /// nothing. A valid answer within the budget is shown; a later one is not (spec §2), and
    /// falls back with `timeBudget`. So `quality` scores what the person saw (the answer when
    /// shown, else `score(nil)`: the app's fallback), and `qualityAllAnswers` scores every valid
    /// answer as if it had been shown, late ones too: the model's quality apart from its speed.
    ///
    /// A prompt over the context ceiling was never evaluated: not asked, and not scored.
    public func evaluate(_ item: JobItem, outcome: GenerationOutcome, device: DeviceProfile) -> ItemResult {
        let deviceMs = device.estimatedMilliseconds(promptTokens: outcome.promptTokens, outputTokens: outcome.outputTokens)
        var fallback: FallbackReason? = nil
        var checked: Checked<Answer>? = nil
        switch outcome.output {
        case .failure(.contextExceeded): fallback = .contextExceeded
        case .failure(.decodeFailed): fallback = .engineFailure
        case .failure(.refused): fallback = .refusal
        case .failure(.guardrailViolation): fallback = .guardrailViolation
        case .failure(.rateLimited): fallback = .rateLimited
        case .failure(.outputTruncated), .failure(.grammarDeadEnd): fallback = .invalidOutput
        case .success(let text):
            checked = check(text, for: item, outcome: outcome)
            if checked?.answer == nil { fallback = .invalidOutput }
        }
        let answer = checked?.answer
        let asked = fallback != .contextExceeded
        let shown = answer != nil && deviceMs <= budgetMilliseconds
        if answer != nil && !shown { fallback = .timeBudget }
        var result = ItemResult(
            job: kind, attribution: item.attribution, answered: shown, fallback: fallback,
            inputWasCut: item.inputWasCut, asked: asked, promptTokens: outcome.promptTokens, outputTokens: outcome.outputTokens,
            hostMilliseconds: asked ? outcome.hostMilliseconds : nil, deviceMilliseconds: asked ? deviceMs : nil,
            inBudgetHost: asked ? answer != nil && outcome.hostMilliseconds <= budgetMilliseconds : nil,
            inBudgetDevice: asked ? shown : nil,
            counters: checked?.counters ?? [:], place: item.place)
        guard asked else { return result }
        let seen = score(shown ? answer : nil, for: item)
        result.quality = seen.quality
        result.qualityAllAnswers = score(answer, for: item).quality
        result.counters.merge(seen.counters) { $0 + $1 }
        return result
    }
}
