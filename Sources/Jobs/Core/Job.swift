import Engine

/// A job of the phone's model, replayed: where it fires, what it asks, and how to judge the answer.
public protocol Job: Sendable {
    /// Which job this is.
    var kind: JobKind { get }
    /// The job's time budget in milliseconds: an answer later than this is not shown.
    var budgetMilliseconds: Double { get }
    /// Counts what the job looked at in `thread` and returns one item per place it fires.
    func plan(_ thread: ThreadSnapshot, tokenizer: any Tokenizer, ledger: inout JobLedger) -> [JobItem]
    /// Judges the model's answer to `item`: validity, budgets and quality, as numbers.
    func evaluate(_ item: JobItem, outcome: GenerationOutcome, device: DeviceProfile) -> ItemResult
}

extension Job {
    /// The result of an item the model was not asked about: a fallback known before asking, or
    /// (with no reason) a dry run's item that may still be answered.
    public func unasked(_ item: JobItem, reason: FallbackReason?) -> ItemResult {
        ItemResult(job: kind, attribution: item.attribution, answered: false, fallback: reason,
                   inputWasCut: item.inputWasCut, asked: false, promptTokens: item.inputTokens, outputTokens: 0,
                   hostMilliseconds: nil, deviceMilliseconds: nil, inBudgetHost: nil, inBudgetDevice: nil)
    }
}

extension Job {
    /// The result of an asked item, judged the same way for every job: the engine's failures by
    /// reason, then the job's own acceptance of the output, then the time budget by both clocks.
    ///
    /// `accepted` is the job's verdict on a successful output (it decoded against the schema and
    /// passed the checks after generation); it is ignored when the engine failed. A prompt over
    /// the context ceiling was never evaluated, so it counts as not asked. Quality is the caller's:
    /// like chips, a valid answer is scored even when it came too late.
    public func judged(_ item: JobItem, outcome: GenerationOutcome, device: DeviceProfile, accepted: Bool,
                       quality: [String: Double] = [:], counters: [String: Int] = [:]) -> ItemResult {
        let deviceMs = device.estimatedMilliseconds(promptTokens: outcome.promptTokens, outputTokens: outcome.outputTokens)
        var fallback: FallbackReason? = nil
        switch outcome.output {
        case .failure(.contextExceeded): fallback = .contextExceeded
        case .failure(.decodeFailed): fallback = .engineFailure
        case .failure(.outputTruncated), .failure(.grammarDeadEnd): fallback = .invalidOutput
        case .success: if !accepted { fallback = .invalidOutput }
        }
        let valid = fallback == nil
        let asked = fallback != .contextExceeded
        if valid && deviceMs > budgetMilliseconds { fallback = .timeBudget }
        return ItemResult(
            job: kind, attribution: item.attribution, answered: fallback == nil, fallback: fallback,
            inputWasCut: item.inputWasCut, asked: asked, promptTokens: outcome.promptTokens, outputTokens: outcome.outputTokens,
            hostMilliseconds: asked ? outcome.hostMilliseconds : nil, deviceMilliseconds: asked ? deviceMs : nil,
            inBudgetHost: asked ? valid && outcome.hostMilliseconds <= budgetMilliseconds : nil,
            inBudgetDevice: asked ? valid && deviceMs <= budgetMilliseconds : nil,
            quality: quality, counters: counters)
    }
}
