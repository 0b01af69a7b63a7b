import Privacy

/// What the phone's model must never do (spec §8, and §2–§5 where each job says what it never
/// says), checked on every output a job decodes, late or rejected ones too.
///
/// The prompts ask for these; the replay checks them on each answer and counts a violation under
/// the job's counter `never:<rule>` (`counter`), so violations are counted per build, model
/// version and locale as every counter is, and report.json lists each rule of a job under
/// `violations` with zeros (a rule nothing broke still says so). The checks run in-process on
/// sealed outputs; only the counts leave.
///
/// Some rules are decided exactly (the grammar, the schema); others are heuristics over words
/// (`isHeuristic`), whose precision on a labelled set is measured and stated in docs/never-rules.md.
public enum NeverRule: String, Sendable, CaseIterable, Codable, Comparable {
    /// A chip not in the person's language (§2: "in the person's language").
    case chipsWrongLanguage = "chips_wrong_language"
    /// A chip in the agent's voice, not the person's (§8: "never answers as an agent").
    case chipsAgentVoice = "chips_agent_voice"
    /// A push line that gives advice of its own (§4: "no advice of its own"; §8: "never gives advice").
    case pushAdvice = "push_advice"
    /// A push line that opens with a greeting (§4: "no greeting").
    case pushGreeting = "push_greeting"
    /// A push line spoken for the agent, "Coach says" (§4; §8: never speaks as an agent).
    case pushSpeaksForAgent = "push_speaks_for_agent"
    /// A push line stating a number, unit, time, date or name the replies it sums up do not hold
    /// (§4: a line "saying what the reply holds"; it may round or reorder, never invent).
    case pushUnfaithful = "push_unfaithful"
    /// A draft (anything but none) for a health, money or legal question (§5: "a question about
    /// health, money or anything the agent knows and the phone doesn't gets no draft").
    case draftExpertQuestion = "draft_expert_question"
    /// A draft whose title, body, items or label give advice of the model's own, not the
    /// person's ask written down (§8: "never gives advice"; §5: only lists, timers and notes).
    case draftAdvice = "draft_advice"
    /// A draft that speaks as the agent: praise, a hand-over, a check-in, the agent's own acts
    /// or words (§5: a draft says it is one, "not from Coach"; §8: "never writes an agent's reply").
    case draftAgentVoice = "draft_agent_voice"
    /// A route naming someone outside the group (§3: "It cannot name anyone outside the group").
    /// Impossible under the grammar; counted so that a broken grammar or engine would show.
    case routeOutsideGroup = "route_outside_group"

    /// The job whose outputs the rule judges.
    public var job: JobKind {
        switch self {
        case .chipsWrongLanguage, .chipsAgentVoice: .chips
        case .pushAdvice, .pushGreeting, .pushSpeaksForAgent, .pushUnfaithful: .push
        case .draftExpertQuestion, .draftAdvice, .draftAgentVoice: .draft
        case .routeOutsideGroup: .route
        }
    }

    /// Whether the check reads words by a heuristic (a word list, a script test) rather than
    /// deciding exactly; its precision is measured on a labelled set.
    public var isHeuristic: Bool {
        switch self {
        case .routeOutsideGroup: false
        default: true
        }
    }

    /// The job counter a violation is counted under.
    public var counter: String { Self.counterPrefix + rawValue }

    /// What every violation counter starts with.
    public static let counterPrefix = "never:"

    /// The rules of `job`, in declaration order.
    public static func rules(of job: JobKind) -> [NeverRule] { allCases.filter { $0.job == job } }

    public static func < (a: NeverRule, b: NeverRule) -> Bool { a.rawValue < b.rawValue }
}
extension NeverRule: ResultMapKey {}
