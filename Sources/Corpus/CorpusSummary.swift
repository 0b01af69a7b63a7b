/// Counts of what a generated corpus holds, so callers can check a written file against them.
public struct CorpusSummary: Sendable, Equatable {
    /// Thread lines written (one-agent and group).
    public var threads: Int = 0
    /// Of `threads`, how many are group threads.
    public var groupThreads: Int = 0
    /// Message lines written (`agentMessages + personMessages`).
    public var messages: Int = 0
    /// Messages from an agent (each carries a screen).
    public var agentMessages: Int = 0
    /// Messages from the person.
    public var personMessages: Int = 0
    /// Every line written, the export header and unknown line types included.
    public var lines: Int = 0
    /// Lines of a type the format does not define (legal, skipped by readers): a reader should count these.
    public var unknownLines: Int = 0
    /// Screen nodes of a kind the format does not define: a reader should count these.
    public var unknownNodes: Int = 0
}
