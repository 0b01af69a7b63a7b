/// One of the four on-device features the flywheel measures, or the spec's contract checks
/// (`SpecContract`), which hold the app's messages to the spec; the dashboard has a section for each.
public enum Feature: String, CaseIterable, Sendable, Comparable, Codable {
    /// Reply chips under a screen that asks in words (spec §2).
    case chips
    /// Routing a person's message in a group (spec §3).
    case route
    /// Drafts shown while offline (spec §5).
    case draft
    /// Push notifications for agents' messages (spec §4).
    case push
    /// Whether the export shows the app kept the spec (`SpecContract`): not a feature of the
    /// app, the checks its messages must pass.
    case contract

    /// The section heading in the dashboard.
    public var title: String {
        switch self {
        case .chips: return "Reply chips"
        case .route: return "Routing in groups"
        case .draft: return "Offline drafts"
        case .push: return "Pushes"
        case .contract: return "Spec contract checks"
        }
    }

    /// What the feature's shares are taken of, for the dashboard's text.
    public var population: String {
        switch self {
        case .chips: return "person replies that directly follow a chip-eligible agent screen (a say ending in a question, nothing to tap)"
        case .route: return "person messages in group threads"
        case .draft: return "person messages sent offline (meta.offline)"
        case .push: return "agent messages that carried a push"
        case .contract: return "person messages (the rows the app writes); each check is taken over the messages that carry what it checks"
        }
    }

    /// The metrics of this feature, in report order.
    public var metrics: [Metric] { Metric.allCases.filter { $0.feature == self } }

    public static func < (a: Feature, b: Feature) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
