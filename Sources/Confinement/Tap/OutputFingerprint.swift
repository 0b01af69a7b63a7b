import Foundation
import Privacy

/// Salted fingerprints of a model's words, so the auditor can recognise an output in what a run
/// wrote without ever holding the output as text.
///
/// **What is fingerprinted: words a person could recognise.** An output is JSON (the jobs decode
/// under a grammar); only its string *values* are read, never its keys (`replies`, `kind`), which
/// are the schema's labels and which the report prints anyway. A value is cut into words: runs of
/// letters, digits, marks and `_`, lowercased, apostrophes dropped (`don't` is `dont`). Only a word
/// with at least two letters counts; a number (`60`, `1.000000`) or a single letter is a break,
/// never part of a fingerprint, since reports are full of numbers.
///
/// From each value:
/// - every run of three consecutive counted words: any copy of three words of an output is
///   caught wherever it is written;
/// - every *phrase* (what lies between punctuation or line breaks) of exactly two counted words
///   with at least six letters: a chip such as "Sounds good", even written on its own, unless
///   both are the writers' own words (`isWritersWord`);
/// - a value that is one counted word of at least five letters (a short chip, "Tomorrow"), unless
///   the output is a label chosen from the corpus (a route answer names a member, which the report
///   shows as a label under its own rules) or one of the writers' own words; such a word is
///   matched only where it stands alone as a whole phrase;
/// - in scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar, Tibetan), every
///   three consecutive characters, or a two-character run whole: report text holds none of them.
///
/// **Matching** (`matches(in:)`): scanned text is cut the same way, and every window of two and
/// three counted words, every lone one-word phrase and every character trigram is looked up.
///
/// **Digest.** The first 64 bits of SHA-256 over the run's salt, a kind byte and the words. The
/// salt is fresh per run and never written by the child, so the digests cannot be looked up in a
/// dictionary of common replies; 64 bits make a chance collision negligible at any corpus size.
public struct OutputFingerprint: Sendable {
    /// The per-run salt (random bytes from the auditor).
    public let salt: [UInt8]

    public init(salt: [UInt8]) { self.salt = salt }

    /// The fewest letters a two-word phrase needs to be fingerprinted on its own.
    public static let minimumPhraseLetters = 6
    /// The fewest letters a one-word value needs to be fingerprinted.
    public static let minimumWordLetters = 5
    /// The fewest letters a word needs to count at all.
    public static let minimumLettersPerWord = 2
    /// Whether `word` (lower case) is one the result files' writers print themselves
    /// (`ResultVocabulary`, `schemaWords`): a report says "share" and "reply" as labels, so an
    /// output of that one word, or of two such words, standing alone cannot be told from the
    /// report's own text, and fingerprinting it only cries wolf. (Under `replay audit` the
    /// canary's words are common English, and a model that echoes one as a chip, "Share", made
    /// clean runs fail.) Runs of three words are fingerprinted whatever their words.
    public static func isWritersWord(_ word: String) -> Bool {
        schemaWords.contains(word) || ResultVocabulary.words.contains(word)
    }

    /// Constants of the jobs' output schemas (draft kinds, the route's lead): labels the report
    /// prints, never fingerprinted alone.
    public static let schemaWords: Set<String> = ["checklist", "timer", "card", "none", "lead", "title", "items", "minutes",
                                                  "replies", "label", "seconds"]

    /// A word of scanned or recorded text: lowercased, with where it was (UTF-8 byte offsets).
    public struct Word: Sendable, Equatable {
        public var text: String
        public var letters: Int
        /// Byte offset of the word's first byte in the text.
        public var offset: Int
        /// Whether punctuation or a line break comes before this word (it starts a phrase).
        public var startsPhrase: Bool
        /// Whether punctuation, a line break or the end comes after it (it ends a phrase).
        public var endsPhrase: Bool = false
        /// Whether it counts: at least `minimumLettersPerWord` letters.
        public var counts: Bool { letters >= OutputFingerprint.minimumLettersPerWord }
    }

