#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Privacy

/// Which corpus a run read: each file's size and a keyed digest of its bytes, never a byte itself.
///
/// A merge and a resume must refuse a different corpus. Hashing every byte of a 50 GB corpus in
/// every shard would cost more than reading it, so a file larger than 2 MiB is identified by its
/// size and the digest of its first and last MiB together (`hashed: "first_and_last_mib"`); a
/// smaller file by the digest of all its bytes (`"whole"`). An export is appended to, not edited
/// in the middle, so a change shows in its size or its end. Standard input (`-`) cannot be read
/// twice and has no identity (`"not_hashed"`): a run over it cannot be resumed or merged.
///
/// The digest is HMAC-SHA-256 under the run key (`RunKey`), never a plain SHA-256: a plain digest
/// of an export would confirm a guessed export (a one-message corpus is easy to guess). The
/// identity also carries the key's `check`, so states of one corpus made under different keys
/// (whose digests and label hashes cannot agree) are told apart by that, not by their digests.
/// The same bytes, under the same key and another domain (`LabelSalt.domain`), give the run's
/// label salt, which is never written: every process of one run hashes labels alike, and a hash
/// cannot be checked against guesses without the key.
public struct CorpusIdentity: Sendable, Equatable {
    /// How a file's digest was taken.
    public enum Hashed: String, Sendable {
        case whole
        case firstAndLastMiB = "first_and_last_mib"
        case notHashed = "not_hashed"
    }

    /// One corpus file: its path as resolved (directories expanded), size and digest.
    public struct File: Sendable, Equatable {
        public var path: String
        public var bytes: Int?
        /// HMAC-SHA-256 under the run key (a corpus file), or SHA-256 (a model file, public).
        public var digest: String?
        public var hashed: Hashed

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

    /// Bytes hashed at each end of a large file.
    public static let edgeBytes = 1 << 20

    /// Whether every file could be identified (no standard input, nothing unreadable).
    public var isComplete: Bool { files.allSatisfy { $0.digest != nil } }

    /// The identity of `paths` (files, as the reader resolved them) under `key`, and the label
    /// salt of their bytes under it; the salt is nil when a file cannot be identified.
    public static func of(_ paths: [String], key: RunKey) -> (identity: CorpusIdentity, salt: LabelSalt?) {
        var salt = key.mac(LabelSalt.domain)
        var files: [File] = []
        var complete = true
        for path in paths {
            guard path != "-", let (file, material) = identify(path, key: key) else {
                files.append(File(path: path, bytes: nil, digest: nil, hashed: .notHashed))
                complete = false
                continue
            }
            files.append(file)
            var size = UInt64(file.bytes ?? 0).littleEndian
            withUnsafeBytes(of: &size) { salt.update($0) }
            material.withUnsafeBytes { salt.update($0) }
        }
        return (CorpusIdentity(files: files, runKeyCheck: key.check), complete ? RunKey.labelSalt(from: salt) : nil)
    }

    /// The identity of one file by the same rule (whole, or first and last MiB), by plain SHA-256
    /// and without the salt: a dry run's model file (public weights, not a corpus), whose
    /// tokenizer decides token sizes.
    public static func file(_ path: String) -> File? { identify(path, key: nil)?.0 }

    /// A file's identity and the bytes it was taken over (whole, or first and last MiB): keyed
    /// under `key`, or plain SHA-256 without one.
    private static func identify(_ path: String, key: RunKey?) -> (File, [UInt8])? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int(info.st_size)
        let whole = size <= 2 * edgeBytes
        var material: [UInt8] = []
        let ranges = whole ? [(0, size)] : [(0, edgeBytes), (size - edgeBytes, edgeBytes)]
        for (offset, length) in ranges {
            var chunk = [UInt8](repeating: 0, count: length)
            var done = 0
            while done < length {
                let got = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, length - done, off_t(offset + done)) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return nil }
                done += got
            }
            material += chunk
        }
        let digest: String
        if let key {
            var mac = key.mac(digestDomain)
            material.withUnsafeBytes { mac.update($0) }
            digest = mac.finalizeHex()
        } else {
            var hasher = SHA256()
            material.withUnsafeBytes { hasher.update($0) }
            digest = hasher.finalizeHex()
        }
        return (File(path: path, bytes: size, digest: digest, hashed: whole ? .whole : .firstAndLastMiB), material)
    }

    /// Nil when `other` is the same corpus: the same number of files, each of the same size and
    /// digest, in the same order. Paths are not compared (a cluster may mount the corpus at another
    /// path). Else a sentence saying the first difference, naming files by position and path.
    public func difference(from other: CorpusIdentity) -> String? {
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
        for (index, (mine, theirs)) in zip(files, other.files).enumerated() {
            if mine.bytes != theirs.bytes || mine.digest != theirs.digest {
                return "corpus file \(index + 1) (\(theirs.path)) differs in size or digest from \(mine.path)"
            }
        }
        return nil
    }
}
