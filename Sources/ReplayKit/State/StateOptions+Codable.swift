import Engine
import Jobs
import Privacy

/// A state's `options` block: what two states must share to be merged (docs/report-schema.md).
///
/// The team's list itself is never written, only its digest; reading gives the reader's list
/// (`decoder.teamLabels`) when the digests agree, else a list known by its digest only.
extension StateOptions: Codable {
    enum CodingKeys: String, CodingKey {
        case jobs
        case budgets = "budgets_ms"
        case device
        case threadLimit = "thread_limit"
        case strict
        case dryRun = "dry_run"
        case flywheel
        case batchSize = "batch_size"
        case labels, prompts, profiles
        case injection = "inject_fallbacks"
    }

    enum ProfilesKeys: String, CodingKey {
        case name, sha256, versions
        case unknownModel = "unknown_model"
    }

    enum VersionKeys: String, CodingKey {
        case name, from, below, languages, source
        case contextTokens = "context_tokens"
        case prefillMillisecondsPerToken = "prefill_ms_per_token"
        case decodeTokensPerSecond = "decode_tokens_per_s"
    }

    enum InjectionKeys: String, CodingKey {
        case rates, seed
    }

    enum DeviceKeys: String, CodingKey {
        case profile
        case prefillMillisecondsPerToken = "prefill_ms_per_token"
        case decodeTokensPerSecond = "decode_tokens_per_s"
        case source
    }

