import Confinement
import Glibc

/// Every entry beneath a directory, each name kept as the bytes the kernel holds.
///
/// A name need not be UTF-8, and a path beneath a directory may be longer than `PATH_MAX`: a
/// `String` path cannot spell the first, and no call taking a whole path reaches the second, so
/// a walk through `FileManager` skips both, and what they hold is never scanned. Here each
/// directory is opened relative to its parent (`openat`, never following a symbolic link) and
/// read with `readdir`, so every name is seen, whatever its bytes and depth, up to `depthLimit`
/// directories deep; an entry that cannot be reached is listed too (`unreachable`), so the
/// caller can say it was not read rather than say nothing.
public struct DirectoryEntries: Sendable {
    /// What an entry is (`lstat`'s type: a symbolic link is never followed).
    public enum Kind: Sendable, Equatable {
        case regularFile, directory, symbolicLink, other
    }

    /// One entry: the names leading to it from the root, its kind and size.
    public struct Entry: Sendable, Equatable {
        /// The names from the root to the entry, each the kernel's bytes.
        public var components: [[UInt8]]
        public var kind: Kind
        public var size: Int
        /// The entry's own name.
        public var name: [UInt8] { components.last ?? [] }
        /// The path relative to the root, `/` between names.
        public var relativePath: [UInt8] { Array(components.joined(separator: [UInt8(ascii: "/")])) }
        /// Whether every name on the way is valid UTF-8.
        public var isUTF8: Bool { components.allSatisfy { String(validating: $0, as: UTF8.self) != nil } }
    }

    /// The deepest directory read (counting the root's children as depth 1).
    public static let depthLimit = 64

    public let root: String
    /// Every entry reached, in the order the walk met them (parents before children, names in
    /// byte order within a directory).
    public private(set) var entries: [Entry] = []
    /// Entries that could not be read into (a directory that would not open, or one past
    /// `depthLimit`): listed in `entries` too; their contents were not read.
    public private(set) var unreachable: [Entry] = []
    /// Whether the root itself could be opened.
    public private(set) var rootOpened = false

    /// Walks `root` now.
    public init(root: String) {
        self.root = root
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        rootOpened = true
        walk(descriptor, prefix: [], depth: 1)
    }

    /// Reads the directory `descriptor` (and closes it), then each child directory.
    private mutating func walk(_ descriptor: Int32, prefix: [[UInt8]], depth: Int) {
        guard let stream = fdopendir(descriptor) else { close(descriptor); return }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let record = readdir(stream) {
            let name = withUnsafeBytes(of: record.pointee.d_name) { raw -> [UInt8] in
                let bytes = raw.bindMemory(to: UInt8.self)
                let length = bytes.firstIndex(of: 0) ?? bytes.count
                return Array(bytes[..<length])
            }
            if name == [0x2e] || name == [0x2e, 0x2e] { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        for name in names {
            var info = stat()
            let components = prefix + [name]
            let found = Self.withCString(name) { fstatat(dirfd(stream), $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
            let kind: Kind
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .regularFile
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symbolicLink
            default: kind = .other
            }
            let entry = Entry(components: components, kind: found ? kind : .other, size: found ? Int(info.st_size) : 0)
            entries.append(entry)
            guard found, kind == .directory else { continue }
            guard depth < Self.depthLimit else { unreachable.append(entry); continue }
            let child = Self.withCString(name) { openat(dirfd(stream), $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            guard child >= 0 else { unreachable.append(entry); continue }
            walk(child, prefix: components, depth: depth + 1)
        }
    }

    /// Opens the regular file `entry` for reading, directory by directory from the root, never
    /// following a symbolic link; -1 when it cannot. The caller closes the descriptor.
    public func openFile(_ entry: Entry) -> Int32 {
        var current = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return -1 }
        for (index, name) in entry.components.enumerated() {
            let last = index == entry.components.count - 1
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY)
            let next = Self.withCString(name) { openat(current, $0, flags) }
            close(current)
            guard next >= 0 else { return -1 }
            current = next
        }
        var info = stat()
        guard fstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { close(current); return -1 }
        return current
    }

    /// Calls `body` with a path that reaches `entry` without following a symbolic link in its
    /// last name, short whatever the entry's depth (`/proc/self/fd/N/NAME`, N its directory), for
    /// calls that take only a path (extended attributes, a link's target). Nil when the entry's
    /// directory cannot be opened.
    public func withShortPath<Result>(_ entry: Entry, _ body: (UnsafePointer<CChar>) -> Result) -> Result? {
        var current = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return nil }
        for name in entry.components.dropLast() {
            let next = Self.withCString(name) { openat(current, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            close(current)
            guard next >= 0 else { return nil }
            current = next
        }
        defer { close(current) }
        return Self.withCString(Array("/proc/self/fd/\(current)/".utf8) + entry.name, body)
    }

    /// `bytes` as a NUL-terminated C string.
    static func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }
}
