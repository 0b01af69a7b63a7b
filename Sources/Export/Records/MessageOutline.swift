import Privacy

/// A message without its words: everything of a `MessageRecord` that is metadata, plus the two
/// facts about its words that counting needs.
///
/// Counting runs (`replay flywheel`) read every message of a corpus but never its words, and
/// building a `String` for every text of every screen was most of their time. The reader's
/// outline mode (`CorpusReader.nextOutline()`) validates a line exactly as for a full record (a
/// wrong type makes it bad with the same reason) and then decodes only what is here. The two
/// facts are computed by the same rules as from a full record, so `MessageOutline(record)` of a
/// full record equals the outline the reader delivers for its line (tested).
public struct MessageOutline: Sendable, Equatable {
    /// The id of the thread it belongs to (the open thread; the reader checks).
    public var thread: String
    /// The message's id (an opaque token).
    public var id: String
    /// When it was sent, as written (ISO 8601); empty when the export left it out.
    public var at: String
    /// Who sent it.
    public var from: Sender
    /// Whether it had a `text`.
    public var hasText: Bool
    /// The text, only when it holds an `@`: then it may name a group member (`Mention`), the one
    /// question counting asks of a person's words. `nil` for a text without `@` or no text.
    public var mentionText: SealedText?
    /// Whether it had a `screen`.
    public var hasScreen: Bool
    /// Whether that screen is chip-eligible (`Screen.isChipEligible`); false without a screen.
    public var isChipEligible: Bool
    /// The push sent for an agent's message, if one was.
    public var push: PushInfo?
    /// The message's language (BCP 47), overriding the thread's `locale`.
    public var lang: String?
    /// The metadata with meaning.
    public var meta: MessageMeta

    /// An outline.
    public init(thread: String, id: String, at: String = "", from: Sender, hasText: Bool = false,
                mentionText: SealedText? = nil, hasScreen: Bool = false, isChipEligible: Bool = false,
                push: PushInfo? = nil, lang: String? = nil, meta: MessageMeta = MessageMeta()) {
        self.thread = thread
        self.id = id
        self.at = at
        self.from = from
        self.hasText = hasText
        self.mentionText = mentionText
        self.hasScreen = hasScreen
        self.isChipEligible = isChipEligible
        self.push = push
        self.lang = lang
        self.meta = meta
    }

    /// The outline of a full record: what the reader's outline mode delivers for the same line.
    public init(_ record: MessageRecord) {
        let mention = record.text.flatMap { text in text.withUnsealedText(MessageOutline.holdsAt) ? text : nil }
        self.init(thread: record.thread, id: record.id, at: record.at, from: record.from,
                  hasText: record.text != nil, mentionText: mention,
                  hasScreen: record.screen != nil, isChipEligible: record.screen?.isChipEligible ?? false,
                  push: record.push, lang: record.lang, meta: record.meta)
    }

    /// Whether `text` holds an `@` (U+0040): the test that decides whether a text is kept.
    static func holdsAt(_ text: String) -> Bool {
        text.utf8.contains(UInt8(ascii: "@"))
    }
}

/// One meaningful line as the outline mode delivers it: the header and threads whole (they are
/// few and small), messages as outlines.
public enum RecordOutline: Sendable {
    /// The optional `export` line that starts a file.
    case header(ExportHeader)
    /// A `thread` line, which opens a thread; its messages follow it.
    case thread(ThreadRecord)
    /// A `message` line of the currently open thread, without its words.
    case message(MessageOutline)
}
