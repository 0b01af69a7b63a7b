import Privacy

/// `device` of a report, `options.device` of a state: the profile's name (a built-in device, a
/// custom one or a team's), its two speeds and where they come from.
extension DeviceProfile: Codable {
    enum CodingKeys: String, CodingKey {
        case name = "profile"
        case prefillMillisecondsPerToken = "prefill_ms_per_token"
        case decodeTokensPerSecond = "decode_tokens_per_s"
        case source
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(DeviceName.self, forKey: .name).text,
                  prefillMillisecondsPerToken: try container.decode(Double.self, forKey: .prefillMillisecondsPerToken),
                  decodeTokensPerSecond: try container.decode(Double.self, forKey: .decodeTokensPerSecond),
                  source: try container.decode(Prose.self, forKey: .source).text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(prefillMillisecondsPerToken, forKey: .prefillMillisecondsPerToken)
        try container.encode(decodeTokensPerSecond, forKey: .decodeTokensPerSecond)
        try container.encode(source, forKey: .source)
    }
}
