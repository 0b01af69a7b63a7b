#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Export
import Privacy

/// Which corpus a run read: each file's size and a keyed digest of every one of its bytes, never
/// a byte itself.
///
/// A merge and a resume must refuse a different corpus, down to one byte changed in the middle of
/// a file of the same size: a shard or a resume over other bytes counts other threads, and the
/// sum would be silently wrong. So every file a run replays is hashed whole (`hashed: "whole"`),
/// up front, before its first line is replayed: the reader then reads it from the page cache,
/// and SHA-256 runs at several hundred MB/s, a small part of what reading costs
/// (`bench/identity.sh`). The digest is taken before the read, so `--resume` checks its
/// checkpoint's corpus before replaying anything. What is replayed is what was hashed: `take`
/// also keeps each file's version as hashed (inode, size, modification time), refusing a file
/// that changed while it was hashed, and the reader fails a file that is not that version when
/// it opens it (`ExpectedCorpus`), so an edit while the model loads is caught too.
///
/// A file split (`--shard-by file`) reads only its own files. A shard there hashes its own files
/// whole and identifies each other file by its size and the digest of its first and last MiB
/// (`"first_and_last_mib"`; a file of 2 MiB or less is hashed whole anyway): hashing every file in
/// every shard would read the corpus N times over. That is sound because only a file's own shard
/// reads it (`everyFileWhole` when that is not so: a run that gathers facts of the whole corpus
/// before it starts, `CorpusFacts`, reads every file in every shard, so each shard hashes every
/// file whole, and an edit in the middle of another shard's file between the shards is found): the merge requires each file to be hashed whole by the shard that replays it
/// (`unvouchedFile(replayed:)`), compares the other shards' views by size (and ends, between two
/// ends), and keeps the whole digests (`merged(with:)`). Standard input (`-`) cannot be read
/// twice, nor hashed before it is read, and has no identity (`"not_hashed"`): a run over it cannot
/// be resumed or merged.
///
/// The digest is HMAC-SHA-256 under the run key (`RunKey`), never a plain SHA-256: a plain digest
/// of an export would confirm a guessed export (a one-message corpus is easy to guess). The
/// identity also carries the key's `check`, so states of one corpus made under different keys
/// (whose digests and label hashes cannot agree) are told apart by that, not by their digests.
/// The run's label salt comes from the same key under another domain (`LabelSalt.domain`) and
/// from each file's size and ends (the whole of a file of 2 MiB or less): the same bytes as
/// before files were hashed whole, so a corpus's labels hash as they did, and every shard of a
/// file split draws the same salt without reading the others' files. It is never written: every
/// process of one run hashes labels alike, and a hash cannot be checked against guesses without
/// the key.
public struct CorpusIdentity: Sendable, Equatable {
    /// How a file's digest was taken.
    public enum Hashed: String, Sendable, Codable {
        /// Every byte: each file a run replays.
        case whole
        /// Its first MiB followed by its last: a file larger than 2 MiB that another shard of a
        /// file split replays (and a dry run's model file, `ModelIdentity`).
        case firstAndLastMiB = "first_and_last_mib"
        /// Nothing: standard input, or a file that could not be read.
        case notHashed = "not_hashed"
    }

    /// One corpus file: its path as resolved (directories expanded), size and digest.
    public struct File: Sendable, Equatable, Codable {
        public var path: String
        public var bytes: Int?
        /// HMAC-SHA-256 under the run key (a corpus file), or SHA-256 (a model file, public).
        public var digest: String?
        public var hashed: Hashed

        enum CodingKeys: String, CodingKey {
            case path, bytes
            case digest = "hmac_sha256"
            case hashed
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(path: try c.decode(ResultPath.self, forKey: .path).text, bytes: try c.decode(Int?.self, forKey: .bytes),
                      digest: try c.decode(SHA256Hex?.self, forKey: .digest)?.text, hashed: try c.decode(Hashed.self, forKey: .hashed))
        }

        public init(path: String, bytes: Int?, digest: String?, hashed: Hashed) {
            self.path = path
            self.bytes = bytes
            self.digest = digest
            self.hashed = hashed
        }
    }

    /// The corpus's files in reading order.
    public var files: [File]
    /// The run key's check value (`RunKey.check`); nil in a state that has none.
    public var runKeyCheck: String?

    public init(files: [File], runKeyCheck: String? = nil) {
        self.files = files
        self.runKeyCheck = runKeyCheck
    }

    /// The domain a corpus file's digest is keyed with.
    static let digestDomain = "replay.corpus-identity/2"

    /// Bytes hashed at each end of a large file that is identified by its ends.
    public static let edgeBytes = 1 << 20

    /// Bytes read at a time when hashing a whole file.
    static let readBytes = 1 << 20

    /// Whether every file could be identified (no standard input, nothing unreadable).
    public var isComplete: Bool { files.allSatisfy { $0.digest != nil } }

