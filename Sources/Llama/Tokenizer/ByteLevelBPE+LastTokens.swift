extension ByteLevelBPE {
    /// The last `maxTokens` tokens of `text` (all of them when it has no more), and whether it
    /// has more: `tokens(of: text).suffix(maxTokens)` and `tokens(of: text).count > maxTokens`,
    /// tokenizing little more of a long text than the tail it keeps.
    ///
    /// A text's tokens between two places where every text starts a piece
    /// (`SmolLMPreTokenizer.pieceStart`) are the tokens of those bytes alone. So the text is
    /// tokenized from its end, a chunk at a time: the first of a few bytes per kept token, each
    /// next one as long as the tokens still missing take at the rate seen so far, and the rest of
    /// the text at once when no place starts a piece in the span looked at.
    func lastTokens(of text: String, maxTokens: Int) -> (tokens: [Int32], wasCut: Bool) {
        var text = text
        return text.withUTF8 { bytes in
            var chunks: [[Int32]] = []
            var count = 0
            var end = bytes.count
            var span = Self.tailBytesPerToken * maxTokens + 16
            while count <= maxTokens, end > 0 {
                var start = 0
                if end - span > 0 {
                    guard let place = SmolLMPreTokenizer.pieceStart(in: bytes, from: end - span, before: end) else {
                        span *= 2
                        continue
                    }
                    start = place
                }
                var chunk = TokenList()
                encode(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]), into: &chunk)
                count += chunk.tokens.count
                chunks.append(chunk.tokens)
                span = max(1, maxTokens + 1 - count) * (bytes.count - start) / max(count, 1) * 9 / 8 + 16
                end = start
            }
            var kept: [Int32] = []
            kept.reserveCapacity(min(count, maxTokens))
            var skip = max(0, count - maxTokens)
            for chunk in chunks.reversed() {
                if skip >= chunk.count {
                    skip -= chunk.count
                    continue
                }
                kept += chunk[skip...]
                skip = 0
            }
            return (kept, count > maxTokens)
        }
    }

    /// Bytes of tail per kept token in the first chunk: a little under what English words take
    /// (about 3.2 a token), since a short chunk costs only the next one.
    static let tailBytesPerToken = 3
}
