/// The canary `replay audit` plants in every text that reaches a prompt: eight words drawn at
/// random from a list of 2,048 (`CanaryWords`), joined by single spaces.
///
/// Eight words carry 88 random bits, any four consecutive of them 44: nothing a run writes holds
/// them by chance (a report has no run of four such words at all, and the chance that four words
/// of English prose are these four is below 2⁻⁴⁴ per place). The words cost the prompt about one
/// token each, where 32 hex digits (128 bits) cost 30: the audit's prompts stay close to the
/// plain run's, so the audit measures the run it judges rather than one three times as long.
///
/// The scanner looks for the words however they are joined (`LeakScanner`), so words give no
/// program a separator to hide behind that hex digits did not.
public struct AuditCanary: Sendable, Equatable {
    /// How many words a canary has.
    public static let wordCount = 8
    /// How many consecutive words of a canary the scanner counts as the canary.
    public static let runLength = 4
    /// Random bits per word (the list has 2¹¹ words).
    public static let bitsPerWord = 11

    /// The words, in order.
    public let words: [String]

    /// The words joined by single spaces: what is planted and what the child reads.
    public var text: String { words.joined(separator: " ") }

    /// The canary whose words are the 11-bit groups of `bytes`, most significant bit first
    /// (`bytes` holds at least 11 bytes; only the first 88 bits are read).
    public init(bits bytes: [UInt8]) {
        precondition(bytes.count * 8 >= Self.wordCount * Self.bitsPerWord, "a canary needs 88 bits")
        var words: [String] = []
        for word in 0..<Self.wordCount {
            var index = 0
            for bit in word * Self.bitsPerWord..<(word + 1) * Self.bitsPerWord {
                index = index << 1 | Int(bytes[bit / 8] >> (7 - bit % 8) & 1)
            }
            words.append(CanaryWords.english[index])
        }
        self.words = words
    }

    /// The canary spelled by `text`; nil unless it is `wordCount` words of the list joined by
    /// single spaces (what `text` gives).
    public init?(text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count == Self.wordCount, words.allSatisfy(CanaryWords.members.contains) else { return nil }
        self.words = words
    }

    /// A fresh canary from the kernel's randomness (`AuditSecret`); nil when none can be read.
    public static func random() -> AuditCanary? {
        AuditSecret.bytes((wordCount * bitsPerWord + 7) / 8).map(AuditCanary.init(bits:))
    }
}

extension CanaryWords {
    /// The list as a set, for checking a canary read from the environment.
    static let members = Set(english)
}