    /// The identity of `paths` (files, as the reader resolved them) under `key`, as `shard` takes
    /// it (every file whole, but in a file split the files of other shards by their ends), and the
    /// label salt of their bytes under it; the salt is nil when a file cannot be identified.
    public static func of(_ paths: [String], key: RunKey, shard: ShardSpec = .whole,
                          everyFileWhole: Bool = false) -> (identity: CorpusIdentity, salt: LabelSalt?) {
        let taken = take(paths, key: key, shard: shard, everyFileWhole: everyFileWhole)
        return (taken.identity, taken.salt)
    }

    /// As `of`, and the version of each regular file as it was hashed (`FileVersion`, `fstat` of
    /// the descriptor the digest read), which a run hands to its reader (`ExpectedCorpus`): a
    /// file edited or replaced after this, while the model loads, then fails when it is opened
    /// rather than being replayed as bytes other than those hashed. A file that changed while it
    /// was hashed has no digest (`notHashed`, so the identity is incomplete and the salt nil) and
    /// the version it had before: the reader fails it too, since it is not that version now.
    /// `everyFileWhole`: hash every file whole even in a file split, for a shard that reads them all.
    static func take(_ paths: [String], key: RunKey, shard: ShardSpec = .whole,
                     everyFileWhole: Bool = false) -> (identity: CorpusIdentity, salt: LabelSalt?, expected: ExpectedCorpus) {
        var salt = key.mac(LabelSalt.domain)
        var files: [File] = []
        var versions: [String: FileVersion] = [:]
        var complete = true
        for (index, path) in paths.enumerated() {
            let whole = everyFileWhole || shard.by != .file || shard.owner(ofFile: index) == shard.index
            guard path != "-", let (file, material, version) = identify(path, key: key, whole: whole) else {
                files.append(File(path: path, bytes: nil, digest: nil, hashed: .notHashed))
                complete = false
                continue
            }
            files.append(file)
            versions[path] = version
            guard file.digest != nil else {
                complete = false
                continue
            }
            var size = UInt64(file.bytes ?? 0).littleEndian
            withUnsafeBytes(of: &size) { salt.update($0) }
            material.withUnsafeBytes { salt.update($0) }
        }
        return (CorpusIdentity(files: files, runKeyCheck: key.check), complete ? RunKey.labelSalt(from: salt) : nil,
                ExpectedCorpus(files: paths, versions: versions))
    }

    /// The identity of one file by its ends (whole when 2 MiB or less), by plain SHA-256 and
    /// without the salt: a dry run's model file (public weights, not a corpus), whose tokenizer
    /// decides token sizes.
    public static func file(_ path: String) -> File? {
        identify(path, key: nil, whole: false).flatMap { $0.0.digest == nil ? nil : $0.0 }
    }

    /// The plain SHA-256 of every byte of a file, as lowercase hex: a model run's model file (the
    /// report's `model.sha256`). Nil when it cannot be read, or changed while it was hashed.
    public static func sha256(ofFile path: String) -> String? {
        identify(path, key: nil, whole: true)?.0.digest
    }

