import Export
import Jobs
import Privacy
import ReplayKit

/// What a case gives its job, in the export's own vocabulary (EXPORT_FORMAT.md), and the
/// one-thread snapshot it becomes: the job then plans it with its own `plan`, so eligibility,
/// the language check and the cuts are the app's own rules.
///
/// Words are sealed as soon as they are read; names (agents, members) are labels, as in the export.
public enum SuiteInput: Sendable {
    /// An agent's screen and the person's last message before it (spec §2).
    case chips(agent: String, screen: [ScreenNode], lastMessage: SealedText?, language: String?)
    /// A person's message in a group of `members`, `lead` among them (spec §3).
    case route(members: [GroupMember], lead: String, message: SealedText, language: String?)
    /// An agent's replies, oldest first; the push of `kind` covering `batch` replies is for the last (spec §4).
    case push(agent: String, kind: String, batch: Int, replies: [[ScreenNode]], language: String?)
    /// A person's message to `agent`, sent offline or not (spec §5).
    case draft(agent: String, message: SealedText, offline: Bool, language: String?)

    /// The job the input is for.
    public var job: JobKind {
        switch self {
        case .chips: .chips
        case .route: .route
        case .push: .push
        case .draft: .draft
        }
    }

    /// The input's own language tag, if it names one.
    public var language: String? {
        switch self {
        case .chips(_, _, _, let language), .route(_, _, _, let language), .push(_, _, _, _, let language),
             .draft(_, _, _, let language):
            language
        }
    }

    /// The id of the thread every case is played in.
    static let threadID = "t_suite"

    /// The thread the case plays, in `language` (the thread's locale; nil: none, which the app
    /// takes as the phone's own, supported), its messages carrying `modelVersion` as
    /// `meta.model`; and the id of the message the job is judged at.
    public func snapshot(language: String?, modelVersion: String?) -> (snapshot: ThreadSnapshot, target: String) {
        let thread = Self.threadID
        let meta = MessageMeta(model: modelVersion)
        switch self {
        case let .chips(agent, screen, lastMessage, _):
            var messages: [MessageRecord] = []
            if let lastMessage {
                messages.append(MessageRecord(thread: thread, id: "m0", from: .person, text: lastMessage, meta: meta))
            }
            messages.append(MessageRecord(thread: thread, id: "m1", from: .agent(agent), screen: Screen(nodes: screen), meta: meta))
            return (ThreadSnapshot(thread: ThreadRecord(id: thread, agent: agent, locale: language), messages: messages), "m1")
        case let .route(members, lead, message, _):
            let record = ThreadRecord(id: thread, locale: language, group: GroupInfo(lead: lead, members: members))
            let messages = [MessageRecord(thread: thread, id: "m1", from: .person, text: message, meta: meta)]
            return (ThreadSnapshot(thread: record, messages: messages), "m1")
        case let .push(agent, kind, batch, replies, _):
            let messages = replies.enumerated().map { index, nodes in
                MessageRecord(thread: thread, id: "m\(index + 1)", from: .agent(agent), screen: Screen(nodes: nodes),
                              push: index == replies.count - 1 ? PushInfo(kind: kind, batch: batch) : nil, meta: meta)
            }
            return (ThreadSnapshot(thread: ThreadRecord(id: thread, agent: agent, locale: language), messages: messages),
                    "m\(replies.count)")
        case let .draft(agent, message, offline, _):
            var offlineMeta = meta
            offlineMeta.offline = offline
            let messages = [MessageRecord(thread: thread, id: "m1", from: .person, text: message, meta: offlineMeta)]
            return (ThreadSnapshot(thread: ThreadRecord(id: thread, agent: agent, locale: language), messages: messages), "m1")
        }
    }

    /// The members' names of a routing input (empty for the other jobs).
    var memberNames: [String] {
        if case .route(let members, _, _, _) = self { return members.map(\.name) }
        return []
    }

    /// The lead of a routing input.
    var lead: String? {
        if case .route(_, let lead, _, _) = self { return lead }
        return nil
    }

    /// A push input's replies' words, oldest first (empty for the other jobs).
    var replyWords: [SealedText] {
        if case .push(_, _, _, let replies, _) = self { return replies.map { Screen(nodes: $0).words } }
        return []
    }
}
