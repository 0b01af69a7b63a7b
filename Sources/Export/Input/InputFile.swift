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
///
/// A regular file is checked at its end against what it was when opened (`fstat` of the open
/// descriptor both times): a size or modification time that changed, or an end at another byte
/// than the size at opening, means something wrote it while it was read (a `cp` over it writes
/// the same inode; an exporter may still be appending), and the end is a failure,
/// `fileChangedWhileRead`, rather than lines of two versions read as one. A file renamed over the
/// path meanwhile (`mv`) is not a change: the descriptor still reads the one file it opened.
///
/// A file opened with an expected version (the one the run hashed, `FileVersion`) is compared
/// with it at its opening: another inode, size or modification time fails it there,
/// `fileChangedAfterIdentity`, before a byte of it is read.
final class InputFile {
    /// The name used in locations and errors: the path as given, or `<stdin>`.
    let name: String
    /// Bytes read from the descriptor so far: the offset of the next unread stored byte.
    private(set) var bytesRead = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    private var prefetched = 0
    /// A regular file's state when opened, checked at its end; nil for a pipe, terminal or device.
    private let atOpen: OpenedState?
    /// Whether the end was checked (once: a source may ask again after the end).
    private var endChecked = false

    /// What is compared at the end: the size and modification time, and the offset reading
    /// started at (not 0 for standard input redirected from a file already partly read).
    private struct OpenedState {
        var size: Int
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var startOffset: Int
    }

    /// The name standard input goes by in locations and errors.
    static let standardInputName = "<stdin>"

    /// Opens `path` for reading (`-` is standard input); a failure is an `ExportError` naming it.
    /// A file (never standard input) that is not `expected`, when given, fails at once.
    init(path: String, chunkSize: Int, expected: FileVersion? = nil) throws(ExportError) {
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
            if let expected {
                var status = stat()
                guard fstat(fd, &status) == 0 else {
                    let code = errno
                    close(fd)
                    throw .pathIsNotReadable(path: path, reason: SystemError(code).message)
                }
                let opened = FileVersion(status)
                guard opened == expected else {
                    close(fd)
                    throw .fileChangedAfterIdentity(file: path, hashed: expected, opened: opened)
                }
            }
            descriptor = fd
            ownsDescriptor = true
        }
        atOpen = InputFile.openedState(descriptor)
        buffer = .allocate(byteCount: max(chunkSize, 16), alignment: 16)
    }

    private static func openedState(_ descriptor: Int32) -> OpenedState? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        return OpenedState(size: Int(status.st_size), modifiedSeconds: Int(status.st_mtim.tv_sec),
                           modifiedNanoseconds: Int(status.st_mtim.tv_nsec), startOffset: offset < 0 ? 0 : Int(offset))
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// Whether the input is a regular file (not a pipe, terminal or device): its reads end.
    var isRegularFile: Bool { atOpen != nil }

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
        if got == 0 { try checkUnchangedAtEnd() }
        return UnsafeRawBufferPointer(start: buffer.baseAddress, count: got)
    }

    /// At the end of a regular file: throws `fileChangedWhileRead` when its size or modification
    /// time is not what it was when opened, or the bytes read are not the size it had then.
    private func checkUnchangedAtEnd() throws(ExportError) {
        guard let atOpen, !endChecked else { return }
        endChecked = true
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw .readFailed(file: name, offset: bytesRead, reason: SystemError(errno).message)
        }
        let size = Int(status.st_size)
        if size != atOpen.size || bytesRead != atOpen.size - atOpen.startOffset
            || Int(status.st_mtim.tv_sec) != atOpen.modifiedSeconds
            || Int(status.st_mtim.tv_nsec) != atOpen.modifiedNanoseconds {
            throw .fileChangedWhileRead(file: name, bytesAtOpen: atOpen.size, bytesAtEnd: size, bytesRead: bytesRead)
        }
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