    /// A file's identity, keyed under `key` (or plain SHA-256 without one) over every byte
    /// (`whole`) or over its ends when it is larger than 2 MiB; its ends (the label salt's
    /// material, the same either way); and its version when hashing began. A file whose version
    /// (`fstat` of the descriptor) is not the same after hashing as before changed while it was
    /// hashed: its digest names no version of it, and it is `notHashed`.
    private static func identify(_ path: String, key: RunKey?, whole: Bool) -> (File, [UInt8], FileVersion)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let before = FileVersion.ofOpenFile(descriptor) else { return nil }
        let size = before.bytes
        let small = size <= 2 * edgeBytes
        let ends = small ? [(0, size)] : [(0, edgeBytes), (size - edgeBytes, edgeBytes)]
        var material: [UInt8] = []
        for (offset, length) in ends {
            guard let chunk = read(descriptor, offset: offset, length: length) else { return nil }
            material += chunk
        }
        var hasher = key.map { Digester.keyed($0.mac(digestDomain)) } ?? .plain(SHA256())
        let hashed: Hashed
        if small || !whole {
            material.withUnsafeBytes { hasher.update($0) }
            hashed = small ? .whole : .firstAndLastMiB
        } else {
            guard hashEvery(descriptor, size: size, into: &hasher) else { return nil }
            hashed = .whole
        }
        guard FileVersion.ofOpenFile(descriptor) == before else {
            return (File(path: path, bytes: nil, digest: nil, hashed: .notHashed), [], before)
        }
        return (File(path: path, bytes: size, digest: hasher.finalizeHex(), hashed: hashed), material, before)
    }

    /// Feeds every one of the `size` bytes of `descriptor` to `hasher`, a MiB at a time; false
    /// when the file ends early (it was cut while being hashed) or cannot be read.
    private static func hashEvery(_ descriptor: Int32, size: Int, into hasher: inout Digester) -> Bool {
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
        var buffer = [UInt8](repeating: 0, count: readBytes)
        var offset = 0
        while offset < size {
            let want = min(readBytes, size - offset)
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, want, off_t(offset)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            offset += got
        }
        return true
    }

    /// `length` bytes of `descriptor` from `offset`; nil when the file ends before them.
    private static func read(_ descriptor: Int32, offset: Int, length: Int) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, length - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return chunk
    }

    /// Nil when `other` is the same corpus, taken the same way: the same number of files, each of
    /// the same size, digest and `hashed`. A resume and a comparison of two runs ask this: a
    /// resumed shard hashes what its checkpoint hashed, and every file of a finished run (a merge
    /// too) is hashed whole. Paths are not compared (a cluster may mount the corpus at another
    /// path). Else a sentence saying the first difference, naming files by position and path.
    public func difference(from other: CorpusIdentity) -> String? {
        if let problem = comparable(with: other) { return problem }
        for (index, (mine, theirs)) in zip(files, other.files).enumerated() {
            if mine.hashed != theirs.hashed {
                return "corpus file \(index + 1) (\(theirs.path)) was hashed \(Self.how(theirs.hashed)) there and \(Self.how(mine.hashed)) here "
                    + "(a state of an older replay, which hashed only the first and last MiB of a large file): the bytes cannot be compared"
            }
            if let problem = Self.difference(mine, theirs, index: index) { return problem }
        }
        return nil
    }

    /// Nil when `other`, the identity of another shard of the same run, is of the same corpus: as
    /// `difference(from:)`, except that in a file split a file one shard hashed whole and the
    /// other only by its ends (it is not that shard's) is compared by size. That is sound only
    /// together with `unvouchedFile(replayed:)` for each shard: every file is then hashed whole by
    /// the shard that read it, and no other shard read it.
    public func difference(fromShard other: CorpusIdentity) -> String? {
        if let problem = comparable(with: other) { return problem }
        for (index, (mine, theirs)) in zip(files, other.files).enumerated() {
            if mine.hashed != theirs.hashed {
                if mine.bytes != theirs.bytes {
                    return "corpus file \(index + 1) (\(theirs.path)) differs in size from \(mine.path): the corpus changed between the shards"
                }
                continue
            }
            if let problem = Self.difference(mine, theirs, index: index) { return problem + ": the corpus changed between the shards" }
        }
        return nil
    }

    /// The first file (its index) that a state replays, as `replayed` says, but did not hash
    /// whole; nil when it hashed every file it replays. A state of an older replay, which hashed
    /// a large file's ends only, has one.
    public func unvouchedFile(replayed: (Int) -> Bool) -> Int? {
        files.indices.first { replayed($0) && files[$0].hashed != .whole }
    }

    /// This identity and another shard's of the same run, together: each file as hashed whole by
    /// either (the shard that replays it), else as this one has it.
    public func merged(with other: CorpusIdentity) -> CorpusIdentity {
        var sum = self
        for index in sum.files.indices where sum.files[index].hashed != .whole && index < other.files.count && other.files[index].hashed == .whole {
            sum.files[index] = other.files[index]
        }
        return sum
    }

    /// Why the two identities cannot be compared file by file at all; nil when they can.
    private func comparable(with other: CorpusIdentity) -> String? {
        guard isComplete, other.isComplete else {
            return "standard input (or a file that cannot be read whole) has no identity to compare"
        }
        guard runKeyCheck != nil, runKeyCheck == other.runKeyCheck else {
            return "it was made with another run key (--run-key, REPLAY_RUN_KEY or the per-user key): the shards of one run, "
                + "its resumed processes and its merge must share one key file"
        }
        guard files.count == other.files.count else {
            return "it has \(other.files.count) corpus files, not \(files.count)"
        }
        return nil
    }

    /// Two files hashed the same way: nil when they have the same size and digest.
    private static func difference(_ mine: File, _ theirs: File, index: Int) -> String? {
        if mine.bytes != theirs.bytes {
            return "corpus file \(index + 1) (\(theirs.path)) differs in size from \(mine.path) (\(theirs.bytes ?? 0) bytes, not \(mine.bytes ?? 0))"
        }
        if mine.digest != theirs.digest {
            return "corpus file \(index + 1) (\(theirs.path)) has the size of \(mine.path) but other bytes (its keyed digest of "
                + (mine.hashed == .whole ? "every byte" : "its first and last MiB") + " differs)"
        }
        return nil
    }

    private static func how(_ hashed: Hashed) -> String {
        switch hashed {
        case .whole: "whole"
        case .firstAndLastMiB: "by its first and last MiB only"
        case .notHashed: "not at all"
        }
    }
}

/// A keyed digest (a corpus file) or a plain one (a model file, public weights).
private enum Digester {
    case keyed(HMACSHA256)
    case plain(SHA256)

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        switch self {
        case .keyed(var mac): mac.update(buffer); self = .keyed(mac)
        case .plain(var hasher): hasher.update(buffer); self = .plain(hasher)
        }
    }

    mutating func finalizeHex() -> String {
        switch self {
        case .keyed(var mac): mac.finalizeHex()
        case .plain(var hasher): hasher.finalizeHex()
        }
    }
}
