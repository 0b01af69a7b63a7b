import Jobs
import Privacy
import ReplayKit

/// One named expectation of a case (docs/suite.md lists them with their values).
///
/// Deterministic ones are decided by the app's rules, the jobs' grammars and the model's
/// tokenizer, whatever the model writes: a failure is a bug in the app's code or the suite, and
/// such expectations belong in must cases. Model-dependent ones judge what the model answered:
/// a rate to watch per model version and prompt set, not a gate, unless the case gives the output
/// (`SuiteGivenOutput`), which makes every expectation of that case deterministic.
public enum SuiteExpectation: Sendable, Equatable {
    /// The job is eligible at the case's place (one item planned, as report.json's `eligible`).
    case fires(Bool)
    /// What the app decides before asking the model (`SuiteExpectation.fallbacks`).
    case fallback(String)
    /// The input words were cut to the job's cap (chips 600 tokens, push 1,000).
    case inputCut(Bool)
    /// The input words after the cut take at most this many of the model's tokens.
    case inputTokensAtMost(Int)
    /// An `@Name` of a member routed the message; the model was not asked.
    case namedRoute(Bool)
    /// The output decodes under the job's schema (the grammar should make it always so).
    case parses(Bool)
    /// A push reads the newest this many replies, joined and cut as the job does.
    case readsNewest(Int)
    /// The output passes the job's checks after decoding (an answer, not `invalid_output`).
    case accepted(Bool)
    /// A valid answer ready within the job's budget on the device estimate.
    case inBudget(Bool)
    /// Routing sends the message to this member, or `lead` (the lead).
    case routeTo(String)
    /// The draft's kind: checklist, timer, card or none.
    case draftKind(String)
    /// No draft (a health, money or legal question): the answer is `none`.
    case noDraft(Bool)
    /// How many chips the answer has.
    case chipsCountRange(ClosedRange<Int>)
    /// None of the job's `never:` counters (`NeverRule`) fired on the output.
    case noViolations(Bool)

    /// The expectation's key in a suite file and name in the results.
    public var name: Name {
        switch self {
        case .fires: .fires
        case .fallback: .fallback
        case .inputCut: .inputCut
        case .inputTokensAtMost: .inputTokensAtMost
        case .namedRoute: .namedRoute
        case .parses: .parses
        case .readsNewest: .readsNewest
        case .accepted: .accepted
        case .inBudget: .inBudget
        case .routeTo: .routeTo
        case .draftKind: .draftKind
        case .noDraft: .noDraft
        case .chipsCountRange: .chipsCountRange
        case .noViolations: .noViolations
        }
    }

    /// Whether the expectation is decided without regard to the model's words (docs/suite.md).
    public var isDeterministic: Bool {
        switch self {
        case .fires, .fallback, .inputCut, .inputTokensAtMost, .namedRoute, .parses, .readsNewest: true
        case .accepted, .inBudget, .routeTo, .draftKind, .noDraft, .chipsCountRange, .noViolations: false
        }
    }

    /// The values of `fallback`: what the app decides before the model is asked. `none`: nothing
    /// (the model is asked, or the job is not eligible there at all).
    public static let fallbacks = ["none", FallbackReason.unsupportedLanguage.rawValue, FallbackReason.contextExceeded.rawValue]
        + SuiteRunner.planningFallbacks.map(\.rawValue)

    /// The draft kinds `draft_kind` takes.
    public static let draftKinds = Draft.kinds

    /// An expectation's key in a suite file and name in the results (and the results' `by_name`
    /// key), in the order docs/suite.md lists them.
    public enum Name: String, Codable, Sendable, CaseIterable, CustomStringConvertible, ResultMapKey {
        case fires, fallback
        case inputCut = "input_cut", inputTokensAtMost = "input_tokens_at_most", namedRoute = "named_route"
        case readsNewest = "reads_newest"
        case parses, accepted
        case inBudget = "in_budget", noViolations = "no_violations", routeTo = "route_to", draftKind = "draft_kind"
        case noDraft = "no_draft", chipsCountRange = "chips_count_range"

        public var description: String { rawValue }
    }

    /// Every expectation's key, in the order docs/suite.md lists them.
    public static let allNames = Name.allCases.map(\.rawValue)

    /// The expectations every job has.
    static let common: [Name] = [.fires, .fallback, .parses, .accepted, .inBudget, .noViolations]

    /// The expectation keys a case of `job` may have, in the order docs/suite.md lists them.
    public static func names(for job: JobKind) -> [String] {
        let names: [Name] = switch job {
        case .chips: common + [.inputCut, .inputTokensAtMost, .chipsCountRange]
        case .route: common + [.namedRoute, .routeTo]
        case .push: common + [.inputCut, .inputTokensAtMost, .readsNewest]
        case .draft: common + [.draftKind, .noDraft]
        }
        return names.map(\.rawValue)
    }

    /// The fixed words an expectation may have observed: what the app decides before asking, and the draft kinds.
    public static let observedWords = Set(fallbacks + draftKinds)
}
