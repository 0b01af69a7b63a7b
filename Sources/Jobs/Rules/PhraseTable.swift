/// Phrases a never rule looks for, by language subtag, matched in lowercased text at word
/// boundaries: the per-language tables of `AgentVoiceRule`, `PushAdviceRule` and `ExpertTopic`.
///
/// Built as `PushLineRule` is (one table per language, every language's phrases at once when a
/// line may be in any of them), with a little more said per phrase, written in its text so the
/// tables stay readable:
/// - `^` first: only at the start of the text or of a sentence ("Remember to…" advises; "if you
///   remember to…" does not), after any opening marks ("¡", "¿", quotes, emoji).
/// - `*` last: a stem, with no word boundary after it ("injur*": injury, injured).
/// - ` !a|b` last: not when the next word is `a` or `b` ("^recuerda !que": "Recuerda hidratarte"
///   advises, "Recuerda que trabajo mañana" is the person's own reminder to the agent).
///
/// Every phrase begins at a word boundary and (unless a stem) ends at one: "hi" is not in
/// "this", "ill" not in "ill-prepared". A stem's cancelling words may be endings ("schmerz* !frei":
/// "schmerzfrei" is pain-free). In scripts written without spaces (Han, kana) there are no boundaries to keep. A
/// phrase's apostrophes are the typewriter's ('), and so are the text's once folded (`fold`).
public struct PhraseTable: Sendable {
    /// One phrase and where it may stand.
    public struct Phrase: Sendable, Hashable {
        /// The phrase, lowercased.
        public var text: String
        /// Only at the start of the text or of a sentence.
        public var atSentenceStart: Bool
        /// No word boundary needed after it.
        public var isStem: Bool
        /// Words (or, in scripts without spaces, beginnings) that cancel the phrase when they follow it.
        public var unlessFollowedBy: [String]

        /// Reads a phrase written in the table's notation (`^`, `*`, ` !a|b`; see `PhraseTable`).
        public init(_ notation: String) {
            var text = notation
            var unless: [String] = []
            if let bang = text.range(of: " !") {
                unless = text[bang.upperBound...].split(separator: "|").map { String($0).lowercased() }
                text = String(text[..<bang.lowerBound])
            }
            atSentenceStart = text.hasPrefix("^")
            if atSentenceStart { text.removeFirst() }
            isStem = text.hasSuffix("*")
            if isStem { text.removeLast() }
            self.text = PhraseTable.fold(text)
            unlessFollowedBy = unless.map(PhraseTable.fold)
        }
    }

    /// The phrases by language subtag.
    public let byLanguage: [String: [Phrase]]
    /// Every language's phrases in one list, each once: for a text that may be in any language.
    public let everyLanguage: [Phrase]

    /// A table from phrases in notation by language subtag; "no" reads "nb"'s when not given.
    public init(_ notation: [String: [String]]) {
        var table = notation.mapValues { $0.map(Phrase.init) }
        if table["no"] == nil, let bokmål = table["nb"] { table["no"] = bokmål }
        byLanguage = table
        var seen: Set<Phrase> = []
        everyLanguage = table.keys.sorted().flatMap { table[$0] ?? [] }.filter { seen.insert($0).inserted }
    }

    /// The phrases for `language` (a subtag), or every language's when it is nil or has no table.
    public func phrases(for language: String?) -> [Phrase] {
        language.flatMap { byLanguage[$0.lowercased()] } ?? everyLanguage
    }

    /// `text` as phrases are compared with it: lowercased, typographic apostrophes as ', every run
    /// of white space one space.
    public static func fold(_ text: String) -> String {
        var folded = ""
        folded.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text.lowercased() {
            if character.isWhitespace {
                pendingSpace = !folded.isEmpty
                continue
            }
            if pendingSpace { folded.append(" ") }
            pendingSpace = false
            folded.append(character == "’" || character == "ʼ" || character == "`" ? "'" : character)
        }
        return folded
    }

