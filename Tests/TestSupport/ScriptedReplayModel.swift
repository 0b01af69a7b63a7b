import Engine
import Privacy

/// A scripted model whose chip is always "Bit sore but fine".
public final class ScriptedReplayModel: LanguageModel, @unchecked Sendable {
    public let promptTokens: Int
    public init(promptTokens: Int = 100) { self.promptTokens = promptTokens }
    public var info: ModelInfo { ModelInfo(name: "scripted", description: "", path: "scripted", parameters: 0, contextPerSequence: 4096, batchSize: 2) }
    public func tokenCount(of text: SealedText) -> Int { text.withUnsealedText { $0.split(separator: " ").count } }
    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        TokenCut(text: text, keptTokens: tokenCount(of: text), wasCut: false)
    }
    public func promptTokenCount(for request: GenerationRequest) -> Int { promptTokens }
    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        requests.map { _ in
            GenerationOutcome(output: .success(SealedText(#"{"replies":["Bit sore but fine","Great"]}"#)),
                              promptTokens: promptTokens, outputTokens: 10, hostMilliseconds: 50)
        }
    }
}

/// A scripted model: routes every group message (and every drawer message) to one name and
/// answers anything else with chips.
public final class LabelScriptedModel: LanguageModel, @unchecked Sendable {
    public let routeTo: String
    public init(routeTo: String) { self.routeTo = routeTo }
    public var info: ModelInfo { ModelInfo(name: "scripted", description: "", path: "scripted", parameters: 0, contextPerSequence: 4096, batchSize: 4) }
    public func tokenCount(of text: SealedText) -> Int { text.utf8Count / 4 + 1 }
    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        TokenCut(text: text, keptTokens: tokenCount(of: text), wasCut: false)
    }
    public func promptTokenCount(for request: GenerationRequest) -> Int { 100 }
    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        requests.map { request in
            let routing = request.choices != nil   // a group's route or the drawer's: the requests that score choices
            let output = routing ? #"{"to":\#(LabelFreeText.json(routeTo))}"# : #"{"replies":["Sure","Later"]}"#
            return GenerationOutcome(output: .success(SealedText(output)), promptTokens: 100, outputTokens: 5,
                                     hostMilliseconds: 10, choiceProbability: 0.9)
        }
    }
}
