import Privacy

/// Token counts estimated from UTF-8 size, for when no model (and so no tokenizer) can be loaded.
///
/// A run without its model still completes and reports every job's fallback; its sizes are
/// then estimates, one token per four bytes (about right for English under BPE vocabularies),
/// and the report says they are.
public final class ApproximateTokenizer: Tokenizer, Sendable {
    public static let bytesPerToken = 4

    public init() {}

    public func tokenCount(of text: SealedText) -> Int {
        (text.utf8Count + Self.bytesPerToken - 1) / Self.bytesPerToken
    }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        let total = tokenCount(of: text)
        guard total > maxTokens else { return TokenCut(text: text, keptTokens: total, wasCut: false, textTokens: total) }
        let kept = text.withUnsealedText { words -> String in
            var bytes = Array(words.utf8.suffix(maxTokens * Self.bytesPerToken))
            // Do not start inside a multi-byte character.
            while let first = bytes.first, first & 0xC0 == 0x80 { bytes.removeFirst() }
            return String(decoding: bytes, as: UTF8.self)
        }
        return TokenCut(text: SealedText(kept), keptTokens: maxTokens, wasCut: true)
    }

    public func promptTokenCount(for request: GenerationRequest) -> Int {
        tokenCount(of: request.instructions) + tokenCount(of: request.prompt) + 16
    }
}
