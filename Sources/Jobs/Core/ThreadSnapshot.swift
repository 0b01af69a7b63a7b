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

    /// For a job that fires on the person's messages (route, draft): the message at `index`, read
    /// into `work`, and, when it is the person's, the message and where it is counted (its own
    /// build and model, in its language), scanned into `ledger`; nil for an agent's message.
    /// Only a person's message is copied out of the thread. (An agent's message is counted under
    /// the person's nearest message: `attributions()`.)
    func personMessage(at index: Int, work: inout PlanningWork, ledger: inout JobLedger) -> (MessageRecord, Attribution)? {
        work.messagesRead += 1
        guard messages[index].from == .person else { return nil }
        let message = messages[index]
        let attribution = Attribution(build: message.meta.build, model: message.meta.model, locale: language(of: message), message: message.id)
        ledger.scanned(attribution)
        return (message, attribution)
    }

    /// Where each message is counted (`ThreadAttributions`), found for the whole thread in two
    /// passes: build it once per job, not once per message.
    public func attributions() -> ThreadAttributions {
        ThreadAttributions(messages)
    }
}
