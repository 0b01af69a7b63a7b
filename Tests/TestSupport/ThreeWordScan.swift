/// Counts the places in a text where three consecutive words of the sentences show, whatever
/// joins them and in any case.
///
/// The text is cut into runs of characters a label's joiners could glue together (letters,
/// digits and `- _ . / + : \ #`); in each run only the letters are kept, lowercased, and the run
/// counts when it holds any three consecutive words of a sentence written together
/// (`tellmumthe`). Quotes, spaces, commas and markup end a run, so a report's own structure does
/// not glue words from different fields together. A count, never the words.
public struct ThreeWordScan: Sendable {
    /// What a label's joiners could glue a run with, besides digits: a run goes on across them.
    private static let joiners: Set<Character> = ["-", "_", ".", "/", "+", ":", "\\", "#"]

    /// Three consecutive words of a sentence, lowercased and written together, as UTF-8.
    let triples: [[UInt8]]

    public init(sentences: [String] = SpelledSentence.sentences) {
        var triples: [[UInt8]] = []
        for sentence in sentences {
            let words = sentence.lowercased().split { !$0.isLetter }.map(String.init)
            guard words.count >= 3 else { continue }
            for start in 0...(words.count - 3) { triples.append(Array(words[start..<start + 3].joined().utf8)) }
        }
        self.triples = triples
    }

    /// The number of runs of `text` that hold three consecutive words.
    ///
    /// A run's letters are compared as UTF-8 bytes, code unit for code unit (as Foundation's
    /// `range(of:)` without options compares): a letter followed by a combining mark still shows
    /// its letter. Reports are mostly ASCII, which takes the fast path; any other character is
    /// judged as a `Character`.
    public func hits(in text: String) -> Int {
        var hits = 0
        var letters: [UInt8] = []
        letters.reserveCapacity(256)
        func endRun() {
            if !letters.isEmpty, triples.contains(where: { Self.holds(letters, $0) }) { hits += 1 }
            letters.removeAll(keepingCapacity: true)
        }
        for character in text {
            if let ascii = character.asciiValue {
                switch ascii {
                case UInt8(ascii: "a")...UInt8(ascii: "z"): letters.append(ascii)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters.append(ascii + 32)
                case UInt8(ascii: "0")...UInt8(ascii: "9"): continue
                case _ where Self.joiners.contains(character): continue
                default: endRun()
                }
            } else if character.isLetter {
                letters += character.lowercased().utf8
            } else if character.isNumber || Self.joiners.contains(character) {
                continue
            } else {
                endRun()
            }
        }
        endRun()
        return hits
    }

    /// Whether `haystack` holds `needle` at some offset, byte for byte. (The standard library's
    /// `Collection.contains(_:)` for a subsequence made the leak suites about 20 times slower.)
    private static func holds(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            var offset = 1
            while offset < needle.count, haystack[start + offset] == needle[offset] { offset += 1 }
            if offset == needle.count { return true }
        }
        return false
    }
}
