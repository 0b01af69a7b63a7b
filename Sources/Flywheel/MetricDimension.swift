import Privacy

/// What a metric is broken down by; every metric is counted once under each dimension.
///
/// Keys come from message metadata and the thread line, each through its `ReportLabel` rule (kept
/// when it matches a strict pattern, else a salted hash); a missing value is the key "unknown".
/// `agent` is who the event is about: for chips the agent whose screen was answered, for pushes
/// the agent that sent the message, for person messages (routing, drafts) the thread's agent or,
/// in a group, its lead. Routing by destination would make every routing share trivially 0 or 1
/// per agent; by lead it compares groups.
public enum MetricDimension: Int, CaseIterable, Sendable, Comparable {
    /// The whole corpus, under the single key "all".
    case overall
    /// The app build (`meta.build`; for pushes, the person's last build in the thread).
    case build
    /// The on-device model version (`meta.model`; for pushes, the person's last one in the thread).
    case model
    /// The message's `lang`, else the thread's `locale`.
    case locale
    /// The agent the event is about (see the type's documentation).
    case agent
    /// The ISO week of the message's `at`, e.g. "2026-W36".
    case week

    /// The dimension's name in metrics.csv and metrics.json.
    public var name: String {
        switch self {
        case .overall: return "all"
        case .build: return "build"
        case .model: return "model"
        case .locale: return "locale"
        case .agent: return "agent"
        case .week: return "week"
        }
    }

    /// The dimension with this `name`, if any.
    public init?(name: String) {
        guard let dimension = MetricDimension.allCases.first(where: { $0.name == name }) else { return nil }
        self = dimension
    }

    /// The key of the `overall` dimension.
    public static let overallKey = "all"
    /// The key for a value that is missing or cannot be read.
    public static let unknownKey = ReportLabel.unknown.text
    /// The key the keys beyond `ReportLabel.maximumDistinct` of a capped dimension are merged into.
    public static let otherKey = ReportLabel.other.text

    /// Whether the dimension's keys come from the corpus (build, model, locale, agent), so they
    /// are capped to `ReportLabel.maximumDistinct` in what is written. Weeks are not: they are
    /// computed from timestamps, never free text, and the week axis needs every week.
    public var isCapped: Bool {
        switch self {
        case .build, .model, .locale, .agent: return true
        case .overall, .week: return false
        }
    }

    public static func < (a: MetricDimension, b: MetricDimension) -> Bool { a.rawValue < b.rawValue }
}

/// A dimension as a key of metrics.json's `cells`: its `name`.
extension MetricDimension: ResultMapKey {
    public var mapKey: String { name }

    public init(judging text: String, at codingPath: [any CodingKey], decoder: any Decoder) throws(StateFormatError) {
        guard let dimension = MetricDimension(name: text) else { throw StateFormatError(at: codingPath, "a key that is not a dimension") }
        self = dimension
    }
}
