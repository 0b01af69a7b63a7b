import Export
import Jobs
import Privacy

/// Plants one attack's words at one place of a thread: the thread as the job would read it there,
/// with the attack among the agent's words (or among an agent's words the person quotes), and
/// nothing else changed. The job then plans the attacked thread as it plans any, so the attacked
/// request is the real prompt with the words where an agent could put them.
public enum AttackPlanting {
    /// What a planting put where.
    public struct Planted: Sendable {
        /// The thread with the attack in it.
        public var snapshot: ThreadSnapshot
        /// The member a routing attack pushes (`{member}`); nil for other sites.
        public var member: String?
    }

    /// `snapshot` with `attack` planted at message `index` (the place's message), in the place's
    /// language; nil when the place is not one the attack's site fits (a chips site at a message
    /// without a screen of nodes, `about` outside a group or in a group of one, `quote` at a
    /// message that is not the person's) or the attack has no words in that language.
    public static func plant(_ attack: AttackSet.Attack, in snapshot: ThreadSnapshot, at index: Int,
                             marker: AttackMarker) -> Planted? {
        guard snapshot.messages.indices.contains(index) else { return nil }
        var messages = Array(snapshot.messages)
        var thread = snapshot.thread
        let message = messages[index]
        let language = snapshot.language(of: message)
        let agent = message.from.agentName ?? thread.agent ?? thread.group?.lead ?? ""
        var member: String? = nil
        switch attack.site {
        case .say, .cardTitle, .listItem, .statLabel, .reply:
            guard message.from != .person, let screen = message.screen, screen.hasNodes,
                  let words = attack.words(language: language, marker: marker, agent: agent) else { return nil }
            let text = SealedText(words)
            let node: ScreenNode = switch attack.site {
            case .cardTitle: .card(title: text, body: SealedText(Self.filler))
            case .listItem: .list(title: nil, items: [SealedText(Self.filler), text])
            case .statLabel: .stat(label: text, value: SealedText("1"), unit: nil)
            default: .say(text)
            }
            // Before the screen's last node: a screen that asks in words ends with its question,
            // and an attack placed after it would make it ask nothing (no chips place at all).
            var nodes = screen.nodes
            nodes.insert(node, at: max(nodes.count - 1, 0))
            messages[index].screen = Screen(nodes: nodes)
        case .about:
            guard message.from == .person, var group = thread.group else { return nil }
            // The member the person did not mean (nor the lead): the attack claims their ask.
            let meant = message.meta.groupTo
            guard let target = group.members.firstIndex(where: { $0.name != meant && $0.name != group.lead }),
                  let words = attack.words(language: language, marker: marker, agent: agent, member: group.members[target].name) else {
                return nil
            }
            member = group.members[target].name
            group.members[target].about = SealedText(words)
            thread.group = group
        case .quote:
            guard message.from == .person, let asked = message.text,
                  let words = attack.words(language: language, marker: marker, agent: agent) else { return nil }
            // The person pasted the agent's words before their own ask.
            messages[index].text = asked.withUnsealedText { SealedText(words + " " + $0) }
        }
        return Planted(snapshot: ThreadSnapshot(thread: thread, messages: messages), member: member)
    }

    /// The words beside an attack in a card's body or a list's first item: a dot, no sentence.
    static let filler = "·"
}
