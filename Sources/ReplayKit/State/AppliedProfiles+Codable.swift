import Privacy

/// `run.profiles` of a report, `options.profiles` of a state: names are tokens, versions model
/// labels, languages locale subtags, the source prose.
extension AppliedProfiles: Codable {
    enum CodingKeys: String, CodingKey {
        case name, sha256, versions
        case unknownModel = "unknown_model"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(TokenLabel.self, forKey: .name).text, sha256: try container.decode(SHA256Hex.self, forKey: .sha256).text,
                  unknownModel: try container.decode(TokenLabel.self, forKey: .unknownModel).text,
                  versions: try container.decode([Version].self, forKey: .versions))
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, SHA256Hex.isDigest(sha256) else {
            throw StateFormatError(at: container.codingPath, "not a profiles file's name and SHA-256")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(unknownModel, forKey: .unknownModel)
        try container.encode(versions, forKey: .versions)
    }
}

extension AppliedProfiles.Version: Codable {
    enum CodingKeys: String, CodingKey {
        case name, from, below, languages, source
        case contextTokens = "context_tokens"
        case prefillMillisecondsPerToken = "prefill_ms_per_token"
        case decodeTokensPerSecond = "decode_tokens_per_s"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(TokenLabel.self, forKey: .name).text, from: try c.decode(ModelLabel.self, forKey: .from).text,
                  below: try c.decode(ModelLabel?.self, forKey: .below)?.text, contextTokens: try c.decode(Int.self, forKey: .contextTokens),
                  languages: try c.decode([LocaleLabel].self, forKey: .languages).map(\.text),
                  prefillMillisecondsPerToken: try c.decode(Double.self, forKey: .prefillMillisecondsPerToken),
                  decodeTokensPerSecond: try c.decode(Double.self, forKey: .decodeTokensPerSecond),
                  source: try c.decode(Prose.self, forKey: .source).text)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(from, forKey: .from)
        try c.encode(below, forKey: .below)
        try c.encode(contextTokens, forKey: .contextTokens)
        try c.encode(languages, forKey: .languages)
        try c.encode(prefillMillisecondsPerToken, forKey: .prefillMillisecondsPerToken)
        try c.encode(decodeTokensPerSecond, forKey: .decodeTokensPerSecond)
        try c.encode(source, forKey: .source)
    }
}
