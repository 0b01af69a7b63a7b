import Privacy
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
    /// The phone's queue figures: cold start, idle unload, prewarm lead (`PhoneQueueModel`).
    public var queue: Queue
    /// An upgrade preview's version (`--as-model-version`): every place was judged as this
    /// version would run it. Absent in a run of the corpus as recorded.
    @OmittedWhenNil public var asModelVersion: ModelLabel?

    /// The phone's queue figures as report.json and a state write them.
    public struct Queue: Codable, Sendable, Equatable {
        public var coldStartMilliseconds: Double
        public var idleUnloadSeconds: Double
        public var prewarmLeadMilliseconds: Double
        public var source: Prose

        enum CodingKeys: String, CodingKey {
            case coldStartMilliseconds = "cold_start_ms"
            case idleUnloadSeconds = "idle_unload_s"
            case prewarmLeadMilliseconds = "prewarm_lead_ms"
            case source
        }

        public init(_ model: PhoneQueueModel) {
            coldStartMilliseconds = model.coldStartMilliseconds
            idleUnloadSeconds = model.idleUnloadMilliseconds / 1000
            prewarmLeadMilliseconds = model.prewarmLeadMilliseconds
            source = Prose(model.source)
        }
    }

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
        /// Characters per phone token, by script, written in the scripts' order.
        @SortedMap<PhoneTokenRates.Script, Double> public var charactersPerToken: [PhoneTokenRates.Script: Double] = [:]
        public var framingTokens: Int = 0
        /// Where the token figures come from.
        public var tokensSource: String = ""
    }

    public init(name: String, sha256: String, unknownModel: String, versions: [Version], queue: Queue = Queue(ModelProfiles.estimatedQueue),
                asModelVersion: String? = nil) {
        self.queue = queue
        self.name = name
        self.sha256 = sha256
        self.unknownModel = unknownModel
        self.versions = versions
        self.asModelVersion = asModelVersion.map { ModelLabel($0) }
    }

    /// `profiles` as `device` runs each of its versions.
    public init(_ profiles: ModelProfiles, device: DeviceProfile) {
        self.init(name: profiles.name, sha256: profiles.sha256, unknownModel: profiles.unknownModel.name,
                  versions: profiles.models.map { model in
                      let running = model.running(on: device)
                      return Version(name: model.name, from: model.from.description, below: model.below?.description,
                                     contextTokens: model.contextTokens(on: device.name), languages: model.languages.sorted(),
                                     prefillMillisecondsPerToken: running.prefillMillisecondsPerToken,
                                     decodeTokensPerSecond: running.decodeTokensPerSecond, source: model.source,
                                     charactersPerToken: model.tokens.charactersPerToken,
                                     framingTokens: model.tokens.framingTokens, tokensSource: model.tokens.source)
                  }, queue: Queue(profiles.queue), asModelVersion: profiles.previewVersion)
    }

    /// "built-in (SHA-256 0123456789ab)".
    public var summary: String { "\(name) (SHA-256 \(sha256.prefix(12)))" }
}

/// `run.profiles` of a report, `options.profiles` of a state: names are tokens, versions model
/// labels, languages locale subtags, the source prose.
extension AppliedProfiles: Codable {
    enum CodingKeys: String, CodingKey {
        case name, sha256
        case unknownModel = "unknown_model"
        case versions, queue
        case asModelVersion = "as_model_version"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(TokenLabel.self, forKey: .name).text, sha256: try container.decode(SHA256Hex.self, forKey: .sha256).text,
                  unknownModel: try container.decode(TokenLabel.self, forKey: .unknownModel).text,
                  versions: try container.decode([Version].self, forKey: .versions),
                  queue: try container.decode(Queue.self, forKey: .queue),
                  asModelVersion: try container.decode(OmittedWhenNil<ModelLabel>.self, forKey: .asModelVersion).wrappedValue?.text)
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, SHA256Hex.isDigest(sha256) else {
            throw StateFormatError(at: container.codingPath, "not a profiles file's name and SHA-256")
        }
    }
}

extension AppliedProfiles.Version: Codable {
    enum CodingKeys: String, CodingKey {
        case name, from, below
        case contextTokens = "context_tokens"
        case languages
        case prefillMillisecondsPerToken = "prefill_ms_per_token"
        case decodeTokensPerSecond = "decode_tokens_per_s"
        case source
        case charactersPerToken = "chars_per_token"
        case framingTokens = "framing_tokens"
        case tokensSource = "tokens_source"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try c.decode(TokenLabel.self, forKey: .name).text, from: try c.decode(ModelLabel.self, forKey: .from).text,
                  below: try c.decode(ModelLabel?.self, forKey: .below)?.text, contextTokens: try c.decode(Int.self, forKey: .contextTokens),
                  languages: try c.decode([LocaleLabel].self, forKey: .languages).map(\.text),
                  prefillMillisecondsPerToken: try c.decode(Double.self, forKey: .prefillMillisecondsPerToken),
                  decodeTokensPerSecond: try c.decode(Double.self, forKey: .decodeTokensPerSecond),
                  source: try c.decode(Prose.self, forKey: .source).text,
                  charactersPerToken: try c.decode(SortedMap<PhoneTokenRates.Script, Double>.self, forKey: .charactersPerToken).wrappedValue,
                  framingTokens: try c.decode(Int.self, forKey: .framingTokens),
                  tokensSource: try c.decode(Prose.self, forKey: .tokensSource).text)
        guard Set(charactersPerToken.keys) == Set(PhoneTokenRates.Script.allCases) else {
            throw StateFormatError(at: c.codingPath + [CodingKeys.charactersPerToken], "not a rate for each script")
        }
    }
}
