import Engine

/// What a run judged each model version by, on the run's device: the profiles' name and digest,
/// and per version its ceiling, languages and speed. What a state keeps of `--profiles` and
/// what report.json's `run.profiles` shows; states merge or resume only with the same digest.
public struct AppliedProfiles: Sendable, Equatable {
    public var name: String
    public var sha256: String
    /// The version a place whose `meta.model` no profile covers is judged as.
    public var unknownModel: String
    public var versions: [Version]

    /// One model version as the run's device runs it.
    public struct Version: Sendable, Equatable {
        public var name: String
        public var from: String
        public var below: String?
        public var contextTokens: Int
        /// Language subtags, sorted.
        public var languages: [String]
        public var prefillMillisecondsPerToken: Double
        public var decodeTokensPerSecond: Double
        public var source: String

        public init(name: String, from: String, below: String?, contextTokens: Int, languages: [String],
                    prefillMillisecondsPerToken: Double, decodeTokensPerSecond: Double, source: String) {
            self.name = name
            self.from = from
            self.below = below
            self.contextTokens = contextTokens
            self.languages = languages
            self.prefillMillisecondsPerToken = prefillMillisecondsPerToken
            self.decodeTokensPerSecond = decodeTokensPerSecond
            self.source = source
        }
    }

    public init(name: String, sha256: String, unknownModel: String, versions: [Version]) {
        self.name = name
        self.sha256 = sha256
        self.unknownModel = unknownModel
        self.versions = versions
    }

    /// `profiles` as `device` runs each of its versions.
    public init(_ profiles: ModelProfiles, device: DeviceProfile) {
        self.init(name: profiles.name, sha256: profiles.sha256, unknownModel: profiles.unknownModel.name,
                  versions: profiles.models.map { model in
                      let running = model.running(on: device)
                      return Version(name: model.name, from: model.from.description, below: model.below?.description,
                                     contextTokens: model.contextTokens(on: device.name), languages: model.languages.sorted(),
                                     prefillMillisecondsPerToken: running.prefillMillisecondsPerToken,
                                     decodeTokensPerSecond: running.decodeTokensPerSecond, source: model.source)
                  })
    }

    /// "built-in (SHA-256 0123456789ab)".
    public var summary: String { "\(name) (SHA-256 \(sha256.prefix(12)))" }
}
