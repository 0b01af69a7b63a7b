/// What a push line may not say in one language: open with a greeting, or speak for the agent.
///
/// Spec §4: "No greeting, no 'Coach says'". A grammar cannot say either, so the push job checks
/// each line after generation, with every language's rule at once (a model asked for Danish may
/// still greet in English). A line in a language with no rule here is `unchecked`, never passed:
/// the test walks every language `SupportedLanguages.appleIntelligence` accepts and requires a
/// rule for each.
public struct PushLineRule: Sendable, Equatable {
    /// Greetings a line may not start with, lowercased. One that ends in a letter of a script
    /// written with spaces must end at a word boundary ("Hiking" is not "Hi"; "Heisann" is not "Hei"
    /// but is a greeting of its own).
    public var greetings: [String]
    /// Whole words that follow an agent's name in a line spoken for it, lowercased: " says"
    /// ("Coach says"). Matched right after the name, with a word boundary after them ("Coach
    /// sample" is not Swedish "Coach sa").
    public var agentSays: [String] = []
    /// Stems that follow an agent's name in a line spoken for it, matched without a boundary
    /// after them, for languages that build the verb on: "님이 말" ("Coach님이 말했어요"),
    /// " diyor" ("Coach diyordu"), "说" ("Coach说").
    public var agentSaysStems: [String] = []

    /// The rules by language subtag: every language of Apple's on-device model, and "no" as "nb".
    public static let byLanguage: [String: PushLineRule] = {
        var rules: [String: PushLineRule] = [
            "en": PushLineRule(
                greetings: ["hi", "hello", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon",
                            "good evening", "good day", "dear"],
                agentSays: [" says", " said", " writes", " wrote", " asks", " asked", " tells you", " told you"]),
            "fr": PushLineRule(
                greetings: ["bonjour", "bonsoir", "salut", "coucou"],
                agentSays: [" dit", " a dit", " écrit", " demande", " te dit", " vous dit"]),
            "de": PushLineRule(
                greetings: ["hallo", "guten morgen", "guten tag", "guten abend", "moin", "servus"],
                agentSays: [" sagt", " schreibt", " fragt", " meint"]),
            "es": PushLineRule(
                greetings: ["hola", "buenos días", "buenos dias", "buenas tardes", "buenas noches", "buenas"],
                agentSays: [" dice", " dijo", " escribe", " pregunta"]),
            "it": PushLineRule(
                greetings: ["ciao", "buongiorno", "buonasera"],
                agentSays: [" dice", " ha detto", " scrive", " chiede"]),
            "pt": PushLineRule(
                greetings: ["olá", "ola", "oi", "bom dia", "boa tarde", "boa noite"],
                agentSays: [" diz", " disse", " escreve", " pergunta"]),
            "ja": PushLineRule(
                greetings: ["こんにちは", "おはよう", "こんばんは", "やあ"],
                agentSaysStems: ["が言", "さんが言", "は言", "さんは言", "が書", "さんが書", "によると", "さんによると"]),
            "zh": PushLineRule(
                greetings: ["你好", "您好", "大家好", "早上好", "早安", "晚上好", "嗨", "哈喽"],
                agentSaysStems: ["说", " 说", "說", " 說", "写道", "寫道", "表示", "问", "問"]),
            "ko": PushLineRule(
                greetings: ["안녕하세요", "안녕하십니까", "안녕", "좋은 아침"],
                agentSaysStems: ["님이 말", "님께서 말", "님 말씀", "이 말", "가 말", "님이 전", "님께서 전"]),
            "nl": PushLineRule(
                greetings: ["hallo", "hoi", "goedemorgen", "goedemiddag", "goedenavond", "goedendag"],
                agentSays: [" zegt", " zei", " schrijft", " vraagt"]),
            "da": PushLineRule(
                greetings: ["hej", "hejsa", "hallo", "godmorgen", "god morgen", "goddag"],
                agentSays: [" siger", " sagde", " skriver", " spørger"]),
            "sv": PushLineRule(
                greetings: ["hej", "hejsan", "hallå", "tjena", "god morgon", "god kväll"],
                agentSays: [" säger", " sa", " sade", " skriver", " frågar"]),
            "nb": PushLineRule(
                greetings: ["hei", "heisann", "hallo", "god morgen", "god dag", "god kveld"],
                agentSays: [" sier", " sa", " skriver", " spør"]),
            "tr": PushLineRule(
                greetings: ["merhaba", "selam", "selamlar", "günaydın", "iyi akşamlar"],
                agentSaysStems: [" diyor", " dedi", " yazıyor", " yazdı", " soruyor", " sordu"]),
            "vi": PushLineRule(
                greetings: ["xin chào", "chào"],
                agentSays: [" nói", " viết", " hỏi"]),
        ]
        rules["no"] = rules["nb"]
        return rules
    }()

    /// Every language's rule in one: what every line is checked against.
    public static let everyLanguage = PushLineRule(
        greetings: Array(Set(byLanguage.values.flatMap(\.greetings))).sorted(),
        agentSays: Array(Set(byLanguage.values.flatMap(\.agentSays))).sorted(),
        agentSaysStems: Array(Set(byLanguage.values.flatMap(\.agentSaysStems))).sorted())

    /// Whether `line` opens with one of `greetings`.
    public func startsWithGreeting(_ line: String) -> Bool {
        let folded = line.lowercased()
        return greetings.contains { greeting in
            folded.hasPrefix(greeting) && Self.endsAtBoundary(folded.dropFirst(greeting.count), after: greeting)
        }
    }

    /// Whether `line` opens with "<agent>:" or holds the agent's name followed by one of
    /// `agentSays` or `agentSaysStems`, the name compared without regard to case.
    public func speaksForAgent(_ line: String, agent: String) -> Bool {
        let name = agent.lowercased()
        guard !name.isEmpty else { return false }
        let folded = line.lowercased()
        if folded.hasPrefix(name) {
            let rest = folded.dropFirst(name.count).drop { $0 == " " }
            if rest.first == ":" || rest.first == "：" { return true }
        }
        var searched = folded[...]
        while let found = searched.range(of: name) {
            let after = searched[found.upperBound...]
            if agentSays.contains(where: { after.hasPrefix($0) && Self.endsAtBoundary(after.dropFirst($0.count), after: $0) })
                || agentSaysStems.contains(where: { after.hasPrefix($0) }) {
                return true
            }
            searched = searched[searched.index(after: found.lowerBound)...]
        }
        return false
    }

    /// Whether `rest`, what follows a matched `word`, leaves it a whole word: always after a
    /// script written without spaces (Chinese, Japanese kana), else when the next character is
    /// not a letter or digit.
    static func endsAtBoundary(_ rest: Substring, after word: String) -> Bool {
        guard let last = word.last, !isUnspaced(last) else { return true }
        return rest.first.map { !($0.isLetter || $0.isNumber) } ?? true
    }

    /// Whether `character` belongs to a script written without spaces between words: Han, kana.
    static func isUnspaced(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        return (0x3040...0x30FF).contains(scalar)     // Hiragana, Katakana
            || (0x3400...0x4DBF).contains(scalar)     // CJK Extension A
            || (0x4E00...0x9FFF).contains(scalar)     // CJK Unified Ideographs
            || (0xF900...0xFAFF).contains(scalar)     // CJK Compatibility Ideographs
            || (0x20000...0x3134F).contains(scalar)   // CJK Extensions B–G
    }
}
