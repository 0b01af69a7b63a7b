import Jobs
import Privacy

/// The keyed hashes that name a run's items: a place (the corpus file, the thread, the message,
/// the job) and the thread it is in, each an HMAC-SHA-256 under the run key cut to 64 bits.
///
/// A file is named by its keyed digest (`CorpusIdentity`), not its path, so runs over the same
/// bytes agree wherever the file lies; standard input, which has no digest, by its place in the
/// corpus list. Without the key, nobody can tell which thread or message a key stands for, or
/// link two runs' items; with it, runs over the same corpus pair their items exactly. 64 bits
/// keep the chance that two of a million places share a key below 3 in 10^8.
public struct ItemKeys: Sendable {
    /// One MAC per corpus file, already fed the domain and the file's name.
    private let files: [HMACSHA256]

    /// The MAC of file `index`; a file beyond the digests given is named by its place.
    private func file(_ index: Int) -> HMACSHA256 {
        if index < files.count { return files[index] }
        var mac = files.first ?? HMACSHA256(key: [])
        mac.update(Array("file:\(index)".utf8) + [0])
        return mac
    }

    /// The domains, apart from every other use of the run key.
    static let keyDomain = "replay.item-key/1", threadDomain = "replay.item-thread/1"

    /// Keys for a corpus whose files have these keyed digests (nil: not hashed, standard input).
    public init(key: RunKey, fileDigests: [String?]) {
        files = fileDigests.enumerated().map { index, digest in
            var mac = key.mac("replay.item-file/1")
            mac.update(Array((digest ?? "file:\(index)").utf8) + [0])
            return mac
        }
    }

    /// Keys under a key of zeros, files named by their place: for what plans items and never
    /// reports their keys (`replay-bench model`, tests that ignore the keys).
    static func unkeyed(fileCount: Int) -> ItemKeys {
        ItemKeys(key: RunKey(bytes: [UInt8](repeating: 0, count: RunKey.length))!, fileDigests: Array(repeating: nil, count: fileCount))
    }

    /// The key of the item of `job` at message `message` of thread `thread` in file `file`.
    public func key(file: Int, thread: String, message: String, job: JobKind) -> UInt64 {
        inThread(file: file, thread: thread).key(message: message, job: job)
    }

    /// The hash of thread `thread` in file `file`, for clustering.
    public func thread(file: Int, thread: String) -> UInt64 {
        var mac = self.file(file)
        mac.update(Self.threadDomain.utf8)
        mac.update(Self.separator)
        mac.update(thread.utf8)
        return Self.first64Bits(mac.finalize())
    }

    /// The keys of thread `thread`'s items, its file, domain and id fed once: a thread of 200,000
    /// messages has as many items, each then hashing only its message and job.
    public func inThread(file: Int, thread: String) -> ThreadKeys {
        var mac = self.file(file)
        mac.update(Self.keyDomain.utf8)
        mac.update(Self.separator)
        mac.update(thread.utf8)
        mac.update(Self.separator)
        return ThreadKeys(prefix: mac)
    }

    /// The item keys of one thread (`inThread`): the same keys `key(file:thread:message:job:)` gives.
    public struct ThreadKeys: Sendable {
        fileprivate let prefix: HMACSHA256

        /// The key of the item of `job` at message `message`.
        public func key(message: String, job: JobKind) -> UInt64 {
            var mac = prefix
            mac.update(message.utf8)
            mac.update(ItemKeys.separator)
            mac.update(job.rawValue.utf8)
            return ItemKeys.first64Bits(mac.finalize())
        }
    }

    /// The byte between the fields a key is made of.
    fileprivate static let separator: [UInt8] = [0]

    static func first64Bits(_ bytes: [UInt8]) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
