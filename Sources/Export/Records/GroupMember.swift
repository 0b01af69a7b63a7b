import Privacy

/// One member of a group thread: the agent's name and what it is about.
public struct GroupMember: Sendable {
    /// The agent's name (what an `@name` and a routing answer use).
    public var name: String
    /// The agent's profile line, or what the person wrote when making the group: words, so sealed.
    /// Empty when the export gave none.
    public var about: SealedText

    /// A member.
    public init(name: String, about: SealedText = .empty) {
        self.name = name
        self.about = about
    }
}
