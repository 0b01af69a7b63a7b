import Export

/// A thread's messages in time order, kept in blocks of a fixed size.
///
/// Appending never moves a message already kept, and a copy shares every block with the list it
/// was taken from: a thread still being read can be handed to a planner (`ThreadSnapshot`) while
/// the reader goes on appending, at the cost of copying the last, partly filled block once. An
/// array would copy every message read so far instead, and move them all each time it grows.
public struct MessageList: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
    /// Messages a block holds: 2^12.
    static let blockShift = 12
    static let blockSize = 1 << blockShift

    private var blocks: [[MessageRecord]] = []
    public private(set) var count = 0

    public init() {}

    public init<Messages: Sequence>(_ messages: Messages) where Messages.Element == MessageRecord {
        for message in messages { append(message) }
    }

    public init(arrayLiteral messages: MessageRecord...) {
        self.init(messages)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> MessageRecord {
        precondition(index >= 0 && index < count, "a message index within the thread")
        return blocks[index >> Self.blockShift][index & (Self.blockSize - 1)]
    }

    /// Adds `message` after the last.
    public mutating func append(_ message: consuming MessageRecord) {
        if count & (Self.blockSize - 1) == 0 {
            // The first block grows as an array does (most threads are a few messages); the
            // later ones, of a thread already long, are made whole at once.
            var block: [MessageRecord] = []
            if count > 0 { block.reserveCapacity(Self.blockSize) }
            blocks.append(block)
        }
        blocks[blocks.count - 1].append(message)
        count += 1
    }

    /// The messages as one array.
    public var array: [MessageRecord] { blocks.flatMap { $0 } }
}
