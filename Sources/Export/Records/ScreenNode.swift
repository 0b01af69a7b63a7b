import Privacy

/// One node of an agent's screen; its words are sealed, ids, props and picture links are dropped.
public enum ScreenNode: Sendable {
    /// A line of text the agent says.
    case say(SealedText)
    /// A card with a title and a body.
    case card(title: SealedText, body: SealedText)
    /// A figure: "Weight: -2.3 lb".
    case stat(label: SealedText, value: SealedText, unit: SealedText?)
    /// A list with an optional title.
    case list(title: SealedText?, items: [SealedText])
    /// A picture (it has no words).
    case picture
    /// A single choice between options (something to tap).
    case choose(prompt: SealedText?, optionCount: Int)
    /// A pick among options (something to tap).
    case pick(prompt: SealedText?, optionCount: Int)
    /// A question field (something to tap).
    case ask
    /// A form (something to tap).
    case form
    /// A slider (something to tap).
    case slide
    /// A kind this reader does not know; `kind` is its name if it is a plain token
    /// (`[A-Za-z0-9_.-]{1,32}`), else `(other)`, since it comes from untrusted input.
    case unknown(kind: String)

    /// The node's kind as written in the export ("say", "card", …), or the unknown kind's name.
    public var kind: String {
        switch self {
        case .say: return "say"
        case .card: return "card"
        case .stat: return "stat"
        case .list: return "list"
        case .picture: return "picture"
        case .choose: return "choose"
        case .pick: return "pick"
        case .ask: return "ask"
        case .form: return "form"
        case .slide: return "slide"
        case .unknown(let kind): return kind
        }
    }

    /// Whether the node gives the person something to tap (choose, pick, ask, form, slide).
    public var isTappable: Bool {
        switch self {
        case .choose, .pick, .ask, .form, .slide: return true
        case .say, .card, .stat, .list, .picture, .unknown: return false
        }
    }

    /// The words the model may see, per the format's table, in order.
    ///
    /// A stat is one text, `label: value unit` (no trailing space without a unit); a list gives its
    /// title (if any) then its items; choose and pick give their prompt (if any); the rest nothing.
    public var words: [SealedText] {
        switch self {
        case .say(let text):
            return [text]
        case .card(let title, let body):
            return [title, body]
        case .stat(let label, let value, let unit):
            let figure = SealedText.joined([label, value], separator: ": ")
            guard let unit else { return [figure] }
            return [SealedText.joined([figure, unit], separator: " ")]
        case .list(let title, let items):
            guard let title else { return items }
            return [title] + items
        case .choose(let prompt, _), .pick(let prompt, _):
            return prompt.map { [$0] } ?? []
        case .picture, .ask, .form, .slide, .unknown:
            return []
        }
    }
}
