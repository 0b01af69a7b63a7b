/// What one on-device model version can do, as the replay judges it: the versions it covers,
/// its session's token ceiling, the languages it answers in, how many of its tokens a text takes,
/// and (where it differs from the device's own figures) its speed on a device.
///
/// The model changes with the OS (spec §1: one for iOS 26.0 to 26.3, one for 26.4, one for 27),
/// and so does its context: 4,096 tokens on 26.x, 8,192 on 27.0 on newer devices (WWDC26
/// session 319). A screen is cut and budgeted as the version that showed it would have.
public struct ModelVersionProfile: Sendable, Equatable {
    /// The profile's name, as the report shows it ("27.0").
    public var name: String
    /// The first version it covers.
    public var from: ModelVersion
    /// The first version past it; nil: every later version.
    public var below: ModelVersion?
    /// The session's ceiling in tokens (prompt and answer together).
    public var contextTokens: Int
    /// The ceiling on named devices where it differs from `contextTokens`.
    public var contextTokensByDevice: [String: Int] = [:]
    /// The languages it answers in, as lowercased language subtags ("en", "ja").
    public var languages: Set<String>
    /// Its speed on named devices where it differs from the device's own figures.
    public var timingByDevice: [String: DeviceTiming] = [:]
    /// How many of its tokens a text takes: what its cuts, ceiling and device time count.
    public var tokens: PhoneTokenRates = .builtIn
    /// Where the numbers come from.
    public var source: String

    /// Whether `version` is one this profile covers.
    public func covers(_ version: ModelVersion) -> Bool {
        from <= version && below.map { version < $0 } ?? true
    }

    /// `device` as this version runs on it: the version's own figures for it when it gives them.
    public func running(on device: DeviceProfile) -> DeviceProfile {
        guard let timing = timingByDevice[device.name] else { return device }
        var adjusted = device
        adjusted.prefillMillisecondsPerToken = timing.prefillMillisecondsPerToken
        adjusted.decodeTokensPerSecond = timing.decodeTokensPerSecond
        return adjusted
    }

    /// The session's ceiling on the device named `device`.
    public func contextTokens(on device: String) -> Int {
        contextTokensByDevice[device] ?? contextTokens
    }
}

/// A model's speed on a device: the two numbers a latency estimate needs.
public struct DeviceTiming: Sendable, Equatable {
    public var prefillMillisecondsPerToken: Double
    public var decodeTokensPerSecond: Double
}
