import Privacy
/// How fast a reference phone runs the on-device model, to estimate its latency from token counts.
///
/// The host that replays a corpus is not a phone, so the host's own time says little about the
/// 800 ms budget. A profile turns a request's prompt and output sizes into the phone's time:
/// `prefill × prompt tokens + output tokens ÷ decode rate`.
public struct DeviceProfile: Sendable, Equatable {
    /// The profile's name as given on the command line.
    public var name: String
    /// Milliseconds per prompt token before the first output token.
    public var prefillMillisecondsPerToken: Double
    /// Output tokens per second after the first.
    public var decodeTokensPerSecond: Double
    /// Where the figures come from.
    public var source: String

    public init(name: String, prefillMillisecondsPerToken: Double, decodeTokensPerSecond: Double, source: String) {
        self.name = name
        self.prefillMillisecondsPerToken = prefillMillisecondsPerToken
        self.decodeTokensPerSecond = decodeTokensPerSecond
        self.source = source
    }

    /// Estimated milliseconds for a request of this size on the device.
    public func estimatedMilliseconds(promptTokens: Int, outputTokens: Int) -> Double {
        Double(promptTokens) * prefillMillisecondsPerToken + Double(outputTokens) / decodeTokensPerSecond * 1000
    }

    /// Apple's published figures for its ~3B on-device model on iPhone 15 Pro: the default.
    public static var iPhone15Pro: DeviceProfile { ModelProfiles.builtIn.devices[0] }

    /// A profile by name among the built-in devices (`ModelProfiles.builtIn`), or
    /// `custom:PREFILL_MS_PER_TOKEN,TOKENS_PER_SECOND`.
    public static func named(_ name: String) -> DeviceProfile? {
        ModelProfiles.builtIn.device(named: name)
    }

    /// `custom:PREFILL_MS_PER_TOKEN,TOKENS_PER_SECOND`, or nil for any other text.
    public static func custom(_ name: String) -> DeviceProfile? {
        guard name.hasPrefix("custom:") else { return nil }
        let numbers = name.dropFirst("custom:".count).split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 2, numbers[0] >= 0, numbers[1] > 0, numbers.allSatisfy(\.isFinite) else { return nil }
        return DeviceProfile(name: name, prefillMillisecondsPerToken: numbers[0], decodeTokensPerSecond: numbers[1], source: "given on the command line")
    }
}

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
}