    /// Where in `folded` (a text already `fold`ed) any of `phrases` stands, as its rules allow.
    public static func matches(in folded: String, phrases: [Phrase]) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        for phrase in phrases where !phrase.text.isEmpty {
            var searched = folded[...]
            while let range = searched.range(of: phrase.text) {
                if stands(phrase, at: range, in: folded) { found.append(range) }
                searched = folded[folded.index(after: range.lowerBound)...]
            }
        }
        return found
    }

    /// Whether `folded` holds any of `phrases` where its rules allow.
    public static func contains(_ folded: String, any phrases: [Phrase]) -> Bool {
        for phrase in phrases where !phrase.text.isEmpty {
            var searched = folded[...]
            while let range = searched.range(of: phrase.text) {
                if stands(phrase, at: range, in: folded) { return true }
                searched = folded[folded.index(after: range.lowerBound)...]
            }
        }
        return false
    }

    /// Whether `phrase`, found at `range` of `text`, starts and ends at word boundaries, stands at
    /// a sentence's start when it must, and is not followed by a word that cancels it.
    static func stands(_ phrase: Phrase, at range: Range<String.Index>, in text: String) -> Bool {
        let before = text[..<range.lowerBound]
        if let first = phrase.text.first, !isUnspaced(first), let previous = before.last, isWordCharacter(previous) {
            return false
        }
        if phrase.atSentenceStart && !isSentenceStart(before) { return false }
        let after = text[range.upperBound...]
        if !phrase.isStem, let last = phrase.text.last, !isUnspaced(last), continuesWord(after) {
            return false
        }
        if !phrase.unlessFollowedBy.isEmpty {
            let rest = after.drop { $0 == " " || $0 == "," || $0 == "、" }
            for word in phrase.unlessFollowedBy where rest.hasPrefix(word) {
                let tail = rest.dropFirst(word.count)
                let whole = word.last.map { isUnspaced($0) || $0 == "'" } == true || !continuesWord(tail)
                if whole { return false }
            }
        }
        return true
    }

    /// Whether what comes before a match leaves it at the start of a sentence: nothing but white
    /// space and opening marks back to the text's start or to a sentence's end.
    static func isSentenceStart(_ before: Substring) -> Bool {
        for character in before.reversed() {
            if sentenceEnds.contains(character) { return true }
            if character.isWhitespace || openingMarks.contains(character) || isEmojiLike(character) { continue }
            return false
        }
        return true
    }

    /// What ends a sentence, in the scripts of the supported languages.
    static let sentenceEnds: Set<Character> = [".", "!", "?", "…", ":", ";", "\n", "。", "！", "？", "：", "；"]
    /// What may open a sentence before its first word.
    static let openingMarks: Set<Character> = ["¡", "¿", "\"", "'", "«", "»", "“", "”", "„", "‘", "(", "[", "-", "–", "—", "*", "•", "「", "『", "（"]

    /// A pictograph or symbol that may stand before a sentence's first word ("👍 Great job").
    static func isEmojiLike(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.properties.generalCategory == .otherSymbol }
    }

    /// A letter or digit: what a boundary may not cut. An apostrophe before a phrase is a
    /// boundary (French and Italian elide: "l'avocat" holds "avocat").
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Whether `rest`, what follows a match, goes on with the same word: a letter or digit, or an
    /// apostrophe or hyphen and a letter ("you" does not end at "you'll", nor "ill" at "ill-prepared").
    static func continuesWord(_ rest: Substring) -> Bool {
        guard let next = rest.first else { return false }
        if isWordCharacter(next) { return true }
        return (next == "'" || next == "-") && rest.dropFirst().first?.isLetter == true
    }

    /// Whether `character` belongs to a script written without spaces between words (Han, kana).
    static func isUnspaced(_ character: Character) -> Bool { PushLineRule.isUnspaced(character) }
}