    enum PromptsKeys: String, CodingKey { case name, sha256 }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jobs.map(\.rawValue), forKey: .jobs)
        try container.encode(pairs: jobs.map { ($0.rawValue, budgets[$0] ?? 0) }, forKey: .budgets)
        var profile = container.nestedContainer(keyedBy: DeviceKeys.self, forKey: .device)
        try profile.encode(device.name, forKey: .profile)
        try profile.encode(device.prefillMillisecondsPerToken, forKey: .prefillMillisecondsPerToken)
        try profile.encode(device.decodeTokensPerSecond, forKey: .decodeTokensPerSecond)
        try profile.encode(device.source, forKey: .source)
        try container.encode(threadLimit, forKey: .threadLimit)
        try container.encode(strict, forKey: .strict)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(flywheel, forKey: .flywheel)
        try container.encode(batchSize, forKey: .batchSize)
        try container.encode(labels.digest, forKey: .labels)
        var set = container.nestedContainer(keyedBy: PromptsKeys.self, forKey: .prompts)
        try set.encode(prompts.name, forKey: .name)
        try set.encode(prompts.sha256, forKey: .sha256)
        var applied = container.nestedContainer(keyedBy: ProfilesKeys.self, forKey: .profiles)
        try applied.encode(profiles.name, forKey: .name)
        try applied.encode(profiles.sha256, forKey: .sha256)
        try applied.encode(profiles.unknownModel, forKey: .unknownModel)
        var versions = applied.nestedUnkeyedContainer(forKey: .versions)
        for version in profiles.versions {
            var fields = versions.nestedContainer(keyedBy: VersionKeys.self)
            try fields.encode(version.name, forKey: .name)
            try fields.encode(version.from, forKey: .from)
            try fields.encode(version.below, forKey: .below)
            try fields.encode(version.contextTokens, forKey: .contextTokens)
            try fields.encode(version.languages, forKey: .languages)
            try fields.encode(version.prefillMillisecondsPerToken, forKey: .prefillMillisecondsPerToken)
            try fields.encode(version.decodeTokensPerSecond, forKey: .decodeTokensPerSecond)
            try fields.encode(version.source, forKey: .source)
        }
        if let injection {
            var injected = container.nestedContainer(keyedBy: InjectionKeys.self, forKey: .injection)
            try injected.encode(pairs: FallbackInjection.Reason.allCases.map { ($0.rawValue, injection.rate($0)) }, forKey: .rates)
            try injected.encode(Int(clamping: injection.seed), forKey: .seed)   // the command takes seeds up to Int.max
        } else {
            try container.encodeNil(forKey: .injection)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var jobs: [JobKind] = []
        var names = try container.nestedUnkeyedContainer(forKey: .jobs)
        while !names.isAtEnd {
            let path = names.codingPath
            guard let kind = JobKind(rawValue: try names.decode(String.self)) else { throw StateFormatError(at: path, "unknown job") }
            jobs.append(kind)
        }
        var budgets: [JobKind: Double] = [:]
        for (name, ms) in try container.decodePairs(Double.self, forKey: .budgets) {
            guard let kind = JobKind(rawValue: name.stringValue) else {
                throw StateFormatError(at: container.codingPath + [CodingKeys.budgets, name], "a budget is not a job's number")
            }
            budgets[kind] = ms
        }
        let profile = try container.nestedContainer(keyedBy: DeviceKeys.self, forKey: .device)
        let device = DeviceProfile(name: try profile.decode(String.self, forKey: .profile),
                                   prefillMillisecondsPerToken: try profile.decode(Double.self, forKey: .prefillMillisecondsPerToken),
                                   decodeTokensPerSecond: try profile.decode(Double.self, forKey: .decodeTokensPerSecond),
                                   source: try profile.decode(String.self, forKey: .source))
        self.init(jobs: jobs, budgets: budgets, device: device,
                  threadLimit: try container.decode(Int?.self, forKey: .threadLimit),
                  strict: try container.decode(Bool.self, forKey: .strict), dryRun: try container.decode(Bool.self, forKey: .dryRun),
                  flywheel: try container.decode(Bool.self, forKey: .flywheel), batchSize: try container.decode(Int.self, forKey: .batchSize),
                  labels: decoder.teamLabels.matching(try Self.labelsDigest(container)), prompts: try Self.prompts(container),
                  profiles: try Self.profiles(container, device: device), injection: try Self.injection(container))
    }

    /// The profiles a state was judged by (name, digest, each version on the run's device); the
    /// built-in set in a state written before profiles existed, which judged by its numbers.
    static func profiles(_ container: KeyedDecodingContainer<CodingKeys>, device: DeviceProfile) throws -> AppliedProfiles {
        guard container.contains(.profiles) else { return AppliedProfiles(.builtIn, device: device) }
        let applied = try container.nestedContainer(keyedBy: ProfilesKeys.self, forKey: .profiles)
        let name = try applied.decode(String.self, forKey: .name)
        let digest = try applied.decode(String.self, forKey: .sha256)
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, isDigest(digest) else {
            throw StateFormatError("'profiles' is not a profiles file's name and SHA-256")
        }
        var versions: [AppliedProfiles.Version] = []
        var list = try applied.nestedUnkeyedContainer(forKey: .versions)
        while !list.isAtEnd {
            let fields = try list.nestedContainer(keyedBy: VersionKeys.self)
            versions.append(AppliedProfiles.Version(
                name: try fields.decode(String.self, forKey: .name), from: try fields.decode(String.self, forKey: .from),
                below: try fields.decode(String?.self, forKey: .below), contextTokens: try fields.decode(Int.self, forKey: .contextTokens),
                languages: try fields.decode([String].self, forKey: .languages),
                prefillMillisecondsPerToken: try fields.decode(Double.self, forKey: .prefillMillisecondsPerToken),
                decodeTokensPerSecond: try fields.decode(Double.self, forKey: .decodeTokensPerSecond),
                source: try fields.decode(String.self, forKey: .source)))
        }
        return AppliedProfiles(name: name, sha256: digest, unknownModel: try applied.decode(String.self, forKey: .unknownModel),
                               versions: versions)
    }

    /// The fallbacks a state's run injected, or nil (none, or a state written before injection existed).
    static func injection(_ container: KeyedDecodingContainer<CodingKeys>) throws -> FallbackInjection? {
        guard container.contains(.injection), try !container.decodeNil(forKey: .injection) else { return nil }
        let injected = try container.nestedContainer(keyedBy: InjectionKeys.self, forKey: .injection)
        var rates: [FallbackInjection.Reason: Double] = [:]
        for (name, rate) in try injected.decodePairs(Double.self, forKey: .rates) {
            guard let reason = FallbackInjection.Reason(rawValue: name.stringValue) else {
                throw StateFormatError(at: injected.codingPath + [InjectionKeys.rates, name], "not a fallback that can be injected")
            }
            rates[reason] = rate
        }
        guard let injection = FallbackInjection(rates: rates, seed: UInt64(max(0, try injected.decode(Int.self, forKey: .seed)))) else {
            throw StateFormatError(at: injected.codingPath, "rates outside 0 to 1 or adding up to more than 1")
        }
        return injection
    }

    /// The prompt set a state was written with: its name (a token) and SHA-256; the built-in set
    /// in a state written before prompt sets existed, which asked with its words.
    static func prompts(_ container: KeyedDecodingContainer<CodingKeys>) throws -> PromptSetIdentity {
        guard container.contains(.prompts) else { return PromptSet.builtIn.identity }
        let set = try container.nestedContainer(keyedBy: PromptsKeys.self, forKey: .prompts)
        let name = try set.decode(String.self, forKey: .name)
        let digest = try set.decode(String.self, forKey: .sha256)
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, Self.isDigest(digest) else {
            throw StateFormatError("'prompts' is not a prompt set's name and SHA-256")
        }
        return PromptSetIdentity(name: name, sha256: digest)
    }

    /// Whether `text` is 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The digest of the list a state was written with: null, or absent in a state written
    /// before `--labels` existed, for none; else 64 hex digits.
    static func labelsDigest(_ container: KeyedDecodingContainer<CodingKeys>) throws -> String? {
        guard container.contains(.labels), case let value = try container.decode(ReportValue.self, forKey: .labels), value != .null else {
            return nil
        }
        guard case .label(let digest) = value, isDigest(digest) else {
            throw StateFormatError(at: container.codingPath + [CodingKeys.labels], "not the SHA-256 of a labels list")
        }
        return digest
    }
}
