/// What the reader hands out, one at a time: a record, a bad line, or a file that could not be read.
public enum ReaderEvent: Sendable {
    /// A valid line and where it was.
    case record(ExportRecord, SourceLocation)
    /// A line that was skipped, and why; reading goes on with the next line.
    case badLine(BadLine)
    /// A file that failed (unreadable, corrupt, truncated, ending inside a record, changed while
    /// read); the lines before the failure were delivered, and reading goes on with the next file.
    case fileFailed(ExportError)
}
