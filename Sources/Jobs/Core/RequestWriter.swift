import Engine
import Privacy

/// The items of one plan call, and their requests: each place's prompt values written in the
/// job's words (`JobPrompts`) into a request under the job's limits (`AskSettings`), and the
/// request's size counted from its prompt's parts.
///
/// Every job writes its requests this one way. The writer keeps what a plan call's places share
/// (the last place's instructions, the prompt's fixed parts and their counts: `JobPrompts`'
/// memos), so most places render and count only their own words, and the size sums the parts'
/// known counts wherever the seams allow (`Tokenizer.promptTokenCount(for:promptParts:…)`): the
/// prompt is never joined to be counted. One writer per plan call (`CountedPlanning` makes it).
struct RequestWriter {
    /// A prompt's parts are joined by a newline.
    static let separator = "\n"

    /// One place's request, and what its size was counted from.
    struct Written {
        let request: GenerationRequest
        /// The request's tokens as the model counts them: chat framing, instructions and prompt.
        let promptTokens: Int
        /// The prompt's parts and the token counts known for them (`JobPrompts.promptParts`).
        let parts: [SealedText]
        let knownCounts: [Int?]
    }

    let asking: AskSettings
    /// The plan call's tokenizer, which may count each model version its own way
    /// (`Tokenizer.tokenizer(forModel:)`).
    private let base: any Tokenizer
    /// The tokenizer of the current place's model version, chosen at `answers(in:at:)`: what its
    /// cut and its prompt are counted with.
    private(set) var tokenizer: any Tokenizer
    /// The plan call's items so far, in the order of their places: what it returns.
    var items: [JobItem] = []
    private var partsMemo: JobPrompts.PromptPartsMemo? = nil
    private var instructionsMemo: JobPrompts.InstructionsMemo? = nil

    init(asking: AskSettings, tokenizer: any Tokenizer) {
        self.asking = asking
        base = tokenizer
        self.tokenizer = tokenizer
    }

    /// A writer for the same plan call that asks with `asking` instead (routing's drawer: other
    /// words, the same tokenizers); its items are its own, for the caller to take over.
    func sibling(asking: AskSettings) -> RequestWriter {
        RequestWriter(asking: asking, tokenizer: base)
    }

    /// Whether the job answers in `language` (`AskSettings.supportedLanguages`); when it does not,
    /// the place at `attribution` falls back before the model is asked (spec §6), and its item says so.
    /// When it does, `tokenizer` is then the place's model version's.
    mutating func answers(in language: String?, at attribution: Attribution) -> Bool {
        guard !asking.supportedLanguages.supports(language) else {
            let counting = base.tokenizer(forModel: attribution.model)
            if counting !== tokenizer {
                // Counts kept between places are another version's: counted again.
                tokenizer = counting
                partsMemo = nil
            }
            return true
        }
        items.append(.unsupportedLanguage(job: asking.prompts.job, attribution: attribution))
        return false
    }

    /// The expert topic `words` name (`ExpertTopic.named`, read in `language`), the first of the
    /// topics' order any of them names, when the job labels topics (`AskSettings.labelsTopics`);
    /// nil otherwise. Each text is read on its own, so no phrase spans two.
    func topic(of words: [SealedText?], language: String?) -> ExpertTopic? {
        guard asking.labelsTopics else { return nil }
        let code = Language.code(of: language)
        let folded = words.compactMap { $0?.withUnsealedText { PhraseTable.Folded($0) } }
        return ExpertTopic.allCases.first { topic in folded.contains { topic.phrases.contains($0, language: code) } }
    }

    /// The request for the place `values` describe, answered under `grammar` (or, by an engine
    /// that takes schemas, under `schema`: the same shape).
    mutating func request(_ values: PromptValues, grammar: String?, schema: ResponseSchema?, choices: [SealedText]? = nil) -> Written {
        let (parts, knownCounts) = asking.prompts.promptParts(values, tokenizer: tokenizer, memo: &partsMemo)
        var request = GenerationRequest(
            instructions: asking.prompts.instructions(values, memo: &instructionsMemo), promptParts: parts, separator: Self.separator,
            grammar: grammar, maxOutputTokens: asking.maxOutputTokens, contextLimit: asking.contextLimit,
            choices: choices)
        request.responseSchema = schema
        let promptTokens = tokenizer.promptTokenCount(for: request, promptParts: parts, separator: Self.separator, knownCounts: knownCounts)
        return Written(request: request, promptTokens: promptTokens, parts: parts, knownCounts: knownCounts)
    }
}
