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

    /// The build and model a message at `index` is counted under: the person's next message
    /// (the app that showed it), else their previous one.
    public func attribution(at index: Int) -> Attribution {
        let after = messages[(index + 1)...].first { $0.from == .person }
        let before = messages[..<index].last { $0.from == .person }
        let meta = (after ?? before)?.meta
        return Attribution(build: meta?.build, model: meta?.model)
    }
}
