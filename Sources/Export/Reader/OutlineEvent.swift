/// What the reader's outline mode hands out (`CorpusReader.nextOutline()`): the same events as
/// `ReaderEvent`, in the same order and with the same bad lines and failures, with messages as
/// outlines (no words).
public enum OutlineEvent: Sendable {
    /// A valid line and where it was.
    case record(RecordOutline, SourceLocation)
    /// A line that was skipped, and why; reading goes on with the next line.
    case badLine(BadLine)
    /// A file that failed; the lines before the failure were delivered.
    case fileFailed(ExportError)
}
