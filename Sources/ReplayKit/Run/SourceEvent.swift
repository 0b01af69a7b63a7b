import Export

/// One event as the thread source reads it: messages of this shard's threads in full, messages
/// of other shards' threads as outlines (no words), since only their counts matter here.
///
/// The reader's two modes check every line the same way and count it the same (tested in
/// Export's reading-mode tests), so what a shard reads of another's thread, and its counts, do
/// not depend on the mode; only the words are never built.
enum SourceEvent {
    /// The optional `export` line that starts a file.
    case header(ExportHeader)
    /// A `thread` line (delivered whole in both modes: it decides whose the messages are).
    case thread(ThreadRecord)
    /// A message of a thread of this shard, in full.
    case message(MessageRecord)
    /// A message of another shard's thread, without its words.
    case outline(MessageOutline)
    /// A line that was skipped, and why.
    case badLine(BadLine)
    /// A file that failed.
    case fileFailed(ExportError)

    /// An event of a full read, its record moved in (not copied: a message is most of a read).
    init(_ event: consuming ReaderEvent) {
        switch consume event {
        case .record(.header(let header), _): self = .header(header)
        case .record(.thread(let thread), _): self = .thread(thread)
        case .record(.message(let message), _): self = .message(message)
        case .badLine(let bad): self = .badLine(bad)
        case .fileFailed(let error): self = .fileFailed(error)
        }
    }

    /// An event of an outline read, moved in.
    init(_ event: consuming OutlineEvent) {
        switch consume event {
        case .record(.header(let header), _): self = .header(header)
        case .record(.thread(let thread), _): self = .thread(thread)
        case .record(.message(let outline), _): self = .outline(outline)
        case .badLine(let bad): self = .badLine(bad)
        case .fileFailed(let error): self = .fileFailed(error)
        }
    }
}
