import Engine
import Foundation
import Privacy

/// One line for a push: the push job's output type and its checks after generation (spec §4).
///
/// Mirrors `@Generable struct PushLine { @Guide(.maximumCount(90)) var line: String }`. The
/// grammar keeps it to one line of 1 to 90 characters (no control characters, so no line break);
/// what a grammar cannot say is checked after generation: not blank, no greeting at the start, no
/// "<Agent> says" or "<Agent>:", in any language (`PushLineRule`). A line that fails keeps the
/// relay's line, counted by reason. The line is the model's words, so it stays sealed; see
/// `SealedOutput`.
public struct PushLine: SealedOutput {
    /// The line, trimmed.
    public var line: SealedText
    /// Whether the line's language has a rule of its own (`PushLineRule.byLanguage`), so passing
    /// the checks means something; false when it is `unchecked`.
    public var checkedInItsLanguage: Bool

    /// The schema the model fills.
    public static let schema = GenerationSchema.object([.init("line", .string(length: 1...90))])

    /// The grammar for `schema`, written once.
    public static let grammar = GrammarWriter.grammar(for: schema)

    /// `schema` as a JSON Schema, for an engine that takes schemas (`JSONSchemaWriter`), written once.
    public static let responseSchema = JSONSchemaWriter.responseSchema("push_line", schema)

    /// Why a line was rejected; the raw value is the job's counter.
    public enum Rejection: String, Error, Sendable, CaseIterable {
        /// The output does not fit the schema.
        case schema = "rejected_schema"
        /// Nothing but white space.
        case blank = "rejected_blank"
        /// It starts with a greeting.
        case greeting = "rejected_greeting"
        /// It speaks for the agent: "Coach says…", "Coach: …".
        case agentSays = "rejected_agent_says"
    }

    /// A checked line.
    public init(line: SealedText, checkedInItsLanguage: Bool = true) {
        self.line = line
        self.checkedInItsLanguage = checkedInItsLanguage
    }

    /// The line's length in characters: a size, never the words.
    public var characterCount: Int { line.characterCount }

    /// Decodes and checks a model's output for a reply from `agent` in `language` (a language
    /// subtag; nil when the export gives none, and the phone's own language is one of the
    /// supported ones, each with its rule).
    ///
    /// Every language's greetings and "<Agent> says" are refused whatever the line's language
    /// (a model asked for Danish may still greet in English). A line that passes is checked in
    /// its language only when that language has a rule; otherwise `checkedInItsLanguage` is false
    /// and the push job counts it `unchecked`, never as well formed.
    public static func check(output: SealedText, agent: String, language: String? = nil) -> Result<PushLine, Rejection> {
        guard let line = decodedLine(output) else { return .failure(.schema) }
        if line.isEmpty { return .failure(.blank) }
        let rule = PushLineRule.everyLanguage
        if line.withUnsealedText(rule.startsWithGreeting) { return .failure(.greeting) }
        if line.withUnsealedText({ rule.speaksForAgent($0, agent: agent) }) { return .failure(.agentSays) }
        let checked = language.map { PushLineRule.byLanguage[$0.lowercased()] != nil } ?? true
        return .success(PushLine(line: line, checkedInItsLanguage: checked))
    }

    /// The line of an output the schema decodes, trimmed (possibly empty); nil when it does not
    /// decode. What `check` judges, and what the push job's never rules read on every decoded
    /// line, rejected or not.
    static func decodedLine(_ output: SealedText) -> SealedText? {
        guard let content = try? ContentDecoder.decode(output, as: schema),
              let raw = content["line"]?.stringValue else { return nil }
        return raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
