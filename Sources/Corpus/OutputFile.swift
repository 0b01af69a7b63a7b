#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Privacy

/// The file descriptor a writer sends bytes to: a created or truncated file, or standard output for "-".
///
/// Owns the descriptor and closes it in `deinit` (standard output is never closed), so an early
/// return on error cannot leak it.
final class OutputFile {
    /// The path as given, for error messages.
    let path: String
    private var descriptor: Int32
    private let ownsDescriptor: Bool

    init(path: String) throws(CorpusError) {
        self.path = path
        if path == "-" {
            descriptor = 1
            ownsDescriptor = false
        } else {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .cannotOpenOutput(path: path, reason: OutputFile.lastError()) }
            descriptor = fd
            ownsDescriptor = true
        }
    }

    /// Writes all of `bytes`, retrying short writes and interrupted calls.
    func write(_ bytes: UnsafeRawBufferPointer) throws(CorpusError) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = systemWrite(descriptor, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw .cannotWriteOutput(path: path, reason: OutputFile.lastError())
            }
            remaining -= written
            base += written
        }
    }

    /// Closes the file, reporting a failed close (which can be where a full disk shows up).
    func close() throws(CorpusError) {
        guard ownsDescriptor, descriptor >= 0 else { return }
        let fd = descriptor
        descriptor = -1
        if systemClose(fd) != 0 { throw .cannotWriteOutput(path: path, reason: OutputFile.lastError()) }
    }

    deinit {
        if ownsDescriptor, descriptor >= 0 { _ = systemClose(descriptor) }
    }

    static func lastError() -> String { SystemError.current.message }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif
