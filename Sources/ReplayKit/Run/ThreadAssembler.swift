import Export
import Jobs

/// Gathers a thread's line and its messages into one snapshot, handing it on when the next begins.
///
/// An export keeps a thread's lines together, so only one thread is ever held: memory stays
/// flat however large the corpus.
///
/// A long thread can be handed on in pieces while it is still read (`piece()`), so planning its
/// first places overlaps reading the rest. A piece ends before the thread's latest person message:
/// every place before it has its next message and the person's next message in what was read, so
/// planned on the part read it gets what the whole thread would give it (`Job.plan`). Pieces grow
/// by a quarter of what was handed on before them, so the passes each makes over what precedes it
/// add up to a few times the thread's length, never its square, and what is left to plan when the
/// reading ends is a small part of the thread.
struct ThreadAssembler {
    /// A thread as handed on: what was read of it, and the places not yet handed on in a piece.
    struct Assembled {
        var thread: ThreadSnapshot
        var places: Range<Int>
    }

    private var current: ThreadSnapshot? = nil
    /// Threads completed so far.
    private(set) var completed = 0
    /// The open thread's places handed on in pieces: its messages before this index.
    private var handedOn = 0
    /// The index of the open thread's latest person message.
    private var lastPerson: Int? = nil
    /// Messages of the open thread read when the next piece may go.
    private var nextPiece: Int
    /// Messages of a thread read before its first piece may go (nil: never in pieces).
    let firstPiece: Int?

    /// An assembler handing on a thread in pieces once `firstPiece` of its messages are read
    /// (nil: only whole threads).
    init(firstPiece: Int? = nil) {
        self.firstPiece = firstPiece
        nextPiece = firstPiece ?? .max
    }

    /// Takes the next record; returns the thread it completes, if any.
    mutating func take(_ record: ExportRecord) -> Assembled? {
        switch record {
        case .header:
            return finish()
        case .thread(let thread):
            let done = finish()
            current = ThreadSnapshot(thread: thread, messages: [])
            return done
        case .message(let message):
            append(message)
            return nil
        }
    }

    /// Adds a message to the open thread (the reader has already checked it belongs there),
    /// moved in rather than copied: a long thread is hundreds of thousands of them.
    mutating func append(_ message: consuming MessageRecord) {
        guard current != nil else { return }
        if message.from == .person { lastPerson = current!.messages.count }
        current!.messages.append(message)
    }

    /// The next piece of the open thread, when enough of it is read: what was read, and the
    /// places before its latest person message not yet handed on.
    mutating func piece() -> Assembled? {
        guard let current, current.messages.count >= nextPiece, let lastPerson, lastPerson > handedOn else { return nil }
        let places = handedOn..<lastPerson
        handedOn = lastPerson
        nextPiece = current.messages.count + max((firstPiece ?? 0) / 2, handedOn / 4)
        return Assembled(thread: current, places: places)
    }

    /// Hands on the open thread, if any: its places not yet handed on in pieces.
    mutating func finish() -> Assembled? {
        defer {
            current = nil
            handedOn = 0
            lastPerson = nil
            nextPiece = firstPiece ?? .max
        }
        guard let current else { return nil }
        completed += 1
        return Assembled(thread: current, places: handedOn..<current.messages.count)
    }
}
