import Privacy

/// A `thread` line: a conversation with one agent, or a group with several.
public struct ThreadRecord: Sendable {
    /// The thread's id (an opaque token, never words); its messages name it in `thread`.
    public var id: String
    /// The agent's name in a one-agent thread.
    public var agent: String?
    /// The agent's profile line: words, so sealed.
    public var about: SealedText?
    /// The thread's language (BCP 47), which a message's own `lang` overrides.
    public var locale: String?
    /// The members, when this is a group thread.
    public var group: GroupInfo?

    /// Whether this is a group thread (it has `group`).
    public var isGroup: Bool { group != nil }

    /// A thread record.
    public init(id: String, agent: String? = nil, about: SealedText? = nil, locale: String? = nil,
                group: GroupInfo? = nil) {
        self.id = id
        self.agent = agent
        self.about = about
        self.locale = locale
        self.group = group
    }
}
