/// What the reader has read so far; exact counts, updated as events are handed out.
public struct CorpusStats: Sendable, Equatable {
    /// Files started (including ones that failed).
    public var files = 0
    /// Non-empty lines read: `records + badLines + unknownTypes.values.sum()`. Empty lines are
    /// numbered but not counted.
    public var lines = 0
    /// Lines delivered as records (headers, threads and messages).
    public var records = 0
    /// Thread records delivered.
    public var threads = 0
    /// Message records delivered.
    public var messages = 0
    /// Bad lines reported.
    public var badLines = 0
    /// Lines of unknown `type`, by name (names that are not plain tokens under "(other)").
    public var unknownTypes: [String: Int] = [:]
    /// Screen nodes of unknown kind in delivered messages, by name (likewise).
    public var unknownNodes: [String: Int] = [:]
    /// Bytes read from the files as stored (compressed for zstd files, plain otherwise).
    public var compressedBytes = 0
    /// JSON Lines bytes those files held (after decompression).
    public var decompressedBytes = 0

    /// Empty statistics.
    public init() {}
}
