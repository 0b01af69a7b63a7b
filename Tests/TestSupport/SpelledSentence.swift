/// Made-up sentences written without spaces, the way a corpus field could carry one past a rule
/// that only refuses spaces, and a scan that counts where three consecutive words of them show.
///
/// Every spelling is named by an index only (`description`), and `ThreeWordScan` returns counts,
/// so a failing test can show neither a sentence nor where it leaked.
public struct SpelledSentence: Sendable, CustomStringConvertible {
    /// Which sentence of `SpelledSentence.sentences`.
    public let sentence: Int
    /// How its words are joined (an index into `SpelledSentence.joiners`).
    public let spelling: Int
    /// The spelled text: to be put in a corpus field, never printed.
    public let text: String

    public var description: String { "sentence #\(sentence) spelling #\(spelling)" }

    /// Made up, never from a corpus; their words are not words a report uses.
    public static let sentences = [
        "Tell mum the surgery moved to Friday",
        "mum is at the GP now",
        "Dad said the boiler broke again",
        "Pick up Jamie from football practice",
    ]

    /// The ways of joining words: the six separators a token rule allowed, camelCase, and
    /// shouting snake case.
    public static let joiners = ["-", "_", ".", "/", "+", ":", "camelCase", "UPPER_SNAKE"]

    /// `sentence` joined by `joiner`, its first `words` words only when given (three words fit a
    /// short field).
    public static func spell(_ sentence: String, _ joiner: String, words: Int? = nil) -> String {
        var parts = sentence.split(separator: " ").map(String.init)
        if let words { parts = Array(parts.prefix(words)) }
        switch joiner {
        case "camelCase":
            return parts.enumerated().map { index, word in
                index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
            }.joined()
        case "UPPER_SNAKE":
            return parts.map { $0.uppercased() }.joined(separator: "_")
        default:
            return parts.joined(separator: joiner)
        }
    }

    /// Every sentence in every spelling, whole, and its first three words in every spelling.
    public static let all: [SpelledSentence] = {
        var result: [SpelledSentence] = []
        for (s, sentence) in sentences.enumerated() {
            for (j, joiner) in joiners.enumerated() {
                result.append(SpelledSentence(sentence: s, spelling: j, text: spell(sentence, joiner)))
                result.append(SpelledSentence(sentence: s, spelling: joiners.count + j, text: spell(sentence, joiner, words: 3)))
            }
        }
        return result
    }()
}