    /// The words of `text`, in order; characters of scripts without spaces are left out (see
    /// `spacelessRuns`).
    public static func words(of text: String) -> [Word] {
        var words: [Word] = []
        var current = String.UnicodeScalarView()
        var letters = 0
        var start = 0
        var offset = 0
        var boundary = true
        func flush() {
            if !current.isEmpty {
                words.append(Word(text: String(current).lowercased(), letters: letters, offset: start, startsPhrase: boundary))
                boundary = false
            }
            current = String.UnicodeScalarView()
            letters = 0
        }
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            defer { offset += width }
            if isWordScalar(scalar), !isSpaceless(scalar) {
                if current.isEmpty { start = offset }
                current.append(scalar)
                if scalar.properties.isAlphabetic { letters += 1 }
            } else if scalar == "'" || scalar == "\u{2019}" {
                continue   // inside or around a word: dropped, not a separator
            } else {
                flush()
                if !scalar.properties.isWhitespace || scalar == "\n" || scalar == "\r" {
                    boundary = true
                    if let last = words.indices.last { words[last].endsPhrase = true }
                }
            }
        }
        flush()
        if let last = words.indices.last { words[last].endsPhrase = true }
        return words
    }

    /// Runs of characters of scripts written without spaces, with the UTF-8 offset of each character.
    public static func spacelessRuns(of text: String) -> [[(scalar: Unicode.Scalar, offset: Int)]] {
        var runs: [[(scalar: Unicode.Scalar, offset: Int)]] = []
        var current: [(scalar: Unicode.Scalar, offset: Int)] = []
        var offset = 0
        for scalar in text.unicodeScalars {
            if isSpaceless(scalar) {
                current.append((scalar, offset))
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
            offset += UTF8.width(scalar)
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" { return true }
        let properties = scalar.properties
        if properties.isAlphabetic { return true }
        switch properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Whether the scalar belongs to a script written without spaces between words.
    static func isSpaceless(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,   // Thai, Lao
             0x0F00...0x0FFF,   // Tibetan
             0x1000...0x109F,   // Myanmar
             0x1780...0x17FF,   // Khmer
             0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,   // kana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF:   // Han
            return true
        default:
            return false
        }
    }

    enum Kind: UInt8 { case words = 0, single = 1, characters = 2 }

    /// The digest of some words (joined by one space) or characters, of one kind.
    func digest(_ parts: some Sequence<String>, kind: Kind) -> UInt64 {
        var hasher = SHA256()
        hasher.update(salt)
        hasher.update([0, kind.rawValue])
        var first = true
        for part in parts {
            if !first { hasher.update([0x20]) }
            hasher.update(part.utf8)
            first = false
        }
        let hex = hasher.finalizeHex()
        return UInt64(hex.prefix(16), radix: 16) ?? 0
    }

    /// The digest of consecutive words.
    public func digest(_ words: ArraySlice<Word>) -> UInt64 { digest(words.map(\.text), kind: .words) }

    /// The string values of an output: its JSON strings that are not keys, or the whole text
    /// when it is not JSON.
    public static func values(ofOutput text: String) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return [text] }
        var values: [String] = []
        func collect(_ value: Any) {
            switch value {
            case let string as String: values.append(string)
            case let array as [Any]: array.forEach(collect)
            case let dictionary as [String: Any]: dictionary.keys.sorted().forEach { collect(dictionary[$0]!) }
            default: break
            }
        }
        collect(object)
        return values
    }

    /// Everything an output leaves behind to be recognised by (see the type's documentation).
    /// `isLabel` says the output only names something chosen from the corpus (a route answer).
    public func digests(ofOutput text: String, isLabel: Bool = false) -> Set<UInt64> {
        var digests: Set<UInt64> = []
        for value in Self.values(ofOutput: text) {
            let words = Self.words(of: value)
            var index = 0
            while index < words.count {
                // A run of counted words.
                var end = index
                while end < words.count, words[end].counts { end += 1 }
                if end - index >= 3 {
                    for start in index...(end - 3) { digests.insert(digest(words[start..<start + 3])) }
                }
                index = max(end, index + 1)
            }
            // Two-word phrases: exactly two counted words between boundaries.
            var start = 0
            while start < words.count {
                var end = start + 1
                while end < words.count, !words[end].startsPhrase { end += 1 }
                let phrase = words[start..<end]
                if phrase.count == 2, phrase.allSatisfy(\.counts), phrase.reduce(0, { $0 + $1.letters }) >= Self.minimumPhraseLetters,
                   !phrase.allSatisfy({ Self.isWritersWord($0.text) }) {
                    digests.insert(digest(phrase))
                }
                start = end
            }
            if !isLabel, words.count == 1, let word = words.first, word.letters >= Self.minimumWordLetters,
               !Self.isWritersWord(word.text) {
                digests.insert(digest([word.text], kind: .single))
            }
            for run in Self.spacelessRuns(of: value) {
                let characters = run.map { String($0.scalar) }
                if characters.count == 2 {
                    digests.insert(digest(characters, kind: .characters))
                } else if characters.count >= 3 {
                    for start in 0...(characters.count - 3) { digests.insert(digest(characters[start..<start + 3], kind: .characters)) }
                }
            }
        }
        return digests
    }

    /// A place in scanned text where a window of words has one of `digests`.
    public struct Match: Sendable, Equatable {
        /// Byte offset of the window's first word or character.
        public var offset: Int
        /// How many words or characters the window has.
        public var length: Int
    }

    /// The places in `text` whose windows have a digest in `digests`.
    public func matches(in text: String, digests: Set<UInt64>) -> [Match] {
        guard !digests.isEmpty else { return [] }
        let words = Self.words(of: text)
        var found: [Match] = []
        for index in words.indices where words[index].counts {
            if index + 2 < words.count, words[index + 1].counts, words[index + 2].counts,
               digests.contains(digest(words[index..<index + 3])) {
                found.append(Match(offset: words[index].offset, length: 3))
            } else if index + 1 < words.count, words[index + 1].counts, digests.contains(digest(words[index..<index + 2])) {
                found.append(Match(offset: words[index].offset, length: 2))
            } else if words[index].startsPhrase, words[index].endsPhrase, digests.contains(digest([words[index].text], kind: .single)) {
                found.append(Match(offset: words[index].offset, length: 1))
            }
        }
        for run in Self.spacelessRuns(of: text) {
            let characters = run.map { String($0.scalar) }
            if characters.count == 2, digests.contains(digest(characters, kind: .characters)) {
                found.append(Match(offset: run[0].offset, length: 2))
            }
            if characters.count >= 3 {
                for start in 0...(characters.count - 3) where digests.contains(digest(characters[start..<start + 3], kind: .characters)) {
                    found.append(Match(offset: run[start].offset, length: 3))
                }
            }
        }
        return found.sorted { $0.offset < $1.offset }
    }
}
