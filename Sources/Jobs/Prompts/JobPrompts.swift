import Engine
import Privacy

/// One job's part of a prompt set: its instructions (one for every language, and any for one
/// language in particular), the parts of its prompt, and its line templates (routing's member
/// lines). Checked against the job's `PromptInputs` when read.
///
/// Only words: the output schema, the caps and the budgets are the job's own (the spec's
/// contract), and a prompt set cannot change them.
public struct JobPrompts: Sendable, Equatable {
    /// The block of the set these prompts are: a job's, or the drawer's (route's).
    public let block: PromptBlock
    /// The job these prompts are for.
    public var job: JobKind { block.job }
    /// The instructions for a language with none of its own.
    public var instructions: PromptTemplate
    /// Instructions for one language, by the language subtag of the export's tags (`fr` for
    /// `fr-CA`): a message in that language gets these instead.
    public var instructionsByLanguage: [String: PromptTemplate] = [:]
    /// The prompt's parts, joined by a newline.
    public var prompt: [PromptPart]
    /// The job's line templates by key (`member`, `member_without_about`).
    public var lines: [String: PromptTemplate] = [:]
    /// The set's reserved strings (`PromptSet.reserved`): removed from every input's words
    /// before they are put in a prompt, so a fence the set draws around an agent's words
    /// (`<<agent>>`…`<</agent>>`) cannot be closed or forged by those words.
    public var reserved: [String] = []

    /// The prompts of `block` (a job's own, by default).
    public init(job: JobKind, block: PromptBlock? = nil, instructions: PromptTemplate, instructionsByLanguage: [String: PromptTemplate] = [:],
                prompt: [PromptPart], lines: [String: PromptTemplate] = [:]) {
        precondition(block == nil || block?.job == job, "a block is of its job")
        self.block = block ?? .job(job)
        self.instructions = instructions
        self.instructionsByLanguage = instructionsByLanguage
        self.prompt = prompt
        self.lines = lines
    }

    /// The instructions for `values`' language, filled in.
    public func instructions(_ values: PromptValues) -> SealedText {
        instructionsTemplate(for: values.language).rendered(fenced(values))
    }

    /// The instructions for `values`, the same text as `instructions(values)`: the text kept in
    /// `memo` when the place before it had the same language and the same words for the
    /// template's inputs, else rendered and kept there. One memo per plan call: most of
    /// its places share their instructions, and rendering them names the language each time.
    public func instructions(_ values: PromptValues, memo: inout InstructionsMemo?) -> SealedText {
        let template = instructionsTemplate(for: values.language)
        if let memo, memo.language == values.language, Self.inputs(of: template, values, equal: memo.inputs) { return memo.text }
        let text = template.rendered(fenced(values))
        memo = InstructionsMemo(language: values.language, inputs: Self.inputs(of: template, values), text: text)
        return text
    }

    /// The instructions of one place, and what they were rendered from (`instructions(_:memo:)`).
    public struct InstructionsMemo: Sendable {
        fileprivate var language: String?
        fileprivate var inputs: [SealedText?]
        fileprivate var text: SealedText
    }

    /// The template for `language`: its own when the set has one, else the default.
    private func instructionsTemplate(for language: String?) -> PromptTemplate {
        // Most sets have no instructions of a language's own: the tag is then not parsed for them.
        instructionsByLanguage.isEmpty
            ? instructions
            : Language.code(of: language).flatMap { instructionsByLanguage[$0] } ?? instructions
    }

    /// The prompt's parts, filled in, to be joined by a newline, and each part's token count where
    /// planning knows it: a part that is exactly one input whose count `values` knows (the cut
    /// words), or a line of a list whose lines' counts it knows (routing's members), has that
    /// count, so the prompt's size is not worked out again.
    ///
    /// A part dropped by its condition leaves nothing; a part that is a list input becomes one
    /// part per line (none for an empty list).
    public func promptParts(_ values: PromptValues) -> (parts: [SealedText], knownCounts: [Int?]) {
        var parts: [SealedText] = []
        var counts: [Int?] = []
        for part in prompt where part.isKept(under: values) {
            let sole = part.template.soleInput
            if let sole, let list = values.linesAndTokens(sole) {
                parts += list.lines
                counts += list.tokens
                continue
            }
            parts.append(part.template.rendered(fenced(values)))
            counts.append(sole.flatMap { knownTokens($0, values) })
        }
        return (parts, counts)
    }

    /// Each prompt part's token count when it is fixed words with no input ("\nWho is this
    /// message for?"), else nil: the same in every prompt, so counted once per plan call.
    /// Only the prompt set's own words are counted here, never a corpus's.
    public func fixedPartCounts(_ tokenizer: any Tokenizer) -> [Int?] {
        prompt.map { part in part.template.isFixed ? tokenizer.tokenCount(of: part.template.rendered { _ in nil }) : nil }
    }

