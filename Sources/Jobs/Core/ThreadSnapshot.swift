import Export

/// One whole thread: its line and its messages in time order.
///
/// Jobs look at a thread at a time because that is the spec's boundary: a job sees one thread's
/// latest words and never another thread's. Threads are contiguous in an export, so the
/// replayer holds one at a time.
public struct ThreadSnapshot: Sendable {
    public var thread: ThreadRecord
    public var messages: [MessageRecord]

    public init(thread: ThreadRecord, messages: [MessageRecord]) {
        self.thread = thread
        self.messages = messages
    }

    /// The language a message is in: its own `lang`, else the thread's `locale`.
    public func language(of message: MessageRecord) -> String? {
        message.lang ?? thread.locale
    }

    /// The build and model an agent's message at `index` is counted under (and its id): the person's next
    /// message (the app that showed it), else their previous one.
    ///
    /// The export writes `build` and `model` on person messages only, so an agent message's own
    /// `meta` is not read. The flywheel counts pushes by the same rule (FlywheelCounter), so the
    /// push job's `by_build` and the flywheel's push metrics agree.
    public func attribution(at index: Int) -> Attribution {
        let after = messages[(index + 1)...].first { $0.from == .person }
        let before = messages[..<index].last { $0.from == .person }
        let meta = (after ?? before)?.meta
        return Attribution(build: meta?.build, model: meta?.model, message: messages[index].id)
    }
}
