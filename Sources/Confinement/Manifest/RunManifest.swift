#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#endif
import Privacy

/// Every entry beneath a run's directory at one moment, with each file's size and SHA-256:
/// schema `replay.manifest/1` (docs/report-schema.md).
///
/// The audit records one at its verdict (in `audit.sarif`, as SARIF's own `artifacts`), a finished
/// run can end by writing one (`manifest.json`), and `replay verify DIR` re-takes it and names
/// every entry that changed, went missing or appeared since. The directory is walked by
/// descriptors, names as bytes (any byte but `/` and NUL, any length), symbolic links never
/// followed, so an odd name or a link swapped in cannot make the walk read something else.
///
/// A digest of a file lets whoever guesses the file's whole content confirm the guess. `replay`'s
/// result files hold no words by construction; a file the audit found words in (the canary or
/// an output) is recorded without its digest (`withheld`), and without its name when the name is
/// not a plain token, so the manifest never confirms what the audit caught.
public struct RunManifest: Sendable, Equatable {
    public static let schema = "replay.manifest/1"
    /// The name a finished run's manifest has beneath its directory (never listed in itself).
    public static let fileName = "manifest.json"
    /// The audit's verdict file, which records the manifest of the run it audited (`read(sarifAt:)`).
    public static let sarifFileName = "audit.sarif"

