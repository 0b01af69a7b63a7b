import Privacy

/// What an agent's message showed: its nodes in order, and what the jobs ask of them.
public struct Screen: Sendable {
    /// The nodes, in the order the export lists them.
    public var nodes: [ScreenNode]

    /// A screen of `nodes`.
    public init(nodes: [ScreenNode]) {
        self.nodes = nodes
    }

    /// All nodes' words joined with "\n", in order: what the model may see of the screen.
    ///
    /// Written into one string node by node: the same text as joining every node's `words`,
    /// without an array per node and another for them all (every eligible screen is read so).
    public var words: SealedText {
        var text = ""
        var isFirst = true
        func add(_ word: SealedText) {
            if !isFirst { text += "\n" }
            isFirst = false
            word.withUnsealedText { text += $0 }
        }
        for node in nodes {
            switch node {
            case .say(let say):
                add(say)
            case .card(let title, let body):
                add(title)
                add(body)
            case .list(let title, let items):
                if let title { add(title) }
                for item in items { add(item) }
            case .choose(let prompt, _), .pick(let prompt, _):
                if let prompt { add(prompt) }
            case .stat, .picture, .ask, .form, .slide, .unknown:
                for word in node.words { add(word) }
            }
        }
        return SealedText(text)
    }

    /// The text of the last `say` node (not necessarily the last node).
    public var lastSay: SealedText? {
        for node in nodes.reversed() {
            if case .say(let text) = node { return text }
        }
        return nil
    }

    /// Whether any node gives the person something to tap.
    public var hasTappable: Bool { nodes.contains { $0.isTappable } }

    /// The names of unknown node kinds, one per unknown node, in order.
    public var unknownKinds: [String] {
        nodes.compactMap { node in
            if case .unknown(let kind) = node { return kind }
            return nil
        }
    }

    /// Chip-eligible (spec §2): the last `say`'s text, trimmed of white space (incl. newlines),
    /// ends with "?" or "？" (U+FF1F), and no choose/pick/ask/form/slide node.
    ///
    /// A node after the last `say` (a card, a stat) does not matter; only something to tap does,
    /// because then the person answers by tapping, not with a chip.
    public var isChipEligible: Bool {
        guard !hasTappable, let say = lastSay else { return false }
        return say.withUnsealedText(Screen.endsWithQuestion)
    }

    /// Whether `text`'s last character that is not white space is "?" or "？" (U+FF1F): the rule
    /// for a `say`, written once for full screens and for the reader's outlines.
    ///
    /// Characters, not scalars: "?" followed by a combining mark is another character, and a
    /// space followed by one is white space.
    static func endsWithQuestion(_ text: String) -> Bool {
        guard let last = text.last(where: { !$0.isWhitespace }) else { return false }
        return last == "?" || last == "\u{FF1F}"
    }
}
