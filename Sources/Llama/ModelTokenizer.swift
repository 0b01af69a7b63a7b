import Engine
import Privacy

/// An engine that counts, cuts and digests words with the tokenizer of the model it loaded
/// (`LlamaModel`), so a plan sizes each prompt exactly as the engine will read it: `LlamaEngine`
/// and `LlamaEnginePool` alike.
protocol ModelTokenizer: Tokenizer {
    /// The loaded model whose vocabulary counts the tokens.
    var model: LlamaModel { get }
}

extension ModelTokenizer {
    public func tokenCount(of text: SealedText) -> Int { model.tokenCount(of: text) }

    public func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        model.tokenCount(joining: parts, separator: separator, knownCounts: knownCounts)
    }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { model.suffix(of: text, maxTokens: maxTokens) }

    public func promptTokenCount(for request: GenerationRequest) -> Int { model.promptTokenCount(for: request) }

    public func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                                 knownCounts: [Int?]) -> Int {
        model.promptTokenCount(for: request, promptParts: parts, separator: separator, knownCounts: knownCounts)
    }
}
