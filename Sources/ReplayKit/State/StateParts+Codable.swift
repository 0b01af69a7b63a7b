import Jobs
import Privacy

/// The smaller blocks of a state file (docs/report-schema.md), each written with its keys in the
/// documented order and optionals as `null`.

/// `"whole"`, `"first_and_last_mib"` or `"not_hashed"`.
extension CorpusIdentity.Hashed: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        guard let hashed = Self(rawValue: try decoder.singleValueContainer().decode(String.self)) else {
            throw StateFormatError(at: decoder.codingPath, "unknown 'hashed'")
        }
        self = hashed
    }
}

/// `{"path", "bytes", "hmac_sha256", "hashed"}`.
extension CorpusIdentity.File: Codable {
    enum CodingKeys: String, CodingKey {
        case path, bytes
        case digest = "hmac_sha256"
        case hashed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(digest, forKey: .digest)
        try container.encode(hashed, forKey: .hashed)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try container.decode(String.self, forKey: .path), bytes: try container.decode(Int?.self, forKey: .bytes),
                  digest: try container.decode(String?.self, forKey: .digest), hashed: try container.decode(CorpusIdentity.Hashed.self, forKey: .hashed))
    }
}

/// `"thread"` or `"file"`.
extension ShardBy: Codable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        guard let by = Self(rawValue: try decoder.singleValueContainer().decode(String.self)) else {
            throw StateFormatError(at: decoder.codingPath, "unknown shard 'by'")
        }
        self = by
    }
}

/// `{"path", "bytes", "sha256", "hashed", "unavailable", "approximate_tokens", "description"}`.
extension ModelIdentity: Codable {
    enum CodingKeys: String, CodingKey {
        case path, bytes, sha256, hashed, unavailable
        case approximateTokens = "approximate_tokens"
        case modelDescription = "description"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(hashed, forKey: .hashed)
        try container.encode(unavailable, forKey: .unavailable)
        try container.encode(approximateTokens, forKey: .approximateTokens)
        try container.encode(description, forKey: .modelDescription)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try container.decode(String?.self, forKey: .path), bytes: try container.decode(Int?.self, forKey: .bytes),
                  sha256: try container.decode(String?.self, forKey: .sha256), hashed: try container.decode(CorpusIdentity.Hashed.self, forKey: .hashed),
                  unavailable: try container.decode(String?.self, forKey: .unavailable),
                  approximateTokens: try container.decode(Bool.self, forKey: .approximateTokens),
                  description: try container.decode(ReportValue.self, forKey: .modelDescription))
    }
}

/// The `run` block: `{"started", "seconds"}`.
extension Timing: Codable {
    enum CodingKeys: String, CodingKey { case started, seconds }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(started, forKey: .started)
        try container.encode(seconds, forKey: .seconds)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(started: try container.decode(String.self, forKey: .started), seconds: try container.decode(Double.self, forKey: .seconds))
    }
}

/// `{"sequence", "events_read", "item_segments"}`.
extension Checkpoint: Codable {
    enum CodingKeys: String, CodingKey {
        case sequence
        case eventsRead = "events_read"
        case segments = "item_segments"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(eventsRead, forKey: .eventsRead)
        try container.encode(segments, forKey: .segments)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sequence: try container.decode(Int.self, forKey: .sequence), eventsRead: try container.decode(Int.self, forKey: .eventsRead),
                  segments: try container.decode([ItemSegment].self, forKey: .segments))
    }
}

/// `{"sequence", "count", "sha256"}`.
extension ItemSegment: Codable {
    enum CodingKeys: String, CodingKey { case sequence, count, sha256 }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(count, forKey: .count)
        try container.encode(sha256, forKey: .sha256)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sequence: try container.decode(Int.self, forKey: .sequence), count: try container.decode(Int.self, forKey: .count),
                  sha256: try container.decode(String.self, forKey: .sha256))
    }
}

/// A job's `prompt_sizes`: `{"prompt_tokens", "device_prefill_ms", "max_prompt_tokens",
/// "over_context", "over_budget_before_output"}`.
extension PromptSizing: Codable {
    enum CodingKeys: String, CodingKey {
        case promptTokens = "prompt_tokens"
        case devicePrefillMilliseconds = "device_prefill_ms"
        case maxPromptTokens = "max_prompt_tokens"
        case overContext = "over_context"
        case overBudgetBeforeOutput = "over_budget_before_output"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(promptTokens, forKey: .promptTokens)
        try container.encode(devicePrefillMilliseconds, forKey: .devicePrefillMilliseconds)
        try container.encode(maxPromptTokens, forKey: .maxPromptTokens)
        try container.encode(overContext, forKey: .overContext)
        try container.encode(overBudgetBeforeOutput, forKey: .overBudgetBeforeOutput)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        promptTokens = try container.decode(LogHistogram.self, forKey: .promptTokens)
        devicePrefillMilliseconds = try container.decode(LogHistogram.self, forKey: .devicePrefillMilliseconds)
        maxPromptTokens = try container.decode(Int.self, forKey: .maxPromptTokens)
        overContext = try container.decode(Int.self, forKey: .overContext)
        overBudgetBeforeOutput = try container.decode(Int.self, forKey: .overBudgetBeforeOutput)
    }
}
