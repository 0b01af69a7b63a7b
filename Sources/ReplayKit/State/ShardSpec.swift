import Privacy

/// How a corpus is split between processes: `--shard-by thread` or `file`.
public enum ShardBy: String, Sendable, CaseIterable, Codable {
    /// Each thread goes to the shard its id hashes to: shards balance even on one large file.
    case thread
    /// Whole files go to shards by their index in the corpus's file list (index mod count): for
    /// directories of many shard files, each process reads only its own.
    case file
}

/// Which part of a corpus one run replays: shard `index` of `count`, split `by` threads or files.
///
/// Every shard of a thread split reads the whole corpus (reading is fast; the model is not) and
/// replays only its own threads; a file split reads only its own files. Either way, every line is
/// counted by exactly one shard, so the shards' states add up to the state of one run.
public struct ShardSpec: Sendable, Equatable {
    public var index: Int
    public var count: Int
    public var by: ShardBy

    public init(index: Int, count: Int, by: ShardBy = .thread) {
        self.index = index
        self.count = count
        self.by = by
    }

    /// The whole corpus: shard 0 of 1.
    public static let whole = ShardSpec(index: 0, count: 1)

    /// The shard a thread belongs to: the first 8 bytes of SHA-256 of its id (UTF-8), as a
    /// big-endian number, mod `count`. Stable across runs, machines and builds.
    public func owner(ofThread id: String) -> Int {
        guard count > 1 else { return 0 }
        var hasher = SHA256()
        hasher.update(Array(id.utf8))
        let prefix = UInt64(hasher.finalizeHex().prefix(16), radix: 16)!
        return Int(prefix % UInt64(count))
    }

    /// The shard the file at `fileIndex` of the corpus's file list belongs to in a file split.
    public func owner(ofFile fileIndex: Int) -> Int { fileIndex % count }

    /// `I/N` as `--shard` takes it.
    public var text: String { "\(index)/\(count)" }

    /// Parses `I/N` (0 <= I < N); nil when it is not that.
    public init?(parsing text: String, by: ShardBy = .thread) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (0..<count).contains(index) else {
            return nil
        }
        self.init(index: index, count: count, by: by)
    }
}
