import Foundation

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
///   advises, "Recuerda que trabajo mañana" is the person's own reminder to the agent); after a
///   stem, not when the word goes on with `a` or `b` ("schmerz* !frei": "schmerzfrei" is pain-free).
///
/// Every phrase begins at a word boundary and (unless a stem) ends at one: "hi" is not in
/// "this", "ill" not in "ill-prepared". In scripts written without spaces (Han, kana) there are
/// no boundaries to keep. An apostrophe before a phrase is a boundary (French and Italian elide:
/// "l'avocat" holds "avocat"). A phrase's apostrophes are the typewriter's ('), and so are the
/// text's once folded (`Folded`).
///
/// Matching runs on UTF-8 bytes, the phrases indexed by their first byte: the draft job labels
/// every offline message at planning, and a dry run plans a whole corpus.
public struct PhraseTable: Sendable {
    /// One phrase and where it may stand.
    public struct Phrase: Sendable, Hashable {
        /// The phrase, folded (`Folded`).
        public var text: String
        /// Only at the start of the text or of a sentence.
        public var atSentenceStart: Bool
        /// No word boundary needed after it.
        public var isStem: Bool
        /// Words (or, after a stem or in scripts without spaces, beginnings) that cancel the
        /// phrase when they follow it, folded.
        public var unlessFollowedBy: [String]
        /// `text` as UTF-8.
        let bytes: [UInt8]
        /// `unlessFollowedBy` as UTF-8.
        let unlessBytes: [[UInt8]]

        /// Reads a phrase written in the table's notation (`^`, `*`, ` !a|b`; see `PhraseTable`).
        public init(_ notation: String) {
            var text = notation
            var unless: [String] = []
            if let bang = text.range(of: " !") {
                unless = text[bang.upperBound...].split(separator: "|").map(String.init)
                text = String(text[..<bang.lowerBound])
            }
            atSentenceStart = text.hasPrefix("^")
            if atSentenceStart { text.removeFirst() }
            isStem = text.hasSuffix("*")
            if isStem { text.removeLast() }
            self.text = Folded.fold(text)
            unlessFollowedBy = unless.map(Folded.fold)
            bytes = Array(self.text.utf8)
            unlessBytes = unlessFollowedBy.map { Array($0.utf8) }
        }
    }

    /// A text as phrases are compared with it: lowercased, typographic apostrophes as ', every
    /// run of white space one space; kept as UTF-8 bytes.
    public struct Folded: Sendable {
        /// The folded text's UTF-8.
        public let bytes: [UInt8]

        public init(_ text: String) {
            bytes = Array(Self.fold(text).utf8)
        }

        /// `text` folded.
        public static func fold(_ text: String) -> String {
            var folded = ""
            folded.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for scalar in text.lowercased().unicodeScalars {
                if scalar.properties.isWhitespace {
                    pendingSpace = !folded.isEmpty
                    continue
                }
                if pendingSpace { folded.unicodeScalars.append(" ") }
                pendingSpace = false
                folded.unicodeScalars.append(scalar == "’" || scalar == "ʼ" || scalar == "`" ? "'" : scalar)
            }
            return folded
        }
    }

    /// Phrases and, for each first byte, the indexes of those that start with it.
    struct Index: Sendable {
        let phrases: [Phrase]
        let byFirstByte: [[Int]]

        init(_ phrases: [Phrase]) {
            self.phrases = phrases
            var table = [[Int]](repeating: [], count: 256)
            for (index, phrase) in phrases.enumerated() {
                if let first = phrase.bytes.first { table[Int(first)].append(index) }
            }
            byFirstByte = table
        }
    }

    /// The phrases by language subtag.
    public var byLanguage: [String: [Phrase]] { languages.mapValues(\.phrases) }
    /// Every language's phrases in one list, each once: for a text that may be in any language.
    public var everyLanguage: [Phrase] { every.phrases }

    private let languages: [String: Index]
    private let every: Index

    /// A table from phrases in notation by language subtag; "no" reads "nb"'s when not given.
    public init(_ notation: [String: [String]]) {
        var table = notation.mapValues { $0.map(Phrase.init) }
        if table["no"] == nil, let bokmål = table["nb"] { table["no"] = bokmål }
        languages = table.mapValues(Index.init)
        var seen: Set<Phrase> = []
        every = Index(table.keys.sorted().flatMap { table[$0] ?? [] }.filter { seen.insert($0).inserted })
    }

    /// The byte ranges of `text` where a phrase stands as its rules allow: `language`'s phrases
    /// (none when the table has no such language), or every language's when it is nil.
    public func matches(in text: Folded, language: String? = nil) -> [Range<Int>] {
        var found: [Range<Int>] = []
        search(text, language: language) { found.append($0); return false }
        return found
    }

    /// Whether a phrase stands in `text` as its rules allow (`matches(in:language:)`).
    public func contains(_ text: Folded, language: String? = nil) -> Bool {
        var hit = false
        search(text, language: language) { _ in hit = true; return true }
        return hit
    }

