/// What every job is set with to ask the model, held once instead of by each job: its time
/// budget, the session's token ceiling, the most tokens the model may write, the languages it may
/// answer in and the words it asks with. `RequestWriter` writes every request from them.
public struct AskSettings: Sendable {
    /// The time budget in milliseconds: an answer later than this on the device is not shown.
    public var budgetMilliseconds: Double
    /// The session's token ceiling (the phone's 4,096).
    public var contextLimit: Int
    /// The most tokens the model may write: what the job's answer and its JSON take at the most.
    public var maxOutputTokens: Int
    /// The languages the job may answer in; a place in another falls back (spec §6).
    public var supportedLanguages: SupportedLanguages
    /// The instructions and the words of the prompt: the prompt set's part for the job.
    public var prompts: JobPrompts
    /// Whether each place's item says what its words are about (`JobItem.topic`): only a run
    /// whose injected fallbacks follow topics pays for reading them (`Job.labellingTopics`).
    public var labelsTopics = false
}

/// A job set by `AskSettings`: every job of the spec. Its budget is the settings' own.
protocol AskingJob: Job {
    var asking: AskSettings { get set }
}

extension AskingJob {
    public var budgetMilliseconds: Double { asking.budgetMilliseconds }

    public func labellingTopics() -> Self {
        var job = self
        job.asking.labelsTopics = true
        return job
    }
}