    /// `promptParts(values)`, the same parts with more of their counts known, from what a plan call
    /// can keep between its places kept in `memo`: the fixed parts counted by `tokenizer` at the
    /// first prompt, and for a part of words and inputs ("{agent} wrote:") its text at the last
    /// place, given again while its inputs' words are the same, and counted once it repeats.
    public func promptParts(_ values: PromptValues, tokenizer: any Tokenizer,
                            memo: inout PromptPartsMemo?) -> (parts: [SealedText], knownCounts: [Int?]) {
        if memo == nil { memo = PromptPartsMemo(fixedCounts: fixedPartCounts(tokenizer), last: Array(repeating: nil, count: prompt.count)) }
        var parts: [SealedText] = []
        var counts: [Int?] = []
        parts.reserveCapacity(prompt.count + 8)
        counts.reserveCapacity(prompt.count + 8)
        for (index, part) in prompt.enumerated() where part.isKept(under: values) {
            if let fixed = memo!.fixedCounts[index] {
                parts.append(part.template.rendered(fenced(values)))
                counts.append(fixed)
                continue
            }
            if let sole = part.template.soleInput {
                // An input alone (the cut words, a message) is new at every place.
                if let list = values.linesAndTokens(sole) {
                    parts += list.lines
                    counts += list.tokens
                } else {
                    parts.append(part.template.rendered(fenced(values)))
                    counts.append(knownTokens(sole, values))
                }
                continue
            }
            if var kept = memo!.last[index], Self.inputs(of: part.template, values, equal: kept.inputs) {
                if kept.tokens == nil {
                    kept.tokens = tokenizer.tokenCount(of: kept.text)
                    memo!.last[index] = kept
                }
                parts.append(kept.text)
                counts.append(kept.tokens)
                continue
            }
            let text = part.template.rendered(fenced(values))
            memo!.last[index] = PromptPartsMemo.Kept(inputs: Self.inputs(of: part.template, values), text: text, tokens: nil)
            parts.append(text)
            counts.append(nil)
        }
        return (parts, counts)
    }

    /// The words of `template`'s inputs at a place, in order; the language by its tag, since
    /// naming it is the costly part of rendering it.
    private static func inputs(of template: PromptTemplate, _ values: PromptValues) -> [SealedText?] {
        var inputs: [SealedText?] = []
        for case .input(let name) in template.segments { inputs.append(word(name, values)) }
        return inputs
    }

    /// Whether `inputs(of: template, values)` would be `kept`, without making it.
    private static func inputs(of template: PromptTemplate, _ values: PromptValues, equal kept: [SealedText?]) -> Bool {
        var index = 0
        for case .input(let name) in template.segments {
            guard index < kept.count, word(name, values) == kept[index] else { return false }
            index += 1
        }
        return index == kept.count
    }

    private static func word(_ name: String, _ values: PromptValues) -> SealedText? {
        name == "language" ? values.language.map { SealedText("tag:" + $0) } : values.value(name)
    }

    /// What one plan call keeps of its prompts' parts (`promptParts(_:tokenizer:memo:)`).
    public struct PromptPartsMemo: Sendable {
        fileprivate struct Kept: Sendable {
            var inputs: [SealedText?]
            var text: SealedText
            var tokens: Int?
        }
        fileprivate var fixedCounts: [Int?]
        fileprivate var last: [Kept?]
    }

    /// Line template `key` filled with `values` (routing's member line from a name and its
    /// `about`), their reserved strings removed: the line is then a list input's, put in as it is.
    public func line(_ key: String, _ values: [String: SealedText]) -> SealedText {
        (lines[key] ?? PromptTemplate.empty).rendered { values[$0].map(withoutReserved) }
    }

    /// `values`' inputs as a template reads them: each input's words without the reserved
    /// strings. A list input's lines were made by `line` and are put in as they are.
    private func fenced(_ values: PromptValues) -> (String) -> SealedText? {
        guard !reserved.isEmpty else { return values.value }
        return { name in values.value(name).map(withoutReserved) }
    }

    /// The token count planning knows for input `name`, unless removing reserved strings changed its words.
    private func knownTokens(_ name: String, _ values: PromptValues) -> Int? {
        guard !reserved.isEmpty, let text = values.value(name), holdsReserved(text) else { return values.tokens(name) }
        return nil
    }

    private func holdsReserved(_ text: SealedText) -> Bool {
        text.withUnsealedText { words in reserved.contains { words.contains($0) } }
    }

    /// `text` without any reserved string, removed until none is left (removing one may join
    /// the pieces of another: `<<agent<<agent>>>>`).
    public func withoutReserved(_ text: SealedText) -> SealedText {
        guard !reserved.isEmpty, holdsReserved(text) else { return text }
        return text.withUnsealedText { words in
            var cleaned = words
            while let found = reserved.first(where: { cleaned.contains($0) }) { cleaned = cleaned.replacing(found, with: "") }
            return SealedText(cleaned)
        }
    }
}

extension PromptTemplate {
    /// The template with no words.
    static let empty = try! PromptTemplate(parsing: "")
}
