import Privacy

/// The `audit` object of a run's report and state under `replay audit`: how many prompts were
/// sent, how many carried the canary, how many outputs were fingerprinted. Null outside an audit.
public struct AuditCounts: Codable, Sendable, Equatable {
    public var prompts: Int
    public var promptsWithCanary: Int
    public var outputs: Int

    enum CodingKeys: String, CodingKey {
        case prompts
        case promptsWithCanary = "prompts_with_canary"
        case outputs
    }
}
