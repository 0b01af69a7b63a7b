import Privacy

/// How many of the phone model's tokens a text takes, estimated from its characters: a number of
/// characters per token for each script, and the tokens every request adds around its turns.
///
/// The phone's tokenizer is not available off a Mac, and the stand-in's is a different model's:
/// the same Japanese screen is 0.6 characters per token with SmolLM2 and 1.4 with Qwen2.5. So
/// the spec's cuts (600 and 1,000 tokens), the session's ceiling and the device estimate count
/// the phone's tokens by this estimate, one per model version (`ModelVersionProfile.tokens`), and
/// a budget figure no longer moves with the stand-in. A team with a Mac measures its own figures
/// with `tokenCount(for:)` (docs/profiles.md) and writes them in its profiles file.
///
/// The weights are kept in thousandths of a token per character, so a count is exact integer
/// arithmetic: the same text gives the same count on every host and in every order of its parts.
public struct PhoneTokenRates: Sendable, Equatable {
    /// The scripts a rate is given for, by Unicode block.
    public enum Script: String, CaseIterable, Sendable, Comparable {
        /// Latin letters (Basic Latin to Latin Extended-B, Latin Extended Additional), digits,
        /// ASCII and general punctuation, spaces.
        case latin
        /// Han ideographs, CJK punctuation and full-width forms.
        case han
        /// Hiragana, katakana and half-width katakana.
        case kana
        /// Hangul syllables and jamo.
        case hangul
        /// Every other character (Cyrillic, Greek, Arabic, Thai, emoji…).
        case other

        public static func < (a: Script, b: Script) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }

        /// The script of the scalar `value`.
        @inlinable public static func of(_ value: UInt32) -> Script {
            switch value {
            case 0..<0x250, 0x1E00...0x1EFF, 0x2000...0x206F, 0x20A0...0x20CF: return .latin
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return .kana
            case 0x3000...0x303F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFF65, 0x20000...0x3FFFF: return .han
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return .hangul
            default: return .other
            }
        }
    }

    /// Characters (Unicode scalars) per token, for each script.
    public var charactersPerToken: [Script: Double]
    /// Tokens a request adds beyond its instructions' and prompt's words: role markers, turn
    /// boundaries, and the output schema when the framework puts it in the prompt.
    public var framingTokens: Int
    /// Where the figures come from.
    public var source: String

    public init(charactersPerToken: [Script: Double], framingTokens: Int, source: String) {
        precondition(Set(charactersPerToken.keys) == Set(Script.allCases) && charactersPerToken.values.allSatisfy { $0 > 0 && $0.isFinite },
                     "a rate for every script, above 0")
        self.charactersPerToken = charactersPerToken
        self.framingTokens = framingTokens
        self.source = source
    }

    /// Thousandths of a token per character of each script, in `Script.allCases` order.
    public var milliTokensPerCharacter: [Int] {
        Script.allCases.map { max(1, Int((1000 / charactersPerToken[$0]!).rounded())) }
    }

    /// The estimate a profile without `tokens` uses: the built-in set's (docs/profiles.md, "Whose tokens").
    public static let builtIn = PhoneTokenRates(
        charactersPerToken: [.latin: 3.5, .han: 1.4, .kana: 1.4, .hangul: 1.0, .other: 1.0], framingTokens: 24,
        source: "estimate: latin 3.5, the middle of Apple's rule of thumb of 3 to 4 characters per token (TN3193); han and kana 1.4, "
            + "measured on the Japanese of corpora/ with Qwen2.5's 151k-token vocabulary as a proxy for the phone model's 150k "
            + "(1.36); hangul and other scripts 1.0, one token a character, unmeasured and cautious; framing 24 tokens, unmeasured")
}

/// A script as a key of a result file's map (`run.profiles.versions[].chars_per_token`), listed
/// in the scripts' order.
extension PhoneTokenRates.Script: SortedMapKey {
    public typealias Stored = PhoneTokenRates.Script
    public static func precedes(_ a: Self, _ b: Self) -> Bool { a < b }
}
