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
