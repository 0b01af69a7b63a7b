import Foundation

extension ByteLevelBPE {
    /// The last `maxTokens` tokens of `text` (all of them when it has no more), and whether it
    /// has more: `tokens(of: text).suffix(maxTokens)` and `tokens(of: text).count > maxTokens`,
    /// tokenizing little more of a long text than the tail it keeps.
    ///
    /// A text's tokens between two places where every text starts a piece
    /// (`PreTokenizer.pieceStart`) are the tokens of those bytes alone. So the text is
    /// tokenized from its end, a chunk at a time: the first of a few bytes per kept token, each
    /// next one as long as the tokens still missing take at the rate seen so far, and the rest of
    /// the text at once when no place starts a piece in the span looked at.
    ///
    /// The bytes of the kept tokens, tokenized alone, start with a few tokens that may differ
    /// from the kept ones (the first piece may start mid-word) and end with the tokens of the
    /// chunks after the one the cut falls in: so their count takes only those few bytes
    /// tokenized again (`TailTokens.keptTextTokens`).
    ///
    /// A text that holds a user-defined token is tokenized whole: where llama.cpp cuts it around
    /// the token depends on what comes before.
    func lastTokens(of text: String, maxTokens: Int) -> TailTokens {
        var text = text
        return text.withUTF8 { bytes in
            if userDefinedTokens?.occurs(in: bytes) == true {
                var all = TokenList()
                encode(utf8: bytes, into: &all)
                let kept = Array(all.tokens.suffix(maxTokens))
                guard all.tokens.count > maxTokens else { return TailTokens(tokens: kept, wasCut: false, bytes: []) }
                return TailTokens(tokens: kept, wasCut: true, bytes: self.bytes(of: kept))
            }
            var chunks: [[Int32]] = []
            var starts: [Int] = []
            var count = 0
            var end = bytes.count
            var span = Self.tailBytesPerToken * maxTokens + 16
            while count <= maxTokens, end > 0 {
                var start = 0
                if end - span > 0 {
                    guard let place = pieceStart(in: bytes, from: end - span, before: end) else {
                        span *= 2
                        continue
                    }
                    start = place
                }
                var chunk = TokenList()
                encode(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end]), into: &chunk)
                count += chunk.tokens.count
                chunks.append(chunk.tokens)
                starts.append(start)
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
            // Nothing cut: the kept tokens are the text's own, and their bytes are not needed.
            guard count > maxTokens else { return TailTokens(tokens: kept, wasCut: false, bytes: []) }
            let keptBytes = self.bytes(of: kept)
            return TailTokens(tokens: kept, wasCut: true, bytes: keptBytes,
                              keptTextTokens: tokenCount(ofLast: keptBytes, of: bytes, chunks: chunks, starts: starts))
        }
    }

    /// How many tokens `kept` has alone, when it is the last bytes of `text` and starts a
    /// character (nil otherwise): the kept bytes up to the first chunk start at or after theirs
    /// tokenized again, and the tokens of the chunks from there on counted.
    ///
    /// A chunk start past the kept bytes' start has the same characters on either side in the
    /// kept bytes as in the text, so it is a place where every text starts a piece in both: the
    /// kept bytes' tokens are those of the bytes before it alone and of the bytes after it alone,
    /// and the bytes after it are the text's own, whose tokens the chunks hold.
    private func tokenCount(ofLast kept: [UInt8], of text: UnsafeBufferPointer<UInt8>, chunks: [[Int32]],
                            starts: [Int]) -> Int? {
        let start = text.count - kept.count
        guard start >= 0, kept.first.map({ $0 & 0xC0 != 0x80 }) ?? true,
              kept.isEmpty || kept.withUnsafeBytes({ memcmp($0.baseAddress!, text.baseAddress! + start, kept.count) }) == 0
        else { return nil }
        // `starts` run from the text's end back; the chunks wholly after `start` are counted.
        var after = 0
        var boundary = text.count
        for (chunk, chunkStart) in zip(chunks, starts) where chunkStart >= start {
            after += chunk.count
            boundary = chunkStart
        }
        guard boundary > start else { return after }
        var head = TokenCounter()
        encode(utf8: UnsafeBufferPointer(rebasing: text[start..<boundary]), into: &head)
        return head.count + after
    }

    /// The pre-tokenizer's `pieceStart`.
    private func pieceStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int? {
        switch preTokenizer {
        case .smollm: SmolLMPreTokenizer.pieceStart(in: bytes, from: from, before: end)
        case .qwen2: Qwen2PreTokenizer.pieceStart(in: bytes, from: from, before: end)
        }
    }

    /// Bytes of tail per kept token in the first chunk: a little under what English words take
    /// (about 3.2 a token), since a short chunk costs only the next one.
    static let tailBytesPerToken = 3
}

/// A text's last tokens, from `ByteLevelBPE.lastTokens(of:maxTokens:)`.
struct TailTokens {
    /// The last tokens, at most the number asked for.
    var tokens: [Int32]
    /// Whether the text has more tokens than those.
    var wasCut: Bool
    /// The bytes the kept tokens stand for (`ByteLevelBPE.bytes(of:)`) when the text was cut;
    /// empty when it was not (the text itself is then what was kept).
    var bytes: [UInt8]
    /// How many tokens `bytes` has when tokenized alone, when the text was cut and they are its
    /// last bytes and start a character; nil otherwise.
    var keptTextTokens: Int?
}
