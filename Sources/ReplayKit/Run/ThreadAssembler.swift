import Export
import Jobs

/// Gathers a thread's line and its messages into one snapshot, handing it on when the next begins.
///
/// An export keeps a thread's lines together, so only one thread is ever held: memory stays
/// flat however large the corpus.
struct ThreadAssembler {
    private var current: ThreadSnapshot? = nil
    /// Threads completed so far.
    private(set) var completed = 0

    /// Takes one record; returns the thread it completed, if it did.
    mutating func take(_ record: ExportRecord) -> ThreadSnapshot? {
        switch record {
        case .header:
            return finish()
        case .thread(let thread):
            let done = finish()
            current = ThreadSnapshot(thread: thread, messages: [])
            return done
        case .message(let message):
            // The reader has already checked the message belongs to the open thread.
            current?.messages.append(message)
            return nil
        }
    }

    /// Ends the open thread, if any, and returns it.
    mutating func finish() -> ThreadSnapshot? {
        defer { current = nil }
        if current != nil { completed += 1 }
        return current
    }
}
