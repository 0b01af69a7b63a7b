import Export

/// Where every message of one thread is counted: the build and model of the person's next
/// message (the app that showed it), else of their previous one, with the message's id.
///
/// The export writes `build` and `model` on person messages only, so an agent message's own
/// `meta` is not read. The flywheel counts pushes by the same rule (FlywheelCounter), so the
/// push job's `by_build` and the flywheel's push metrics agree.
///
/// The nearest person message of each message is found for the whole thread at once, in two
/// passes (`source`), so a lookup is one step: searching from each message separately walks the
/// run of agent messages around it, and a thread that is one long run (an agent's screens and
/// pushes with no reply) costs the square of its length.
public struct ThreadAttributions: Sendable {
    private let messages: MessageList
    /// For each message, the index of the person's next message, else their previous one; -1
    /// when the thread has no person message but this one.
    private let source: [Int]
    /// Messages read to build it (two per message): a count for the tests that hold planning
    /// to a cost linear in a thread's length.
    let reads: Int

    /// The attributions of `messages`, one thread's messages in time order.
    public init(_ messages: MessageList) {
        var source = [Int](repeating: -1, count: messages.count)
        var next = -1
        for index in messages.indices.reversed() {
            source[index] = next
            if messages[index].from.isPerson { next = index }
        }
        var previous = -1
        for index in messages.indices {
            if source[index] < 0 { source[index] = previous }
            if messages[index].from.isPerson { previous = index }
        }
        self.messages = messages
        self.source = source
        reads = 2 * messages.count
    }

    /// The build and model the message at `index` is counted under, and its id.
    public func attribution(at index: Int) -> Attribution {
        let from = source[index]
        let meta = from < 0 ? nil : messages[from].meta
        return Attribution(build: meta?.build, model: meta?.model, message: messages[index].id)
    }
}
