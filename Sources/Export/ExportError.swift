/// Something that stopped a whole input file (or the corpus) from being read.
///
/// Each case names the file and, where it helps, the byte offset, the version or the hex of the
/// first bytes; none carries words from a thread, so a description is safe to print. Problems with a single line are `BadLine`s instead.
public enum ExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A corpus path does not exist.
    case pathDoesNotExist(path: String)
    /// A corpus path exists but cannot be read (permissions, not a regular file, …).
    case pathIsNotReadable(path: String, reason: String)
    /// A directory given as a corpus holds no `*.jsonl.zst` or `*.jsonl` files.
    case directoryHasNoShards(path: String)
    /// The corpus was given no paths at all.
    case corpusHasNoPaths
    /// The operating system reported an error while reading, at a byte offset of the stored file.
    case readFailed(file: String, offset: Int, reason: String)
    /// The zstd data is damaged; `reason` is libzstd's error name, never data.
    case compressedDataIsCorrupt(file: String, offset: Int, reason: String)
    /// The file ends in the middle of a zstd frame (a cut-off copy or download).
    case compressedDataIsTruncated(file: String, offset: Int)
    /// The file's name ends in `.zst` but it does not start with a zstd frame (or a skippable
    /// frame): a gzip file, an error page or plain text saved under that name. Nothing of it is
    /// read, rather than counting its lines as bad.
    case compressedFileIsNotZstd(file: String, leadingBytes: LeadingBytes)
    /// The file's `export` line declares a version other than 1: its lines may mean something
    /// else, so nothing of the file is read or counted.
    case exportVersionIsNotSupported(file: String, version: Int)
    /// The file has lines but not one valid record (an `export`, `thread` or `message` line):
    /// it is not an export, whatever its name. Its bad lines were counted as they were read.
    case fileHoldsNoRecord(file: String, lines: Int)
    /// The input ends inside a record: its last line has no line end and is not valid JSON (a
    /// writer stopped mid-line, a copy cut short). `line` is that line's number and `offset` the
    /// byte where the JSON Lines data ended (of the decompressed data when `compressed`). The
    /// cut line is not a line: it is counted nowhere, not even as bad.
    case inputEndsInsideRecord(file: String, line: Int, offset: Int, compressed: Bool)
    /// A regular file's size or modification time changed between its opening and its end, or
    /// its end came at another byte than its size at opening: something wrote it while it was
    /// read (a `cp` over it, an exporter still appending), so the lines read may mix two
    /// versions. Sizes in bytes: at opening, when its end was read, and read.
    case fileChangedWhileRead(file: String, bytesAtOpen: Int, bytesAtEnd: Int, bytesRead: Int)
    /// The file opened is not the version the run hashed when it took its identity (before the
    /// model loaded): edited in place (another size or modification time) or replaced (another
    /// inode at the path) in between. Its lines would be other bytes than the identity names, so
    /// none is read.
    case fileChangedAfterIdentity(file: String, hashed: FileVersion, opened: FileVersion)

    /// The user-facing message, naming the file and the byte offset (of the stored, compressed
    /// bytes, except where the input ends inside a record: there of the decompressed data, as it says).
    public var description: String {
        switch self {
        case .pathDoesNotExist(let path):
            return "\(path): no such file or directory"
        case .pathIsNotReadable(let path, let reason):
            return "\(path): cannot be read (\(reason))"
        case .directoryHasNoShards(let path):
            return "\(path): directory holds no *.jsonl.zst or *.jsonl files"
        case .corpusHasNoPaths:
            return "no corpus paths were given"
        case .readFailed(let file, let offset, let reason):
            return "\(file): read failed at byte \(offset) (\(reason))"
        case .compressedDataIsCorrupt(let file, let offset, let reason):
            return "\(file): zstd data is corrupt near compressed byte \(offset) (\(reason))"
        case .compressedDataIsTruncated(let file, let offset):
            return "\(file): zstd data is truncated: the file ends at compressed byte \(offset) inside a frame"
        case .compressedFileIsNotZstd(let file, let leadingBytes):
            return "\(file): not zstd data, though the name ends in .zst: the file \(leadingBytes); nothing of it was read"
        case .exportVersionIsNotSupported(let file, let version):
            return "\(file): export version \(version) is not supported (this reader reads version 1); nothing of the file was read"
        case .fileHoldsNoRecord(let file, let lines):
            return "\(file): " + (lines == 1 ? "its one line is not" : "none of its \(lines) lines is")
                + " a valid record (an export, thread or message line): is it an export?"
        case .inputEndsInsideRecord(let file, let line, let offset, let compressed):
            return "\(file): the input ends inside a record: line \(line) has no line end and is not valid JSON,"
                + " and the \(compressed ? "decompressed data" : "data") ends at byte \(offset) (cut short?)"
        case .fileChangedWhileRead(let file, let atOpen, let atEnd, let read):
            let how = atOpen == atEnd && atEnd == read
                ? "it was modified while it was read (\(atOpen) bytes throughout)"
                : "it was \(atOpen) bytes when opened and \(atEnd) when its end was read, and \(read) bytes were read"
            return "\(file): the file changed while it was read: \(how); what was read may mix two versions"
        case .fileChangedAfterIdentity(let file, let hashed, let opened):
            let replaced = hashed.isSameFile(as: opened) ? "" : " (another file was put at its path)"
            return "\(file): the file changed after the run took its identity\(replaced): it was \(hashed.bytes) bytes "
                + "(modified \(hashed.modifiedText)) when hashed and \(opened.bytes) bytes (modified \(opened.modifiedText)) "
                + "when opened; nothing of it was read"
        }
    }
}
