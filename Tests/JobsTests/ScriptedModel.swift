import Privacy
import Engine

/// A model for unit tests only: answers each request with what the script says.
///
/// Tokens are white-space separated words, so sizes in tests are easy to reason about.
final class ScriptedModel: LanguageModel, @unchecked Sendable {
    let script: @Sendable (GenerationRequest) -> GenerationOutcome
    private(set) var requests: [GenerationRequest] = []

    init(script: @escaping @Sendable (GenerationRequest) -> GenerationOutcome) {
        self.script = script
    }

    /// A model that always writes `output` with these sizes and host time.
    convenience init(output: String, promptTokens: Int = 100, outputTokens: Int = 10, hostMilliseconds: Double = 50) {
        self.init { _ in
            GenerationOutcome(output: .success(SealedText(output)), promptTokens: promptTokens,
                              outputTokens: outputTokens, hostMilliseconds: hostMilliseconds)
        }
    }

    var info: ModelInfo {
        ModelInfo(name: "scripted", description: "scripted test model", path: "scripted", parameters: 0,
                  contextPerSequence: 4096, batchSize: 4)
    }

    func tokenCount(of text: SealedText) -> Int {
        text.withUnsealedText { $0.split(whereSeparator: \.isWhitespace).count }
    }

    func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        text.withUnsealedText { words in
            let tokens = words.split(whereSeparator: \.isWhitespace)
            let kept = tokens.suffix(maxTokens).joined(separator: " ")
            return TokenCut(text: SealedText(kept), keptTokens: min(maxTokens, tokens.count),
                            wasCut: tokens.count > maxTokens)
        }
    }

    func promptTokenCount(for request: GenerationRequest) -> Int {
        tokenCount(of: request.instructions) + tokenCount(of: request.prompt) + 10
    }

    func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        self.requests += requests
        return requests.map(script)
    }
}
