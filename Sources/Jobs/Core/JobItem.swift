import Privacy
import Engine

/// One place where a job fires: the request for the model, or the reason it falls back before asking.
public struct JobItem: Sendable {
    public var job: JobKind
    public var attribution: Attribution
    /// The request; nil when the job fell back before the model was asked.
    public var request: GenerationRequest?
    /// Why the job gives no answer without asking (for example the context ceiling).
    public var earlyFallback: FallbackReason?
    /// Tokens of the job's input words after any cut (what the spec's caps apply to).
    public var inputTokens: Int
    /// Whether the input words were cut to the job's cap.
    public var inputWasCut: Bool
    /// The request's whole size in tokens (`Tokenizer.promptTokenCount`) when planning already
    /// worked it out from the words it counted; nil: count the request.
    public var promptTokens: Int?
    /// What the person really did next, for the quality proxies; never leaves memory.
    public var reference: SealedText?
    /// The facts of the words the answer is judged against, read at planning: the replies a
    /// push line sums up, the message a draft answers (`SourceFacts`). Never leaves memory.
    public var source: SourceFacts?
    /// Facts the job needs to judge the answer that are not words: member and agent names,
    /// what the export says happened (`meta.group.to`), labels derived at planning. Never a
    /// thread's text, so the words need not be kept until the answer comes.
    public var labels: [String: String] = [:]
    /// When the job fires, in milliseconds since 1970 (the `at` of the message it fires at): where
    /// the phone's queue places it (`PhoneQueue`); nil when the export gave no readable time.
    public var firedAtMilliseconds: Int64? = nil
    /// The expert topic the words the model sees here name (`ExpertTopic`), when the job labels
    /// topics (`Job.labellingTopics`, for fallbacks injected by topic); nil otherwise or when they
    /// name none. The category only, never a word.
    public var topic: ExpertTopic? = nil
    /// The kind of place this is when the job's report keeps it apart (routing's drawer); nil
    /// for the job's ordinary places.
    public var place: CountedPlace? = nil

    /// An item that falls back before asking because its language is not supported (spec §6).
    public static func unsupportedLanguage(job: JobKind, attribution: Attribution) -> JobItem {
        fallingBack(job: job, attribution: attribution, reason: .unsupportedLanguage)
    }

    /// An item that falls back for `reason` before the model is asked.
    public static func fallingBack(job: JobKind, attribution: Attribution, reason: FallbackReason) -> JobItem {
        JobItem(job: job, attribution: attribution, request: nil, earlyFallback: reason, inputTokens: 0, inputWasCut: false)
    }
}

/// What one item came to: numbers only, ready to be counted.
public struct ItemResult: Sendable {
    public var job: JobKind
    public var attribution: Attribution
    /// The job answered: valid output within every budget.
    public var answered: Bool
    public var fallback: FallbackReason?
    public var inputWasCut: Bool
    /// Whether the model was asked at all.
    public var asked: Bool
    public var promptTokens: Int
    public var outputTokens: Int
    public var hostMilliseconds: Double?
    public var deviceMilliseconds: Double?
    /// Whether the output was valid and came within the budget, by each clock (nil if not asked).
    public var inBudgetHost: Bool?
    public var inBudgetDevice: Bool?
    /// When the job fired (`JobItem.firedAtMilliseconds`), for the phone's queue.
    public var firedAtMilliseconds: Int64? = nil
    /// As the phone's one queue would see it (`PhoneQueue`): the time from firing to the answer,
    /// waits for the calls before it and a cold start included, and whether a valid answer came
    /// within the budget so; nil when not asked (or not judged by the queue: a dry run).
    public var queuedMilliseconds: Double? = nil
    public var inBudgetQueued: Bool? = nil
    /// Named quality measures of what the person saw (for example "exact_match" 0 or 1,
    /// "best_f1"): the answer when it was shown (valid, within the budget on the device), else the
    /// app's fallback. Empty when the model was not asked.
    public var quality: [String: Double] = [:]
    /// The same measures with every valid answer scored as if shown, late ones too.
    public var qualityAllAnswers: [String: Double] = [:]
    /// Job-specific events this item adds to the job's `counters` (for example "kind:timer",
    /// "rejected_greeting", "confusion:Sage->lead"), since they are known only once the model answered.
    public var counters: [String: Int] = [:]
    /// The item's kind of place when its job's report keeps it apart (`JobItem.place`).
    public var place: CountedPlace? = nil
}