    /// Calls `found` for each match, in order of position, until it returns true.
    private func search(_ text: Folded, language: String?, _ found: (Range<Int>) -> Bool) {
        guard let index = language.map({ languages[$0.lowercased()] }) ?? every else { return }
        let bytes = text.bytes
        for start in bytes.indices {
            for candidate in index.byFirstByte[Int(bytes[start])] {
                let phrase = index.phrases[candidate]
                let end = start + phrase.bytes.count
                guard end <= bytes.count, Self.equal(bytes, from: start, phrase.bytes),
                      Self.stands(phrase, from: start, to: end, in: bytes) else { continue }
                if found(start..<end) { return }
            }
        }
    }

    /// Whether `bytes` hold `word` at `offset`.
    static func equal(_ bytes: [UInt8], from offset: Int, _ word: [UInt8]) -> Bool {
        guard offset + word.count <= bytes.count else { return false }
        for index in word.indices where bytes[offset + index] != word[index] { return false }
        return true
    }

    /// Whether `phrase`, found at `start..<end` of `bytes`, starts and ends at word boundaries,
    /// stands at a sentence's start when it must, and is not followed by a word that cancels it.
    static func stands(_ phrase: Phrase, from start: Int, to end: Int, in bytes: [UInt8]) -> Bool {
        let first = scalar(at: 0, of: phrase.bytes)
        if let first, !isUnspaced(first), let previous = scalar(before: start, of: bytes), isWordScalar(previous) {
            return false
        }
        if phrase.atSentenceStart && !isSentenceStart(before: start, of: bytes) { return false }
        let last = scalar(before: phrase.bytes.count, of: phrase.bytes)
        if !phrase.isStem, let last, !isUnspaced(last), continuesWord(at: end, of: bytes) { return false }
        guard !phrase.unlessBytes.isEmpty else { return true }
        var rest = end
        if !phrase.isStem {
            while rest < bytes.count, bytes[rest] == 0x20 || bytes[rest] == 0x2C { rest += 1 }   // space, comma
            if equal(bytes, from: rest, Array("、".utf8)) { rest += 3 }
        }
        for word in phrase.unlessBytes where equal(bytes, from: rest, word) {
            let wordLast = scalar(before: word.count, of: word)
            let whole = wordLast.map { isUnspaced($0) || $0 == "'" } == true || !continuesWord(at: rest + word.count, of: bytes)
            if whole { return false }
        }
        return true
    }

    /// The scalar that starts at byte `offset` of `bytes`, if any.
    static func scalar(at offset: Int, of bytes: [UInt8]) -> Unicode.Scalar? {
        guard offset < bytes.count else { return nil }
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    /// The scalar that ends just before byte `offset` of `bytes`, if any.
    static func scalar(before offset: Int, of bytes: [UInt8]) -> Unicode.Scalar? {
        var start = offset - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0 else { return nil }
        return scalar(at: start, of: bytes)
    }

    /// The byte offset where the scalar ending before `offset` starts.
    static func start(before offset: Int, of bytes: [UInt8]) -> Int {
        var start = offset - 1
        while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return start
    }

    /// Whether what comes before byte `offset` leaves a match at the start of a sentence: nothing
    /// but white space and opening marks back to the text's start or to a sentence's end.
    static func isSentenceStart(before offset: Int, of bytes: [UInt8]) -> Bool {
        var position = offset
        while position > 0 {
            let begin = start(before: position, of: bytes)
            guard let scalar = scalar(at: begin, of: bytes) else { return false }
            if sentenceEnds.contains(scalar) { return true }
            if !(scalar.properties.isWhitespace || openingMarks.contains(scalar) || isSymbolLike(scalar)) { return false }
            position = begin
        }
        return true
    }

    /// Whether the text goes on with the same word at byte `offset`: a letter or digit, or an
    /// apostrophe or hyphen and a letter ("you" does not end at "you'll", nor "ill" at "ill-prepared").
    static func continuesWord(at offset: Int, of bytes: [UInt8]) -> Bool {
        guard let next = scalar(at: offset, of: bytes) else { return false }
        if isWordScalar(next) { return true }
        guard next == "'" || next == "-", let after = scalar(at: offset + 1, of: bytes) else { return false }
        return after.properties.isAlphabetic
    }

    /// What ends a sentence, in the scripts of the supported languages.
    static let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", "…", ":", ";", "\n", "。", "！", "？", "：", "；"]
    /// What may open a sentence before its first word.
    static let openingMarks: Set<Unicode.Scalar> = ["¡", "¿", "\"", "'", "«", "»", "“", "”", "„", "‘", "(", "[", "-", "–", "—",
                                                    "*", "•", "「", "『", "（"]

    /// A pictograph, symbol or emoji joiner that may stand before a sentence's first word ("👍 Great job").
    static func isSymbolLike(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .otherSymbol, .modifierSymbol, .format, .enclosingMark: return true
        default: return properties.isEmojiPresentation || properties.isVariationSelector
        }
    }

    /// A letter, digit or combining mark: what a boundary may not cut.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
    }

    /// Whether `scalar` belongs to a script written without spaces between words: Han, kana
    /// (the ranges of `PushLineRule.isUnspaced`).
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        PushLineRule.isUnspaced(Character(scalar))
    }
}

extension PhraseTable.Folded: CustomReflectable {
    /// Empty: the folded bytes are a text's (a model's output, a person's message).
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}
