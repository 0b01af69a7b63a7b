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
        case routeConfidence = "route_confidence"
        case pushMode = "push_mode"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jobs, forKey: .jobs)
        try container.encode(ResultMap(jobs.map { ($0, budgets[$0] ?? 0) }), forKey: .budgets)
        try container.encode(device, forKey: .device)
        try container.encode(threadLimit, forKey: .threadLimit)
        try container.encode(strict, forKey: .strict)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(flywheel, forKey: .flywheel)
        try container.encode(batchSize, forKey: .batchSize)
        try container.encode(labels.digest, forKey: .labels)
        try container.encode(prompts, forKey: .prompts)
        try container.encode(profiles, forKey: .profiles)
        try container.encode(injection, forKey: .injection)
        // Only when given, so a state of a run without the flag reads as before it existed.
        if let routeConfidence { try container.encode(routeConfidence, forKey: .routeConfidence) }
        // Only when not the default, for the same reason.
        if pushMode != .extension { try container.encode(pushMode, forKey: .pushMode) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let jobs = try container.decode([JobKind].self, forKey: .jobs)
        let budgets = Dictionary(try container.decode(ResultMap<JobKind, Double>.self, forKey: .budgets).pairs, uniquingKeysWith: { a, _ in a })
        let device = try container.decode(DeviceProfile.self, forKey: .device)
        self.init(jobs: jobs, budgets: budgets, device: device,
                  threadLimit: try container.decode(Int?.self, forKey: .threadLimit),
                  strict: try container.decode(Bool.self, forKey: .strict), dryRun: try container.decode(Bool.self, forKey: .dryRun),
                  flywheel: try container.decode(Bool.self, forKey: .flywheel), batchSize: try container.decode(Int.self, forKey: .batchSize),
                  labels: decoder.teamLabels.matching(try Self.labelsDigest(container)),
                  // The built-in sets in a state written before prompt sets and profiles existed.
                  prompts: container.contains(.prompts) ? try container.decode(PromptSetIdentity.self, forKey: .prompts) : PromptSet.builtIn.identity,
                  profiles: container.contains(.profiles) ? try container.decode(AppliedProfiles.self, forKey: .profiles)
                      : AppliedProfiles(.builtIn, device: device),
                  injection: container.contains(.injection) ? try container.decode(FallbackInjection?.self, forKey: .injection) : nil)
        routeConfidence = container.contains(.routeConfidence) ? try container.decode(Double.self, forKey: .routeConfidence) : nil
        if let routeConfidence, !(0..<1).contains(routeConfidence) {
            throw StateFormatError(at: container.codingPath + [CodingKeys.routeConfidence], "not a probability from 0 up to 1")
        }
        pushMode = container.contains(.pushMode) ? try container.decode(PushMode.self, forKey: .pushMode) : .extension
    }

    /// The digest of the list a state was written with: null, or absent in a state written
    /// before `--labels` existed, for none; else 64 hex digits.
    static func labelsDigest(_ container: KeyedDecodingContainer<CodingKeys>) throws -> String? {
        guard container.contains(.labels), case let value = try container.decode(ReportValue.self, forKey: .labels), value != .null else {
            return nil
        }
        guard case .label(let digest) = value, SHA256Hex.isDigest(digest) else {
            throw StateFormatError(at: container.codingPath + [CodingKeys.labels], "not the SHA-256 of a labels list")
        }
        return digest
    }
}
