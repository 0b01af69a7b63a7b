/// One meaningful line of an export: the header, a thread, or a message.
///
/// Lines of unknown types are not records: the reader skips and counts them (`CorpusStats.unknownTypes`).
public enum ExportRecord: Sendable {
    /// The optional `export` line that starts a file.
    case header(ExportHeader)
    /// A `thread` line, which opens a thread; its messages follow it.
    case thread(ThreadRecord)
    /// A `message` line of the currently open thread.
    case message(MessageRecord)
}
