import Confinement
import Export
import Jobs
import Privacy

/// Plants the audit's canary in every text of a thread that can reach a prompt.
///
/// Every text gets it: the thread's agent name and description, each member's name and
/// description, each message's sending agent's name, each message's words at their start and at their end, and each screen node's
/// words at their start (so a `say` still ends in "?" and chip eligibility is unchanged). A
/// screen also gets one more `card` holding only the canary at its end, which survives a cut
/// that keeps the last tokens. Only runs under `replay audit`; names then carry the canary
/// too, so routing answers in an audited run name planted members (counts differ from a plain
/// run: the audit proves what is written, not the metrics). `replay probe injection` plants it
/// too, before its attacks.
public enum CanaryPlanting {
    public static func planted(_ snapshot: ThreadSnapshot, tap: AuditTap) -> ThreadSnapshot {
        var planted = snapshot
        let canary = tap.canary
        if let about = planted.thread.about { planted.thread.about = prefixed(about, tap) }
        if let agent = planted.thread.agent { planted.thread.agent = canary + " " + agent }
        if var group = planted.thread.group {
            group.members = group.members.map { member in
                var member = member
                member.name = canary + " " + member.name
                member.about = prefixed(member.about, tap)
                return member
            }
            planted.thread.group = group
        }
        planted.messages = MessageList(planted.messages.map { message in
            var message = message
            if let agent = message.from.agentName { message.from = .agent(canary + " " + agent) }
            if let text = message.text { message.text = tap.plant(prefixed(text, tap)) }
            if var screen = message.screen {
                screen.nodes = screen.nodes.map { CanaryPlanting.planted($0, tap) }
                screen.nodes.append(.card(title: tap.plant(.empty), body: .empty))
                message.screen = screen
            }
            return message
        })
        return planted
    }

    /// The drawer's agents with the canary in front of each name and `about`, as `planted(_:tap:)`
    /// plants it in a one-agent thread's: a planted thread's agent is then still one offered.
    static func planted(_ drawer: DrawerAgents, tap: AuditTap) -> DrawerAgents {
        DrawerAgents(drawer.agents.map { agent in
            DrawerAgents.Agent(name: tap.canary + " " + agent.name, about: prefixed(agent.about, tap))
        })
    }

    /// A node with the canary in front of each of its texts.
    static func planted(_ node: ScreenNode, _ tap: AuditTap) -> ScreenNode {
        switch node {
        case .say(let text): .say(prefixed(text, tap))
        case .card(let title, let body): .card(title: prefixed(title, tap), body: prefixed(body, tap))
        case .stat(let label, let value, let unit):
            .stat(label: prefixed(label, tap), value: prefixed(value, tap), unit: unit.map { prefixed($0, tap) })
        case .list(let title, let items): .list(title: title.map { prefixed($0, tap) }, items: items.map { prefixed($0, tap) })
        case .choose(let prompt, let count): .choose(prompt: prefixed(prompt ?? .empty, tap), optionCount: count)
        case .pick(let prompt, let count): .pick(prompt: prefixed(prompt ?? .empty, tap), optionCount: count)
        case .picture, .ask, .form, .slide, .unknown: node
        }
    }

    /// The canary, a space, then the words (plant appends, so plant the empty text and join).
    private static func prefixed(_ text: SealedText, _ tap: AuditTap) -> SealedText {
        SealedText.joined([tap.plant(.empty), text], separator: " ")
    }
}
