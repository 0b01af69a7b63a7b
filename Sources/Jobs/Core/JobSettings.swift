import Privacy

/// The configuration keys of a job's block in report.json, in order: its budget and where the
/// number comes from, its input cap (jobs that cut), its context ceiling, then the settings only
/// it has. A key a job does not have is absent, not null.
public struct JobSettings: Codable, Sendable, Equatable {
    public var budgetMilliseconds: Double
    public var budgetSource: SettingSource
    public var inputCapTokens: Int?
    public var contextLimitTokens: Int
    public var own: Own

    /// Settings only some jobs have.
    public struct Own: Sendable, Equatable {
        /// Push: how many of the newest replies the line may draw on.
        public var newestReplies: Int?
        /// Routing: the confidence below which a guess is not kept, and where it comes from.
        public var minimumConfidence: Double?
        public var minimumConfidenceSource: SettingSource?
    }

    enum CodingKeys: String, CodingKey {
        case budgetMilliseconds = "budget_ms"
        case budgetSource = "budget_source"
        case inputCapTokens = "input_cap_tokens"
        case contextLimitTokens = "context_limit_tokens"
        case newestReplies = "newest_replies"
        case minimumConfidence = "minimum_confidence"
        case minimumConfidenceSource = "minimum_confidence_source"
    }

    public init(budgetMilliseconds: Double, budgetSource: SettingSource, inputCapTokens: Int?, contextLimitTokens: Int, own: Own) {
        self.budgetMilliseconds = budgetMilliseconds
        self.budgetSource = budgetSource
        self.inputCapTokens = inputCapTokens
        self.contextLimitTokens = contextLimitTokens
        self.own = own
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func optional<T: Decodable>(_ key: CodingKeys) throws -> T? { c.contains(key) ? try c.decode(T.self, forKey: key) : nil }
        self.init(budgetMilliseconds: try c.decode(Double.self, forKey: .budgetMilliseconds),
                  budgetSource: try c.decode(SettingSource.self, forKey: .budgetSource), inputCapTokens: try optional(.inputCapTokens),
                  contextLimitTokens: try c.decode(Int.self, forKey: .contextLimitTokens),
                  own: Own(newestReplies: try optional(.newestReplies), minimumConfidence: try optional(.minimumConfidence),
                           minimumConfidenceSource: try optional(.minimumConfidenceSource)))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(budgetMilliseconds, forKey: .budgetMilliseconds)
        try c.encode(budgetSource, forKey: .budgetSource)
        if let inputCapTokens { try c.encode(inputCapTokens, forKey: .inputCapTokens) }
        try c.encode(contextLimitTokens, forKey: .contextLimitTokens)
        if let value = own.newestReplies { try c.encode(value, forKey: .newestReplies) }
        if let value = own.minimumConfidence { try c.encode(value, forKey: .minimumConfidence) }
        if let value = own.minimumConfidenceSource { try c.encode(value, forKey: .minimumConfidenceSource) }
    }
}
