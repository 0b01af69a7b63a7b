/// Who wrote a message: the person, or an agent by name.
public enum Sender: Sendable, Hashable {
    /// The person using the app (`"from":"person"`).
    case person
    /// An agent, by its name (any other `from` value).
    case agent(String)

    /// The sender a `from` value names: `"person"` is the person, anything else an agent.
    public init(from value: String) {
        self = value == "person" ? .person : .agent(value)
    }

    /// Whether the person wrote it.
    public var isPerson: Bool { self == .person }

    /// The agent's name, or `nil` for the person.
    public var agentName: String? {
        if case .agent(let name) = self { return name }
        return nil
    }
}
