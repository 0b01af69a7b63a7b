/// Counts of what a generated corpus holds, so callers can check a written file against them.
public struct CorpusSummary: Sendable, Equatable {
    /// Thread lines written (one-agent and group).
    public var threads: Int
    /// Of `threads`, how many are group threads.
    public var groupThreads: Int
    /// Message lines written (`agentMessages + personMessages`).
    public var messages: Int
    /// Messages from an agent (each carries a screen).
    public var agentMessages: Int
    /// Messages from the person.
    public var personMessages: Int
    /// Every line written, the export header and unknown line types included.
    public var lines: Int
    /// Lines of a type the format does not define (legal, skipped by readers): a reader should count these.
    public var unknownLines: Int
    /// Screen nodes of a kind the format does not define: a reader should count these.
    public var unknownNodes: Int

    /// A summary with every count at zero.
    public init(threads: Int = 0, groupThreads: Int = 0, messages: Int = 0, agentMessages: Int = 0,
                personMessages: Int = 0, lines: Int = 0, unknownLines: Int = 0, unknownNodes: Int = 0) {
        self.threads = threads
        self.groupThreads = groupThreads
        self.messages = messages
        self.agentMessages = agentMessages
        self.personMessages = personMessages
        self.lines = lines
        self.unknownLines = unknownLines
        self.unknownNodes = unknownNodes
    }
}
