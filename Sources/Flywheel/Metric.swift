import Privacy
/// One measured quantity: a share (how many of a population) or a mean (a sum over a count).
///
/// The `contract.*` metrics are the spec's contract checks (`SpecContract`): each counts the
/// places where the export shows the app broke a rule of the on-device spec, as a share of the
/// messages the rule is about; their numerator is the count, and 0 is a result too.
///
/// Every metric is stored as two integers, its numerator and denominator, so counters of two
/// halves of a corpus add up exactly to the counter of the whole; rates and intervals are derived.
public enum Metric: Int, CaseIterable, Sendable, Comparable {
    /// Chip-eligible replies sent with `meta.via == "suggested"`.
    case chipsSuggested
    /// Group person messages that name a member (`@Name`, case-insensitive).
    case routeNamed
    /// Group person messages, not named, sent as the phone guessed (`group.routed == "on-device"`).
    case routeGuessedKept
    /// Group person messages, not named, with `group.to` and no `routed`: the person changed the pill.
    case routeChose
    /// Group person messages, not named, with no `group.to` and no `routed`: they went to the lead.
    case routeLead
    /// Offline person messages whose draft was used (non-empty `draft_ticks`).
    case draftUsed
    /// Ticks per used draft: total ticks over offline messages with non-empty `draft_ticks`.
    case draftTicksMean
    /// Pushes of kind `reply`.
    case pushReply
    /// Pushes of kind `handoff`.
    case pushHandoff
    /// Pushes of kind `quote`.
    case pushQuote
    /// Pushes of any other kind.
    case pushOther
    /// Pushes covering one reply.
    case pushBatch1
    /// Pushes covering two replies.
    case pushBatch2
    /// Pushes covering three replies.
    case pushBatch3
    /// Pushes covering four replies.
    case pushBatch4
    /// Pushes covering five to nine replies.
    case pushBatch5to9
    /// Pushes covering ten or more replies.
    case pushBatch10Plus
    /// Replies per push: the sum of `batch` over all pushes.
    case pushBatchMean
    /// Person messages sent from a chip (`via == "suggested"`) where no chip may show: not
    /// directly after a chip-eligible agent screen (spec §2).
    case contractChipNotOffered
    /// Group person messages with `group.routed` that name a member (`@Name`): a named message
    /// is not a guess (spec §3).
    case contractRoutedNamed
    /// Person messages with `draft_ticks` that were not sent offline (spec §5).
    case contractTicksNotOffline
    /// Person messages whose `meta` (or `meta.group`) holds a key the format does not define.
    case contractMetaExtraKey
    /// Person messages whose `meta` holds a value the spec does not allow (`SpecContract.holdsValueOffSpec`).
    case contractMetaOffSpec

    /// The metric's name in metrics.csv and metrics.json (stable; part of the schema).
    public var name: String {
        switch self {
        case .chipsSuggested: return "chips.suggested"
        case .routeNamed: return "route.named"
        case .routeGuessedKept: return "route.guessed_kept"
        case .routeChose: return "route.chose"
        case .routeLead: return "route.lead"
        case .draftUsed: return "draft.used"
        case .draftTicksMean: return "draft.ticks_mean"
        case .pushReply: return "push.kind.reply"
        case .pushHandoff: return "push.kind.handoff"
        case .pushQuote: return "push.kind.quote"
        case .pushOther: return "push.kind.other"
        case .pushBatch1: return "push.batch.1"
        case .pushBatch2: return "push.batch.2"
        case .pushBatch3: return "push.batch.3"
        case .pushBatch4: return "push.batch.4"
        case .pushBatch5to9: return "push.batch.5-9"
        case .pushBatch10Plus: return "push.batch.10+"
        case .pushBatchMean: return "push.batch_mean"
        case .contractChipNotOffered: return "contract.chip_not_offered"
        case .contractRoutedNamed: return "contract.routed_named"
        case .contractTicksNotOffline: return "contract.ticks_not_offline"
        case .contractMetaExtraKey: return "contract.meta_extra_key"
        case .contractMetaOffSpec: return "contract.meta_off_spec"
        }
    }

    /// The metric with this `name`, if any.
    public init?(name: String) {
        guard let metric = Metric.allCases.first(where: { $0.name == name }) else { return nil }
        self = metric
    }

    /// The feature it belongs to.
    public var feature: Feature {
        switch self {
        case .chipsSuggested: return .chips
        case .routeNamed, .routeGuessedKept, .routeChose, .routeLead: return .route
        case .draftUsed, .draftTicksMean: return .draft
        case .pushReply, .pushHandoff, .pushQuote, .pushOther,
             .pushBatch1, .pushBatch2, .pushBatch3, .pushBatch4, .pushBatch5to9, .pushBatch10Plus, .pushBatchMean:
            return .push
        case .contractChipNotOffered, .contractRoutedNamed, .contractTicksNotOffline, .contractMetaExtraKey, .contractMetaOffSpec:
            return .contract
        }
    }

    /// Whether this is a mean (a sum over a count, no interval) rather than a share.
    public var isMean: Bool { self == .draftTicksMean || self == .pushBatchMean }

