import Privacy

/// The `tool` block of every result file: `replay` and the version that wrote it.
public struct ToolStamp: Codable, Sendable, Equatable {
    public var name: Name = .replay
    public var version: TokenLabel

    /// The one tool that writes these files.
    public enum Name: String, Codable, Sendable { case replay }

    public init(version: String = ReplayVersion.current) {
        self.version = TokenLabel(version)
    }
}
