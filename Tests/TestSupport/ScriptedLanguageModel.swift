import Engine
import Jobs
import Privacy

/// A language model for tests that run the jobs without llama.cpp: each request is answered by
/// `script`, and words are tokens (white-space separated), so sizes are easy to reason about.
///
/// `ScriptedModel` in JobsTests is the same idea, private to that target; this one is shared.
public final class ScriptedLanguageModel: LanguageModel, @unchecked Sendable {
    public let script: @Sendable (GenerationRequest) -> GenerationOutcome
    /// How many requests were asked.
    public private(set) var asked = 0

    public init(script: @escaping @Sendable (GenerationRequest) -> GenerationOutcome) {
        self.script = script
    }

    /// A model that writes `output(request)` for every request, with these sizes and no time.
    public convenience init(outputTokens: Int = 10, output: @escaping @Sendable (GenerationRequest) -> String) {
        self.init { request in
            GenerationOutcome(output: .success(SealedText(output(request))), promptTokens: 100, outputTokens: outputTokens,
                              hostMilliseconds: 1, choiceProbability: 1)
        }
    }

    /// Answers every job with a valid output, found from the request's grammar: two chips, the
    /// lead, a plain line, no draft. `word` is written into each output's text (a marker a test
    /// can search the results for).
    public static func valid(word: String = "fine") -> ScriptedLanguageModel {
        ScriptedLanguageModel(output: { request in
            switch request.grammar {
            case Replies.grammar: #"{"replies":["\#(word) one","\#(word) two"]}"#
            case PushLine.grammar: #"{"line":"\#(word) down 2.3 lb this week"}"#
            case Draft.grammar: #"{"kind":"card","title":"\#(word)","body":"\#(word) and more"}"#
            default: #"{"to":"lead"}"#   // routing's grammar is made per group
            }
        })
    }

    /// What the model says it is (a test may dress it as a model file).
    public var info = ModelInfo(name: "scripted", description: "scripted test model", path: "scripted", parameters: 0,
                                contextPerSequence: 4096, batchSize: 4)

    public func tokenCount(of text: SealedText) -> Int {
        text.withUnsealedText { $0.split(whereSeparator: \.isWhitespace).count }
    }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        text.withUnsealedText { words in
            let tokens = words.split(whereSeparator: \.isWhitespace)
            return TokenCut(text: SealedText(tokens.suffix(maxTokens).joined(separator: " ")), keptTokens: min(maxTokens, tokens.count),
                            wasCut: tokens.count > maxTokens)
        }
    }

    public func promptTokenCount(for request: GenerationRequest) -> Int {
        tokenCount(of: request.instructions) + tokenCount(of: request.prompt) + 10
    }

    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        asked += requests.count
        return requests.map(script)
    }
}
