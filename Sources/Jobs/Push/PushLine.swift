import Foundation
import Privacy

/// One line for a push: the push job's output type and its checks after generation (spec §4).
///
/// Mirrors `@Generable struct PushLine { @Guide(.maximumCount(90)) var line: String }`. The
/// grammar keeps it to one line of 1 to 90 characters (no control characters, so no line break);
/// what a grammar cannot say is checked after generation: not blank, no greeting at the start, no
/// "<Agent> says" or "<Agent>:". A line that fails keeps the relay's line, counted by reason.
/// The line is the model's words, so it stays sealed; see `SealedOutput`.
public struct PushLine: SealedOutput {
    /// The line, trimmed.
    public var line: SealedText

    /// The schema the model fills.
    public static let schema = GenerationSchema.object([.init("line", .string(length: 1...90))])

    /// The grammar for `schema`, written once.
    public static let grammar = GrammarWriter.grammar(for: schema)

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

    /// Greetings a line may not start with, lowercased, in the corpus's languages (English,
    /// French, German, Spanish, Japanese) plus the cheap neighbours (Italian, Portuguese).
    /// A Latin-script greeting must end at a word boundary ("Hiking" is not "Hi").
    public static let greetings: [String] = [
        "hi", "hello", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon", "good evening",
        "good day", "dear",
        "bonjour", "bonsoir", "salut", "coucou",
        "hallo", "guten morgen", "guten tag", "guten abend", "moin", "servus",
        "hola", "buenos días", "buenos dias", "buenas tardes", "buenas noches", "buenas",
        "ciao", "buongiorno", "olá", "ola", "bom dia",
        "こんにちは", "おはよう", "こんばんは", "やあ",
    ]

    /// Verbs that make "<Agent> <verb>" a line spoken for the agent ("Coach says"), lowercased.
    public static let sayingVerbs: [String] = [
        "says", "said", "writes", "wrote", "asks", "dit", "écrit", "sagt", "schreibt", "dice", "escribe",
    ]

    /// A checked line.
    public init(line: SealedText) {
        self.line = line
    }

    /// The line's length in characters: a size, never the words.
    public var characterCount: Int { line.characterCount }

    /// Decodes and checks a model's output for a reply from `agent`.
    public static func check(output: SealedText, agent: String) -> Result<PushLine, Rejection> {
        guard let content = try? ContentDecoder.decode(output, as: schema),
              let raw = content["line"]?.stringValue else { return .failure(.schema) }
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { return .failure(.blank) }
        if line.withUnsealedText(startsWithGreeting) { return .failure(.greeting) }
        if line.withUnsealedText({ speaksForAgent($0, agent: agent) }) { return .failure(.agentSays) }
        return .success(PushLine(line: line))
    }

    /// Whether `line` opens with one of `greetings`.
    public static func startsWithGreeting(_ line: String) -> Bool {
        let folded = line.lowercased()
        return greetings.contains { greeting in
            guard folded.hasPrefix(greeting) else { return false }
            guard greeting.last.map({ $0.isASCII }) ?? false else { return true }
            let after = folded.dropFirst(greeting.count).first
            return after.map { !($0.isLetter || $0.isNumber) } ?? true
        }
    }

    /// Whether `line` opens with "<agent>:" or has "<agent> says" (or another of `sayingVerbs`)
    /// anywhere, the name compared without regard to case.
    public static func speaksForAgent(_ line: String, agent: String) -> Bool {
        let name = agent.lowercased()
        guard !name.isEmpty else { return false }
        let folded = line.lowercased()
        if folded.hasPrefix(name) {
            let rest = folded.dropFirst(name.count).drop { $0 == " " }
            if rest.first == ":" || rest.first == "：" { return true }
        }
        return sayingVerbs.contains { folded.contains(name + " " + $0) }
    }
}
