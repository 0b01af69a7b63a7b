extension ByteLevelBPE {
    /// The last `maxTokens` tokens of `text` (all of them when it has no more), and whether it
    /// has more: `tokens(of: text).suffix(maxTokens)` and `tokens(of: text).count > maxTokens`,
    /// tokenizing little more of a long text than the tail it keeps.
    ///
    /// A tail that starts where every text starts a piece (`SmolLMPreTokenizer.pieceStart`)
    /// tokenizes into the last tokens of the whole. So the tokens are taken from a tail of a few
    /// bytes per kept token; when it holds `maxTokens` or fewer, a longer one is tried, and the
    /// whole text when no tail is long enough (or none starts a piece).
    func lastTokens(of text: String, maxTokens: Int) -> (tokens: [Int32], wasCut: Bool) {
        var text = text
        return text.withUTF8 { bytes in
            var window = Self.tailBytesPerToken * maxTokens + 16
            while window < bytes.count {
                guard let start = SmolLMPreTokenizer.pieceStart(in: bytes, from: bytes.count - window) else {
                    window *= 2
                    continue
                }
                var tail = TokenList()
                encode(utf8: UnsafeBufferPointer(rebasing: bytes[start...]), into: &tail)
                if tail.tokens.count > maxTokens { return (Array(tail.tokens.suffix(maxTokens)), true) }
                // Too few: a tail long enough at this one's bytes per token, and at least half again.
                let needed = (bytes.count - start) * (maxTokens + 1) / max(tail.tokens.count, 1) + 16
                window = max(window + window / 2, needed + needed / 8)
            }
            var all = TokenList()
            encode(utf8: bytes, into: &all)
            return (Array(all.tokens.suffix(maxTokens)), all.tokens.count > maxTokens)
        }
    }

    /// Bytes of tail per kept token tried first: more than English words take (about 3.2 bytes a
    /// token on the bench corpus), so most cuts need one try.
    static let tailBytesPerToken = 4
}
