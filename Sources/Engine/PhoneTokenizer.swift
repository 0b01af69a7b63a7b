import Privacy

/// Counts and cuts text in the phone model's tokens, by a model version's estimate
/// (`PhoneTokenRates`): what a place's cuts, ceiling and device time are judged by, whatever
/// stand-in model answers it.
///
/// A count is the sum of each character's weight (thousandths of a token by its script), rounded
/// up; a cut keeps the longest end of a text whose count is within the budget. Joined parts are
/// counted as the joined text would be (the weights add, and only the sum is rounded), so a
/// request's size is the same however its prompt was put together; counting is a pass over the
/// characters, cheap enough that parts counted before (`knownCounts`) are simply counted again.
public final class PhoneTokenizer: Tokenizer, Sendable {
    public let rates: PhoneTokenRates
    private let weights: [Int]

    public init(_ rates: PhoneTokenRates) {
        self.rates = rates
        weights = rates.milliTokensPerCharacter
    }

    @inline(__always) private func weight(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        // Most text is ASCII: its weight without the table's switch.
        if value < 0x80 { return weights[0] }
        switch PhoneTokenRates.Script.of(value) {
        case .latin: return weights[0]
        case .han: return weights[1]
        case .kana: return weights[2]
        case .hangul: return weights[3]
        case .other: return weights[4]
        }
    }

    private func milliTokens(_ words: String) -> Int {
        var total = 0
        for scalar in words.unicodeScalars { total += weight(scalar) }
        return total
    }

    private static func rounded(_ milliTokens: Int) -> Int { (milliTokens + 999) / 1000 }

    public func tokenCount(of text: SealedText) -> Int {
        text.withUnsealedText { Self.rounded(milliTokens($0)) }
    }

    public func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        var total = max(0, parts.count - 1) * milliTokens(separator)
        for part in parts { total += part.withUnsealedText { milliTokens($0) } }
        return Self.rounded(total)
    }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        text.withUnsealedText { words -> TokenCut in
            let budget = max(0, maxTokens) * 1000
            var kept = 0
            var start = words.unicodeScalars.endIndex
            var index = start
            while index > words.unicodeScalars.startIndex {
                let before = words.unicodeScalars.index(before: index)
                let next = kept + weight(words.unicodeScalars[before])
                if next > budget { break }
                kept = next
                index = before
                start = before
            }
            let wasCut = start > words.unicodeScalars.startIndex
            let tokens = Self.rounded(kept)
            let keptText = wasCut ? SealedText(String(words.unicodeScalars[start...])) : text
            return TokenCut(text: keptText, keptTokens: tokens, wasCut: wasCut, textTokens: tokens)
        }
    }

    public func promptTokenCount(for request: GenerationRequest) -> Int {
        rates.framingTokens + tokenCount(of: request.instructions) + tokenCount(of: request.prompt)
    }

    public func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                                 knownCounts: [Int?]) -> Int {
        rates.framingTokens + tokenCount(of: request.instructions) + tokenCount(joining: parts, separator: separator, knownCounts: knownCounts)
    }
}
