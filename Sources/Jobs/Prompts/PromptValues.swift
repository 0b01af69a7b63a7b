import Privacy

/// What a job fills its templates with at one place: its inputs' words, which of them planning
/// has already counted, the lists, the conditions that hold, and the language it answers in.
public struct PromptValues: Sendable {
    /// The language's BCP 47 tag (the message's `lang`, else the thread's `locale`): it chooses
    /// the instructions and is `{language}`, by its English name.
    public var language: String?
    /// Each input's words, by name (`agent`, `words`, …).
    public var texts: [String: SealedText]
    /// The lines a list input becomes (routing's `members`), by name.
    public var lists: [String: [SealedText]]
    /// `Tokenizer.tokenCount` of an input's words when planning already knows it (the cut words).
    public var tokenCounts: [String: Int]
    /// The conditions that hold here (`last_message`, `batched`).
    public var conditions: Set<String>

    public init(language: String?, texts: [String: SealedText] = [:], lists: [String: [SealedText]] = [:],
                tokenCounts: [String: Int] = [:], conditions: Set<String> = []) {
        self.language = language
        self.texts = texts
        self.lists = lists
        self.tokenCounts = tokenCounts
        self.conditions = conditions
    }

    /// The words of input `name`: its text, or the language's name.
    func value(_ name: String) -> SealedText? {
        if let text = texts[name] { return text }
        return name == "language" ? SealedText(Language.name(of: language)) : nil
    }
}
