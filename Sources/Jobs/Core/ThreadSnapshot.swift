import Export

/// One whole thread: its line and its messages in time order.
///
/// Jobs look at a thread at a time because that is the spec's boundary: a job sees one thread's
/// latest words and never another thread's. Threads are contiguous in an export, so the
/// replayer holds one at a time.
public struct ThreadSnapshot: Sendable {
    public var thread: ThreadRecord
    public var messages: MessageList

    public init(thread: ThreadRecord, messages: MessageList) {
        self.thread = thread
        self.messages = messages
    }

    public init(thread: ThreadRecord, messages: [MessageRecord]) {
        self.init(thread: thread, messages: MessageList(messages))
    }

    /// The language a message is in: its own `lang`, else the thread's `locale`.
    public func language(of message: MessageRecord) -> String? {
        message.lang ?? thread.locale
    }

    /// Where a person's own message is counted: under its own build and model, in its language.
    /// (An agent's message is counted under the person's nearest message: `attributions()`.)
    func attribution(ofPersonMessage message: MessageRecord) -> Attribution {
        Attribution(build: message.meta.build, model: message.meta.model, locale: language(of: message), message: message.id)
    }

    /// Where each message is counted (`ThreadAttributions`), found for the whole thread in two
    /// passes: build it once per job, not once per message.
    public func attributions() -> ThreadAttributions {
        ThreadAttributions(messages)
    }
}
