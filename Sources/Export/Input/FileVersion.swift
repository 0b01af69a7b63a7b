#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a regular file from another without reading it: the file system
/// and inode it is (`st_dev`, `st_ino`: another file renamed over the path is another inode), its
/// size and its modification time to the nanosecond (a rewrite in place changes them).
///
/// A run takes one of each corpus file when it hashes the file (`fstat` of the descriptor it
/// hashed), and the reader compares the file it opens with it (`CorpusReader(paths:expecting:)`):
/// a file edited or replaced between the two, while the model loads, would otherwise be
/// replayed as other bytes than the run's identity names. Numbers only, never a byte of the file.
public struct FileVersion: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var bytes: Int
    /// The modification time: seconds since the Unix epoch, and nanoseconds within that second.
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int

    public init(device: UInt64, inode: UInt64, bytes: Int, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.bytes = bytes
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The version of the regular file open on `descriptor` (`fstat`); nil when it cannot be told,
    /// or the descriptor is not a regular file (standard input from a pipe or a terminal).
    public static func ofOpenFile(_ descriptor: Int32) -> FileVersion? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileVersion(status)
    }

    init(_ status: stat) {
        self.init(device: UInt64(status.st_dev), inode: UInt64(status.st_ino), bytes: Int(status.st_size),
                  modifiedSeconds: Int(status.st_mtim.tv_sec), modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
    }

    /// Whether both are the same inode of the same file system.
    func isSameFile(as other: FileVersion) -> Bool { device == other.device && inode == other.inode }

    /// The modification time in UTC to the nanosecond, "2026-12-01T17:50:10.123456789Z": a
    /// rewrite within the same millisecond still reads as another time.
    public var modifiedText: String {
        var seconds = time_t(modifiedSeconds)
        var parts = tm()
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        // Seconds since the epoch, as `date -d @…` takes them, should the C library not convert them.
        guard gmtime_r(&seconds, &parts) != nil else { return "@\(modifiedSeconds).\(padded(modifiedNanoseconds, 9))" }
        return "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1, 2))-\(padded(Int(parts.tm_mday), 2))"
            + "T\(padded(Int(parts.tm_hour), 2)):\(padded(Int(parts.tm_min), 2)):\(padded(Int(parts.tm_sec), 2))"
            + ".\(padded(modifiedNanoseconds, 9))Z"
    }
}
