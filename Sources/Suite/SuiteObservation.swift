import Jobs
import Privacy
import ReplayKit

/// What a run of a case found: the app's decisions before the model, and (once an output was
/// judged) facts about the answer. Flags, counts and fixed words only; the answer's words never
/// leave the job's checks.
struct SuiteObservation: Sendable {
    /// One item was planned at the case's place.
    var fires = false
    /// What the app decided before asking (`SuiteExpectation.fallbacks`).
    var fallback = "none"
    /// The item's input, when it has one (not after an early fallback).
    var inputCut: Bool?
    var inputTokens: Int?
    /// An `@Name` routed the message.
    var named = false
    /// The number of newest replies a push read (the one count whose joined, cut words are the
    /// item's input), nil when none is.
    var repliesRead: Int?
    /// Whether an output was judged (the model's or the given one); the rest is nil until then.
    var judged = false
    var parses: Bool?
    var accepted: Bool?
    var inBudget: Bool?
    /// How many `never:` counters the output added.
    var violations: Int?
    /// The answer after the job's checks, nil when the output was rejected.
    var answer: SuiteAnswer?
}

/// The facts of an answer the expectations judge: counts and the app's fixed words, or (routing)
/// where the message goes, a member's name as the suite spells it.
enum SuiteAnswer: Sendable, Equatable {
    case chips(count: Int)
    case route(to: String)
    case push
    case draft(kind: String)

    /// The facts of a job's checked answer, by its type.
    init?(_ answer: Any) {
        switch answer {
        case let replies as Replies: self = .chips(count: replies.replies.count)
        case let member as String: self = .route(to: member)
        case is PushLine: self = .push
        case let draft as Draft: self = .draft(kind: draft.kind)
        default: return nil
        }
    }
}