    /// A short label for legends and tables.
    public var label: String {
        switch self {
        case .chipsSuggested: return "sent from a chip"
        case .routeNamed: return "named (@Name)"
        case .routeGuessedKept: return "guessed and kept"
        case .routeChose: return "person chose"
        case .routeLead: return "to the lead, no routing"
        case .draftUsed: return "draft used"
        case .draftTicksMean: return "ticks per used draft"
        case .pushReply: return "reply"
        case .pushHandoff: return "handoff"
        case .pushQuote: return "quote"
        case .pushOther: return "other kind"
        case .pushBatch1: return "1 reply"
        case .pushBatch2: return "2 replies"
        case .pushBatch3: return "3 replies"
        case .pushBatch4: return "4 replies"
        case .pushBatch5to9: return "5-9 replies"
        case .pushBatch10Plus: return "10+ replies"
        case .pushBatchMean: return "replies per push"
        case .contractChipNotOffered: return "chip sent where none may show"
        case .contractRoutedNamed: return "routed though named (@Name)"
        case .contractTicksNotOffline: return "draft ticks, not offline"
        case .contractMetaExtraKey: return "meta key the format does not define"
        case .contractMetaOffSpec: return "meta value the spec does not allow"
        }
    }

    /// What the numerator and the denominator count, for metrics.json and the dashboard.
    public var definition: String {
        switch self {
        case .chipsSuggested:
            return "numerator: replies sent with meta.via = suggested; denominator: person replies directly following a chip-eligible agent screen"
        case .routeNamed:
            return "numerator: messages naming a member as @Name (case-insensitive); denominator: person messages in group threads"
        case .routeGuessedKept:
            return "numerator: not named, meta.group.routed = on-device; denominator: person messages in group threads"
        case .routeChose:
            return "numerator: not named, meta.group.to without routed (the pill was changed); denominator: person messages in group threads"
        case .routeLead:
            return "numerator: not named, no meta.group.to and no routed (went to the lead); denominator: person messages in group threads"
        case .draftUsed:
            return "numerator: offline messages with non-empty meta.draft_ticks; denominator: person messages with meta.offline = true"
        case .draftTicksMean:
            return "mean: numerator is the total number of ticks, denominator the offline messages with non-empty meta.draft_ticks"
        case .pushReply, .pushHandoff, .pushQuote:
            return "numerator: pushes of kind \(label); denominator: agent messages with a push"
        case .pushOther:
            return "numerator: pushes of a kind other than reply, handoff, quote; denominator: agent messages with a push"
        case .pushBatch1, .pushBatch2, .pushBatch3, .pushBatch4, .pushBatch5to9, .pushBatch10Plus:
            return "numerator: pushes covering \(label); denominator: agent messages with a push"
        case .pushBatchMean:
            return "mean: numerator is the sum of push.batch, denominator the agent messages with a push"
        case .contractChipNotOffered:
            return "numerator: replies sent with meta.via = suggested that do not directly follow a chip-eligible agent screen "
                + "(a screen whose last say asks a question and that has nothing to tap: a choose, pick, ask, form or slide gets no chips); "
                + "denominator: person messages with meta.via = suggested"
        case .contractRoutedNamed:
            return "numerator: messages naming a member as @Name that carry meta.group.routed (an @name always wins: the model is not asked); "
                + "denominator: person messages in group threads with meta.group.routed"
        case .contractTicksNotOffline:
            return "numerator: messages with meta.draft_ticks and no meta.offline = true (ticks are made on a draft, which shows only offline); "
                + "denominator: person messages with meta.draft_ticks"
        case .contractMetaExtraKey:
            return "numerator: messages whose meta or meta.group holds a key the export format does not define "
                + "(its name and value are never read, only counted); denominator: person messages"
        case .contractMetaOffSpec:
            return "numerator: messages with meta.via other than suggested or typed, meta.group.routed other than on-device, "
                + "meta.group.to not naming a member of the thread's group, or meta.model not a version number; denominator: person messages"
        }
    }

    /// The section of the on-device spec a contract check holds the app to; nil for the usage
    /// metrics.
    public var specSection: String? {
        switch self {
        case .contractChipNotOffered: return "§2"
        case .contractRoutedNamed: return "§3"
        case .contractTicksNotOffline: return "§5"
        case .contractMetaExtraKey: return "§9, §10"
        case .contractMetaOffSpec: return "§1, §2, §3"
        default: return nil
        }
    }

    /// Whether this is a contract check (`SpecContract`): its numerator counts the places where
    /// the export shows the app broke the spec.
    public var isContractCheck: Bool { feature == .contract }

    /// The batch-size metric a push of `batch` unread replies counts under.
    static func batchBucket(_ batch: Int) -> Metric {
        switch batch {
        case ...1: return .pushBatch1
        case 2: return .pushBatch2
        case 3: return .pushBatch3
        case 4: return .pushBatch4
        case 5...9: return .pushBatch5to9
        default: return .pushBatch10Plus
        }
    }

    /// The kind metric a push of `kind` counts under.
    static func pushKind(_ kind: String) -> Metric {
        switch kind {
        case "reply": return .pushReply
        case "handoff": return .pushHandoff
        case "quote": return .pushQuote
        default: return .pushOther
        }
    }

    public static func < (a: Metric, b: Metric) -> Bool { a.rawValue < b.rawValue }
}

/// A metric in metrics.json: its `name`.
extension Metric: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let metric = Metric(name: try container.decode(String.self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "")
        }
        self = metric
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// A metric as a key of a state's flywheel bucket: its `name`.
extension Metric: ResultMapKey {
    public var mapKey: String { name }

    public init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError) {
        guard let metric = Metric(name: text) else { throw StateFormatError(at: codingPath, "a key that is not a flywheel metric") }
        self = metric
    }
}