    /// What an entry is, by `lstat`.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case file, directory, symlink, other
    }

    /// Why an entry's digest or name is not recorded.
    public enum Withheld: String, Sendable, Codable {
        /// Its name is not plain tokens (`withholdingOddNames`).
        case name
        /// The audit found words in it (`withholding`).
        case finding
        /// It could not be read when the manifest was taken.
        case unreadable
    }

    /// One entry: its path relative to the directory (bytes), its kind, and for a file its size
    /// and SHA-256 (for a symbolic link, of its target's bytes).
    public struct Entry: Sendable, Equatable {
        /// Nil when the name was withheld (the audit found words in it).
        public var path: [UInt8]?
        public var kind: Kind
        public var bytes: Int?
        public var sha256: String?
        /// Why the digest (or the name) is not recorded, if it is not.
        public var withheld: Withheld?

        public init(path: [UInt8]?, kind: Kind, bytes: Int? = nil, sha256: String? = nil, withheld: Withheld? = nil) {
            self.path = path
            self.kind = kind
            self.bytes = bytes
            self.sha256 = sha256
            self.withheld = withheld
        }

        /// The path as the manifest writes it: a relative URI reference, every byte outside
        /// `A-Z a-z 0-9 - . _ ~ /` percent-encoded, so any name reads back exactly and no byte
        /// of it can break a line, a terminal or the JSON.
        public var encodedPath: String? { path.map(RunManifest.encode) }
    }

    /// The entries in byte order of their paths.
    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// Walks `directory` now. `excluding` names top-level entries not to list (the manifest's own
    /// file); `withholding` says, for a path, whether the audit found words in that entry.
    public static func take(_ directory: String, excluding: Set<String> = [],
                            withholding: ([UInt8]) -> Bool = { _ in false }) throws(ConfinementError) -> RunManifest {
        let root = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw .manifestUnreadable(path: directory, reason: SystemError.current.message) }
        var entries: [Entry] = []
        walk(root, prefix: [], excluding: Set(excluding.map { Array($0.utf8) }), into: &entries)
        close(root)
        return RunManifest(entries: entries.sorted { ($0.path ?? []).lexicographicallyPrecedes($1.path ?? []) }).withholding(withholding)
    }

    /// This manifest with the name of every entry whose path is not plain tokens withheld
    /// (`withheld: "name"`), its kind, size and digest kept: the verdict names places the run
    /// chose only when they cannot spell a sentence with spaces or odd bytes, as its findings do.
    /// `replay verify` matches such an entry by kind, size and digest.
    public func withholdingOddNames() -> RunManifest {
        RunManifest(entries: entries.map { entry in
            guard let path = entry.path, !Self.isPlain(path) else { return entry }
            return Entry(path: nil, kind: entry.kind, bytes: entry.bytes, sha256: entry.sha256, withheld: entry.withheld ?? .name)
        })
    }

    /// This manifest with every entry `flagged` says the audit found words in recorded without
    /// its digest, and without its name unless the name is a plain token.
    public func withholding(_ flagged: ([UInt8]) -> Bool) -> RunManifest {
        RunManifest(entries: entries.map { entry in
            guard let path = entry.path, flagged(path) else { return entry }
            return Entry(path: Self.isPlain(path) ? path : nil, kind: entry.kind, bytes: entry.bytes, sha256: nil, withheld: .finding)
        })
    }

    /// Lists every entry of the directory open at `descriptor` (which it closes), depth first.
    private static func walk(_ descriptor: Int32, prefix: [UInt8], excluding: Set<[UInt8]>, into entries: inout [Entry]) {
        guard let stream = fdopendir(descriptor) else { close(descriptor); return }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let item = readdir(stream) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2e] || name == [0x2e, 0x2e] { continue }
            if prefix.isEmpty, excluding.contains(name) { continue }
            names.append(name)
        }
        let parent = dirfd(stream)
        for name in names {
            let path = prefix.isEmpty ? name : prefix + [0x2f] + name
            var info = stat()
            let found = (name + [0]).withUnsafeBufferPointer { cName in
                cName.withMemoryRebound(to: CChar.self) { fstatat(parent, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) }
            }
            guard found == 0 else { continue }   // gone since it was listed: not there now
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                let digest = fileDigest(parent, name)
                entries.append(Entry(path: path, kind: .file, bytes: digest?.bytes ?? Int(info.st_size), sha256: digest?.sha256,
                                     withheld: digest == nil ? .unreadable : nil))
            case S_IFDIR:
                entries.append(Entry(path: path, kind: .directory))
                let child = (name + [0]).withUnsafeBufferPointer { cName in
                    cName.withMemoryRebound(to: CChar.self) { openat(parent, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
                }
                if child >= 0 { walk(child, prefix: path, excluding: [], into: &entries) }
            case S_IFLNK:
                var target = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = (name + [0]).withUnsafeBufferPointer { cName in
                    cName.withMemoryRebound(to: CChar.self) { cPath in
                        target.withUnsafeMutableBytes { readlinkat(parent, cPath.baseAddress!, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
                    }
                }
                let bytes = Array(target.prefix(max(length, 0)))
                entries.append(Entry(path: path, kind: .symlink, bytes: bytes.count, sha256: SHA256.hex(bytes)))
            default:
                entries.append(Entry(path: path, kind: .other))
            }
        }
    }

    /// The size and SHA-256 of the regular file `name` in the directory `parent`, read through
    /// one descriptor opened without following a link or blocking on a FIFO swapped in.
    private static func fileDigest(_ parent: Int32, _ name: [UInt8]) -> (bytes: Int, sha256: String)? {
        let descriptor = (name + [0]).withUnsafeBufferPointer { cName in
            cName.withMemoryRebound(to: CChar.self) { openat(parent, $0.baseAddress!, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { return nil }
            if got == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
            total += got
        }
        return (total, hasher.finalizeHex())
    }

    /// Percent-encodes every byte outside the unreserved set and `/`.
    public static func encode(_ path: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in path {
            if isUnreserved(byte) || byte == 0x2f {
                out.append(byte)
            } else {
                out += [0x25, digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of an encoded path; nil when it is not one (a `%` without two hex digits, a byte
    /// that should have been encoded, an empty, absolute or `..` path).
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == 0x25 {
                guard index + 2 < input.count,
                      let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                guard isUnreserved(byte) || byte == 0x2f else { return nil }
                out.append(byte)
                index += 1
            }
        }
        let components = out.split(separator: 0x2f, omittingEmptySubsequences: false)
        guard !out.isEmpty, !components.contains(where: { $0.isEmpty || $0.elementsEqual([0x2e]) || $0.elementsEqual([0x2e, 0x2e]) }),
              !out.contains(0) else { return nil }
        return out
    }

    /// Whether every component of `path` is a plain token (letters, digits, `.`, `_`, `-`, at
    /// most 64): a name that can be shown as it is, as the audit's findings show it.
    public static func isPlain(_ path: [UInt8]) -> Bool {
        path.split(separator: 0x2f, omittingEmptySubsequences: false).allSatisfy { component in
            (1...64).contains(component.count) && !component.elementsEqual([0x2e]) && !component.elementsEqual([0x2e, 0x2e])
                && component.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0)
                    || $0 == 0x2e || $0 == 0x5f || $0 == 0x2d }
        }
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
            || byte == 0x2d || byte == 0x2e || byte == 0x5f || byte == 0x7e
    }

    static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
