import Privacy

/// The configuration keys of a job's block in report.json, in order: its budget and where the
/// number comes from, its input cap (jobs that cut), its context ceiling, then the settings only
/// it has. A key a job does not have is absent, not null.
public struct JobSettings: Codable, Sendable, Equatable {
    public var budgetMilliseconds: Double
    public var budgetSource: SettingSource
    @OmittedWhenNil public var inputCapTokens: Int?
    public var contextLimitTokens: Int
    /// Push: how many of the newest replies the line may draw on.
    @OmittedWhenNil public var newestReplies: Int?
    /// Push: where the line is written (`--push-mode`).
    @OmittedWhenNil public var pushMode: PushMode?
    /// Routing: the confidence below which a guess is not kept, and where it comes from.
    @OmittedWhenNil public var minimumConfidence: Double?
    @OmittedWhenNil public var minimumConfidenceSource: SettingSource?

    /// Settings only some jobs have, as a job describes them (`JobDescription`).
    public struct Own: Sendable, Equatable {
        public var newestReplies: Int?
        public var pushMode: PushMode?
        public var minimumConfidence: Double?
        public var minimumConfidenceSource: SettingSource?
    }

    enum CodingKeys: String, CodingKey {
        case budgetMilliseconds = "budget_ms"
        case budgetSource = "budget_source"
        case inputCapTokens = "input_cap_tokens"
        case contextLimitTokens = "context_limit_tokens"
        case newestReplies = "newest_replies"
        case pushMode = "push_mode"
        case minimumConfidence = "minimum_confidence"
        case minimumConfidenceSource = "minimum_confidence_source"
    }

    public init(budgetMilliseconds: Double, budgetSource: SettingSource, inputCapTokens: Int?, contextLimitTokens: Int, own: Own) {
        self.budgetMilliseconds = budgetMilliseconds
        self.budgetSource = budgetSource
        self.inputCapTokens = inputCapTokens
        self.contextLimitTokens = contextLimitTokens
        (newestReplies, pushMode, minimumConfidence, minimumConfidenceSource) =
            (own.newestReplies, own.pushMode, own.minimumConfidence, own.minimumConfidenceSource)
    }
}
