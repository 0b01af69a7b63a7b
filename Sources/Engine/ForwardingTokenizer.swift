import Privacy

/// A tokenizer that counts and cuts with another's tokens: a model wrapped around another
/// (`FallbackInjectingModel`, the audit's), an engine counting with the model it loaded, a
/// tokenizer still loading. Every call goes to `underlyingTokenizer` as it is, so its exact sums
/// (`tokenCount(joining:…)`, `promptTokenCount(for:promptParts:…)`) are kept, never counted again.
public protocol ForwardingTokenizer: Tokenizer {
    /// The tokenizer whose tokens these are.
    var underlyingTokenizer: any Tokenizer { get }
}

extension ForwardingTokenizer {
    public func tokenCount(of text: SealedText) -> Int { underlyingTokenizer.tokenCount(of: text) }

    public func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        underlyingTokenizer.tokenCount(joining: parts, separator: separator, knownCounts: knownCounts)
    }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { underlyingTokenizer.suffix(of: text, maxTokens: maxTokens) }

    public func promptTokenCount(for request: GenerationRequest) -> Int { underlyingTokenizer.promptTokenCount(for: request) }

    public func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                                 knownCounts: [Int?]) -> Int {
        underlyingTokenizer.promptTokenCount(for: request, promptParts: parts, separator: separator, knownCounts: knownCounts)
    }
}
