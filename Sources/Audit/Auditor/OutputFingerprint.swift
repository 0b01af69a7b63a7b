import Privacy
/// Salted fingerprints of words, so the auditor can recognise a model's output in what a run wrote
/// without ever holding the output as text.
///
/// **Words.** Text is cut into words: runs of letters, digits, marks and `_`, lowercased;
/// apostrophes inside a word are dropped (`don't` is `dont`); everything else separates words.
/// A word's fingerprint input is the words joined by one space, so spacing, case and punctuation
/// do not hide a copy.
///
/// **What an output leaves behind** (`digests(ofOutput:)`):
/// - every run of three consecutive words, across the whole output: any copy of three words or
///   more of an output is caught wherever it is written;
/// - every *phrase* of exactly two words with at least six letters, where a phrase is what lies
///   between punctuation or line breaks: so a two-word chip such as "Sounds good" in
///   `{"replies": ["Sounds good", "Not yet"]}` is caught even when written on its own.
///
/// Single words are never fingerprinted: one word ("replies", "budget", "yes") is as likely to be
/// one of the tool's own labels as the model's, and would make every report look leaky. Two-word
/// phrases under six letters ("ok ok", "no way") are skipped for the same reason. The canary
/// covers the prompts; these fingerprints cover the outputs.
///
/// **Matching** (`matches(in:)`): the scanned text is cut into words the same way and every
/// window of two and of three consecutive words is fingerprinted and looked up. Report text is
/// made of keys joined by `_` (one word each), numbers and fixed labels, which do not form the
/// two-word phrases of a reply.
///
/// **Digest.** The first 64 bits of SHA-256 over the run's salt and the words. The salt is fresh
/// per run and never written by the child, so the digests cannot be looked up in a dictionary of
/// common replies; 64 bits make a chance collision negligible at any corpus size.
public struct OutputFingerprint: Sendable {
    /// The per-run salt (random bytes from the auditor).
    public let salt: [UInt8]

    public init(salt: [UInt8]) { self.salt = salt }

    /// The fewest letters a two-word phrase needs to be fingerprinted on its own.
    public static let minimumPhraseLetters = 6

    /// A word of scanned or recorded text: lowercased, with where it was (UTF-8 byte offsets).
    public struct Word: Sendable, Equatable {
        public var text: String
        public var letters: Int
        /// Byte offset of the word's first byte in the text.
        public var offset: Int
        /// Whether punctuation or a line break comes before this word (it starts a phrase).
        public var startsPhrase: Bool
    }

    /// The words of `text`, in order.
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
            if isWordScalar(scalar) {
                if current.isEmpty { start = offset }
                current.append(scalar)
                if scalar.properties.isAlphabetic { letters += 1 }
            } else if scalar == "'" || scalar == "\u{2019}" {
                continue   // inside or around a word: dropped, not a separator
            } else {
                flush()
                if !scalar.properties.isWhitespace || scalar == "\n" || scalar == "\r" { boundary = true }
            }
        }
        flush()
        return words
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

    /// The digest of consecutive words.
    public func digest(_ words: ArraySlice<Word>) -> UInt64 {
        var hasher = SHA256()
        hasher.update(salt)
        hasher.update([0])
        var first = true
        for word in words {
            if !first { hasher.update([0x20]) }
            hasher.update(word.text.utf8)
            first = false
        }
        let hex = hasher.finalizeHex()
        return UInt64(hex.prefix(16), radix: 16) ?? 0
    }

    /// Everything an output leaves behind to be recognised by (see the type's documentation).
    public func digests(ofOutput text: String) -> Set<UInt64> {
        let words = Self.words(of: text)
        var digests: Set<UInt64> = []
        if words.count >= 3 {
            for start in 0...(words.count - 3) { digests.insert(digest(words[start..<start + 3])) }
        }
        // Two-word phrases: exactly two words between boundaries.
        var index = 0
        while index < words.count {
            var end = index + 1
            while end < words.count, !words[end].startsPhrase { end += 1 }
            if end - index == 2, words[index].letters + words[index + 1].letters >= Self.minimumPhraseLetters {
                digests.insert(digest(words[index..<end]))
            }
            index = end
        }
        return digests
    }

    /// A place in scanned text where a window of words has one of `digests`.
    public struct Match: Sendable, Equatable {
        /// Byte offset of the window's first word.
        public var offset: Int
        /// How many words the window has (2 or 3).
        public var length: Int
    }

    /// The places in `text` whose two- or three-word windows have a digest in `digests`.
    public func matches(in text: String, digests: Set<UInt64>) -> [Match] {
        guard !digests.isEmpty else { return [] }
        let words = Self.words(of: text)
        var found: [Match] = []
        var index = 0
        while index + 1 < words.count {
            if index + 2 < words.count, digests.contains(digest(words[index..<index + 3])) {
                found.append(Match(offset: words[index].offset, length: 3))
            } else if digests.contains(digest(words[index..<index + 2])) {
                found.append(Match(offset: words[index].offset, length: 2))
            }
            index += 1
        }
        return found
    }
}
