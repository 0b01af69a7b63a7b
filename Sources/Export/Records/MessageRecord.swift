import Privacy

/// A `message` line: something the person or an agent sent in a thread.
public struct MessageRecord: Sendable {
    /// The id of the thread it belongs to (the open thread; the reader checks).
    public var thread: String
    /// The message's id (an opaque token).
    public var id: String
    /// When it was sent, as written (ISO 8601); empty when the export left it out.
    public var at: String
    /// Who sent it.
    public var from: Sender
    /// What the person wrote: words, so sealed.
    public var text: SealedText?
    /// What an agent showed.
    public var screen: Screen?
    /// The push sent for an agent's message, if one was.
    public var push: PushInfo?
    /// The message's language (BCP 47), overriding the thread's `locale`.
    public var lang: String?
    /// The metadata with meaning (see `MessageMeta`); other `meta` keys are dropped, keeping
    /// only the fact that there were some (`MessageMeta.hasUndefinedKey`).
    public var meta: MessageMeta

    /// A message record.
    public init(thread: String, id: String, at: String = "", from: Sender, text: SealedText? = nil,
                screen: Screen? = nil, push: PushInfo? = nil, lang: String? = nil, meta: MessageMeta = MessageMeta()) {
        self.thread = thread
        self.id = id
        self.at = at
        self.from = from
        self.text = text
        self.screen = screen
        self.push = push
        self.lang = lang
        self.meta = meta
    }
}
