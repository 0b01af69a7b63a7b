import Privacy

/// A message without its words: everything of a `MessageRecord` that is metadata, plus the
/// facts about its words that counting needs.
///
/// Counting runs (`replay flywheel`) read every message of a corpus but never its words, and
/// building a `String` for every text of every screen was most of their time. The reader's
/// outline mode (`CorpusReader.nextOutline()`) validates a line exactly as for a full record (a
/// wrong type makes it bad with the same reason) and then decodes only what is here. The two
/// facts are computed by the same rules as from a full record, so `MessageOutline(record)` of a
/// full record equals the outline the reader delivers for its line (tested).
///
/// A class, immutable: an outline is handed from the decoder through the reader to its user, and
/// as a struct of a dozen strings every hand-over the optimizer did not turn into a move was a
/// dozen retains and releases (measured: a whole copy per message); a reference moves as one.
public final class MessageOutline: Sendable, Equatable {
    /// The id of the thread it belongs to (the open thread; the reader checks).
    public let thread: String
    /// The message's id (an opaque token).
    public var id: String { idText.string }
    /// `id`, kept inline (`InlineText`): new on every message, and never read by counting.
    private let idText: InlineText
    /// When it was sent, as written (ISO 8601); empty when the export left it out.
    public var at: String { atText.string }
    /// `at`, kept inline (`InlineText`): counting reads only its bytes (`withAtBytes`).
    private let atText: InlineText
    /// Who sent it.
    public let from: Sender
    /// Whether it had a `text`.
    public let hasText: Bool
    /// The text, only when it holds an `@`: then it may name a group member (`Mention`), the one
    /// question counting asks of a person's words. `nil` for a text without `@` or no text.
    public let mentionText: SealedText?
    /// Whether it had a `screen`.
    public let hasScreen: Bool
    /// Whether that screen is chip-eligible (`Screen.isChipEligible`); false without a screen.
    public let isChipEligible: Bool
    /// The kinds of the screen's unknown nodes, one per node, in order (`Screen.unknownKinds`):
    /// the corpus counts them, whoever reads the message in full.
    public let unknownKinds: [String]
    /// The push sent for an agent's message, if one was.
    public let push: PushInfo?
    /// The message's language (BCP 47), overriding the thread's `locale`.
    public let lang: String?
    /// The metadata with meaning.
    public let meta: MessageMeta

    /// An outline.
    public convenience init(thread: String, id: String, at: String = "", from: Sender, hasText: Bool = false,
                            mentionText: SealedText? = nil, hasScreen: Bool = false, isChipEligible: Bool = false,
                            unknownKinds: [String] = [], push: PushInfo? = nil, lang: String? = nil, meta: MessageMeta = MessageMeta()) {
        self.init(thread: thread, idText: InlineText(id), atText: InlineText(at), from: from, hasText: hasText, mentionText: mentionText,
                  hasScreen: hasScreen, isChipEligible: isChipEligible, unknownKinds: unknownKinds, push: push, lang: lang, meta: meta)
    }

    /// An outline whose `id` and `at` are kept as the decoder read them; the values are taken
    /// over, not copied (one outline is made per message).
    init(thread: consuming String, idText: InlineText, atText: InlineText, from: consuming Sender, hasText: Bool,
         mentionText: consuming SealedText?, hasScreen: Bool, isChipEligible: Bool, unknownKinds: consuming [String],
         push: consuming PushInfo?, lang: consuming String?, meta: consuming MessageMeta) {
        self.thread = thread
        self.idText = idText
        self.atText = atText
        self.from = from
        self.hasText = hasText
        self.mentionText = mentionText
        self.hasScreen = hasScreen
        self.isChipEligible = isChipEligible
        self.unknownKinds = unknownKinds
        self.push = push
        self.lang = lang
        self.meta = meta
    }

    /// The outline of a full record: what the reader's outline mode delivers for the same line.
    public convenience init(_ record: MessageRecord) {
        let mention = record.text.flatMap { text in text.withUnsealedText(MessageOutline.holdsAt) ? text : nil }
        self.init(thread: record.thread, id: record.id, at: record.at, from: record.from,
                  hasText: record.text != nil, mentionText: mention,
                  hasScreen: record.screen != nil, isChipEligible: record.screen?.isChipEligible ?? false,
                  unknownKinds: record.screen?.unknownKinds ?? [], push: record.push, lang: record.lang, meta: record.meta)
    }

    /// Runs `body` with the UTF-8 bytes of `at`, without making it a `String`, and returns
    /// what it returns (counting asks for a slot number). Not generic: a generic method here is
    /// not specialized for its caller in another module, and cost more than the String it saves.
    public func withAtBytes(_ body: (UnsafeRawBufferPointer) -> Int) -> Int {
        atText.withBytes(body)
    }

    /// Equal when every field is.
    public static func == (a: MessageOutline, b: MessageOutline) -> Bool {
        a.thread == b.thread && a.id == b.id && a.at == b.at && a.from == b.from && a.hasText == b.hasText
            && a.mentionText == b.mentionText && a.hasScreen == b.hasScreen && a.isChipEligible == b.isChipEligible
            && a.unknownKinds == b.unknownKinds && a.push == b.push && a.lang == b.lang && a.meta == b.meta
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

    /// The outline of a full record: what the outline mode delivers for the same line.
    public init(_ record: ExportRecord) {
        switch record {
        case .header(let header): self = .header(header)
        case .thread(let thread): self = .thread(thread)
        case .message(let message): self = .message(MessageOutline(message))
        }
    }
}
