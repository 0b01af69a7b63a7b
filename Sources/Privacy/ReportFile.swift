#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one result file: created new, written whole, never replacing, renaming or removing one.
///
/// Every file a run leaves under `--out` goes through here. Creating with `O_EXCL` and no rename
/// means the sandbox can withhold the rights to remove, rename and truncate files beneath `--out`:
/// whatever a run wrote stays there for the audit to scan, so nothing can be written and then
/// taken back before the scan. A run clears its own stale files before it is confined
/// (`clearStale`), never after.
public enum ReportFile {
    /// Creates `path` (which must not exist) with `text`, mode 0644, and closes it.
    public static func create(_ path: String, text: String) throws(SystemError) {
        var bytes = Array(text.utf8)
        defer { bytes.removeAll() }
        try create(path, bytes: bytes)
    }

    /// Creates `path` (which must not exist) with `bytes` (a compressed result), mode 0644, and closes it.
    public static func create(_ path: String, bytes: [UInt8]) throws(SystemError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .current }
        var failure: SystemError?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .current
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == nil { failure = .current }
        if let failure { throw failure }
    }

    /// Removes the files named `names` from `directory` if they are there (an earlier run's
    /// results), so `create` can make them anew. Call before the sandbox is applied.
    public static func clearStale(_ names: [String], in directory: String) throws(SystemError) {
        for name in names {
            if unlink(directory + "/" + name) != 0, errno != ENOENT { throw .current }
        }
    }
}
