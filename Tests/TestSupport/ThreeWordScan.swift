/// Counts the places in a text where three consecutive words of the sentences show, whatever
/// joins them and in any case.
///
/// The text is cut into runs of characters a label's joiners could glue together (letters,
/// digits and `- _ . / + : \ #`); in each run only the letters are kept, lowercased, and the run
/// counts when it holds any three consecutive words of a sentence written together
/// (`tellmumthe`). Quotes, spaces, commas and markup end a run, so a report's own structure does
/// not glue words from different fields together. A count, never the words.
public struct ThreeWordScan: Sendable {
    /// Three consecutive words of a sentence, lowercased and written together.
    let triples: [String]

    public init(sentences: [String] = SpelledSentence.sentences) {
        var triples: [String] = []
        for sentence in sentences {
            let words = sentence.lowercased().split { !$0.isLetter }.map(String.init)
            guard words.count >= 3 else { continue }
            for start in 0...(words.count - 3) { triples.append(words[start..<start + 3].joined()) }
        }
        self.triples = triples
    }

    /// The number of runs of `text` that hold three consecutive words.
    public func hits(in text: String) -> Int {
        var hits = 0
        var letters = ""
        func endRun() {
            if !letters.isEmpty, triples.contains(where: { letters.contains($0) }) { hits += 1 }
            letters = ""
        }
        for character in text {
            if character.isLetter {
                letters += character.lowercased()
            } else if character.isNumber || "-_./+:\\#".contains(character) {
                continue
            } else {
                endRun()
            }
        }
        endRun()
        return hits
    }
}
