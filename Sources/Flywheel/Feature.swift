/// One of the four on-device features the flywheel measures; the dashboard has a section per feature.
public enum Feature: String, CaseIterable, Sendable, Comparable, Codable {
    /// Reply chips under a screen that asks in words (spec §2).
    case chips
    /// Routing a person's message in a group (spec §3).
    case route
    /// Drafts shown while offline (spec §5).
    case draft
    /// Push notifications for agents' messages (spec §4).
    case push

    /// The section heading in the dashboard.
    public var title: String {
        switch self {
        case .chips: return "Reply chips"
        case .route: return "Routing in groups"
        case .draft: return "Offline drafts"
        case .push: return "Pushes"
        }
    }

    /// What the feature's shares are taken of, for the dashboard's text.
    public var population: String {
        switch self {
        case .chips: return "person replies that directly follow a chip-eligible agent screen (a say ending in a question, nothing to tap)"
        case .route: return "person messages in group threads"
        case .draft: return "person messages sent offline (meta.offline)"
        case .push: return "agent messages that carried a push"
        }
    }

    /// The metrics of this feature, in report order.
    public var metrics: [Metric] { Metric.allCases.filter { $0.feature == self } }

    public static func < (a: Feature, b: Feature) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
