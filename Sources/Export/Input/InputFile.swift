#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Privacy

/// One stored input (a file or standard input), read in fixed-size chunks with POSIX `read`.
///
/// Owns the file descriptor and one fixed buffer, so memory stays flat whatever the file's size.
/// A chunk handed out stays valid until the next call to `readChunk`.
final class InputFile {
    /// The name used in locations and errors: the path as given, or `<stdin>`.
    let name: String
    /// Bytes read from the descriptor so far: the offset of the next unread stored byte.
    private(set) var bytesRead = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    private var prefetched = 0

    /// The name standard input goes by in locations and errors.
    static let standardInputName = "<stdin>"

    /// Opens `path` for reading (`-` is standard input); a failure is an `ExportError` naming it.
    init(path: String, chunkSize: Int) throws(ExportError) {
        if path == "-" {
            name = InputFile.standardInputName
            descriptor = 0
            ownsDescriptor = false
        } else {
            name = path
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let code = errno
                if code == ENOENT { throw .pathDoesNotExist(path: path) }
                throw .pathIsNotReadable(path: path, reason: SystemError(code).message)
            }
            descriptor = fd
            ownsDescriptor = true
        }
        buffer = .allocate(byteCount: max(chunkSize, 16), alignment: 16)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// Whether the input is a regular file (not a pipe, terminal or device): its reads end.
    var isRegularFile: Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads the first bytes (at least `count` unless the input is shorter) without consuming them.
    ///
    /// Pipes may deliver fewer bytes per `read` than asked, so this loops; the bytes read are
    /// handed out again by the next `readChunk`.
    func peek(_ count: Int) throws(ExportError) -> [UInt8] {
        precondition(bytesRead == 0 && prefetched == 0, "peek only at the start")
        var filled = 0
        while filled < count {
            let got = try readOnce(into: buffer.baseAddress! + filled, capacity: buffer.count - filled)
            if got == 0 { break }
            filled += got
        }
        prefetched = filled
        return Array(UnsafeRawBufferPointer(start: buffer.baseAddress, count: min(filled, count)))
    }

    /// The next chunk of stored bytes; empty at the end of the input.
    func readChunk() throws(ExportError) -> UnsafeRawBufferPointer {
        if prefetched > 0 {
            let count = prefetched
            prefetched = 0
            return UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)
        }
        let got = try readOnce(into: buffer.baseAddress!, capacity: buffer.count)
        return UnsafeRawBufferPointer(start: buffer.baseAddress, count: got)
    }

    private func readOnce(into start: UnsafeMutableRawPointer, capacity: Int) throws(ExportError) -> Int {
        while true {
            let got = read(descriptor, start, capacity)
            if got >= 0 {
                bytesRead += got
                return got
            }
            let code = errno
            if code == EINTR { continue }
            throw .readFailed(file: name, offset: bytesRead, reason: SystemError(code).message)
        }
    }
}
