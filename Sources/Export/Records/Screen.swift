import Privacy

/// What an agent's message showed: its nodes in order, and what the jobs ask of them.
///
/// A screen made from nodes has them all; a screen the reader kept less of (`ScreenDetail`) has
/// its words joined, or only its facts. Asking a screen for what it was read without is a
/// programming error (the run chose the detail for the jobs it runs), and stops the program
/// rather than answer with nothing.
public struct Screen: Sendable {
    private var storage: Storage

    private enum Storage: Sendable {
        case nodes([ScreenNode])
        case kept(words: SealedText?, facts: Facts)
    }

    /// What every read keeps of a screen.
    struct Facts: Sendable {
        var isChipEligible = false
        var hasTappable = false
        var unknownKinds: [String] = []
    }

    /// A screen of `nodes`.
    public init(nodes: [ScreenNode]) {
        storage = .nodes(nodes)
    }

    /// A screen read without its nodes: its words joined (nil when not kept) and its facts.
    init(words: SealedText?, facts: Facts) {
        storage = .kept(words: words, facts: facts)
    }

    /// The nodes, in the order the export lists them; setting them makes a screen of nodes.
    public var nodes: [ScreenNode] {
        get {
            guard case .nodes(let nodes) = storage else { preconditionFailure("the screen was read without its nodes") }
            return nodes
        }
        set { storage = .nodes(newValue) }
    }

    /// Whether the screen has its nodes (it was made from them, or read with `.nodes`).
    public var hasNodes: Bool {
        if case .nodes = storage { return true }
        return false
    }

    /// Whether the screen has its words (read with `.nodes` or `.words`).
    public var hasWords: Bool {
        switch storage {
        case .nodes: return true
        case .kept(let words, _): return words != nil
        }
    }

    /// All nodes' words joined with "\n", in order: what the model may see of the screen.
    ///
    /// Written into one string node by node: the same text as joining every node's `words`,
    /// without an array per node and another for them all (every eligible screen is read so).
    public var words: SealedText {
        switch storage {
        case .kept(let words, _):
            guard let words else { preconditionFailure("the screen was read without its text") }
            return words
        case .nodes(let nodes):
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
    }

    /// The text of the last `say` node (not necessarily the last node).
    public var lastSay: SealedText? {
        for node in nodes.reversed() {
            if case .say(let text) = node { return text }
        }
        return nil
    }

    /// Whether any node gives the person something to tap.
    public var hasTappable: Bool {
        switch storage {
        case .nodes(let nodes): return nodes.contains { $0.isTappable }
        case .kept(_, let facts): return facts.hasTappable
        }
    }

    /// The names of unknown node kinds, one per unknown node, in order.
    public var unknownKinds: [String] {
        switch storage {
        case .nodes(let nodes):
            return nodes.compactMap { node in
                if case .unknown(let kind) = node { return kind }
                return nil
            }
        case .kept(_, let facts): return facts.unknownKinds
        }
    }

    /// Chip-eligible (spec §2): the last `say`'s text, trimmed of white space (incl. newlines),
    /// ends with "?" or "？" (U+FF1F), and no choose/pick/ask/form/slide node.
    ///
    /// A node after the last `say` (a card, a stat) does not matter; only something to tap does,
    /// because then the person answers by tapping, not with a chip.
    public var isChipEligible: Bool {
        switch storage {
        case .nodes:
            guard !hasTappable, let say = lastSay else { return false }
            return say.withUnsealedText(Screen.endsWithQuestion)
        case .kept(_, let facts): return facts.isChipEligible
        }
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
