import Audit
import Export
import Jobs
import Privacy

/// Plants the audit's canary in every text of a thread that can reach a prompt.
///
/// Person messages and member descriptions get it in front; a screen gets it as one more
/// `card` node at its end, so its last `say` (and so chip eligibility) is unchanged and the
/// canary survives a cut that keeps the last tokens. Only runs under `replay audit`.
enum CanaryPlanting {
    static func planted(_ snapshot: ThreadSnapshot, tap: AuditTap) -> ThreadSnapshot {
        var planted = snapshot
        if let about = planted.thread.about { planted.thread.about = prefixed(about, tap) }
        if var group = planted.thread.group {
            group.members = group.members.map { member in
                var member = member
                member.about = prefixed(member.about, tap)
                return member
            }
            planted.thread.group = group
        }
        planted.messages = planted.messages.map { message in
            var message = message
            if let text = message.text { message.text = prefixed(text, tap) }
            if var screen = message.screen {
                screen.nodes.append(.card(title: tap.plant(.empty), body: .empty))
                message.screen = screen
            }
            return message
        }
        return planted
    }

    /// The canary, a space, then the words (plant appends, so plant the empty text and join).
    private static func prefixed(_ text: SealedText, _ tap: AuditTap) -> SealedText {
        SealedText.joined([tap.plant(.empty), text], separator: " ")
    }
}
