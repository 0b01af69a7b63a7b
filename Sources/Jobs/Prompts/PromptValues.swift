import Privacy

/// What a job fills its templates with at one place: its inputs' words, which of them planning
/// has already counted, the lists, the conditions that hold, and the language it answers in.
///
/// A handful of values per place, looked up by name a few times each: kept in small arrays,
/// which a dry run filling hundreds of thousands of prompts finds cheaper than hashing names.
public struct PromptValues: Sendable {
    /// The language's BCP 47 tag (the message's `lang`, else the thread's `locale`): it chooses
    /// the instructions and is `{language}`, by its English name.
    public var language: String?
    /// Each input's words and, when planning knows it, their `Tokenizer.tokenCount` (the cut words).
    private var inputs: [(name: String, text: SealedText, tokens: Int?)] = []
    /// The lines a list input becomes (routing's `members`), with each line's
    /// `Tokenizer.tokenCount` where planning knows it.
    private var lists: [(name: String, lines: [SealedText], tokens: [Int?])] = []
    /// The conditions that hold here (`last_message`, `batched`).
    private var conditions: [String] = []

    public init(language: String?) {
        self.language = language
    }

    /// Input `name` is `text`, of `tokens` tokens when known.
    public mutating func set(_ name: String, _ text: SealedText, tokens: Int? = nil) {
        inputs.removeAll { $0.name == name }
        inputs.append((name, text, tokens))
    }

    /// List input `name` is these lines, each a part of the prompt, of `tokens[i]` tokens each
    /// when known (one count per line, or none).
    public mutating func set(_ name: String, lines: [SealedText], tokens: [Int]? = nil) {
        precondition(tokens.map { $0.count == lines.count } ?? true, "one count per line")
        lists.removeAll { $0.name == name }
        lists.append((name, lines, tokens ?? lines.map { _ in nil }))
    }

    /// Condition `name` holds here.
    public mutating func hold(_ name: String) {
        if !conditions.contains(name) { conditions.append(name) }
    }

    /// Whether condition `name` holds.
    func holds(_ name: String) -> Bool { conditions.contains(name) }

    /// The words of input `name`: its text, or the language's name.
    func value(_ name: String) -> SealedText? {
        if let input = inputs.first(where: { $0.name == name }) { return input.text }
        return name == "language" ? SealedText(Language.name(of: language)) : nil
    }

    /// The token count of input `name`'s words, when planning knows it.
    func tokens(_ name: String) -> Int? { inputs.first { $0.name == name }?.tokens }

    /// The lines of list input `name` and their counts where known, if it is one.
    func linesAndTokens(_ name: String) -> (lines: [SealedText], tokens: [Int?])? {
        lists.first { $0.name == name }.map { ($0.lines, $0.tokens) }
    }
}
