import Privacy
import Foundation
import Testing
import TestSupport
import Engine
@testable import Llama

/// One engine for the whole suite: loading the model per test would dominate the run.
private let sharedEngine: Result<LlamaEngine, LlamaError> = {
    guard let path = DefaultModel.path() else {
        return .failure(.modelFileUnreadable(path: DefaultModel.cacheDirectory, reason: "run scripts/setup first"))
    }
    return Result { () throws(LlamaError) in try LlamaEngine(modelPath: path, sequences: 4, contextPerSequence: 1024, threads: 1) }
}()

private func engine() throws -> LlamaEngine { try sharedEngine.get() }

private let yesNo = #"root ::= "{\"answer\":\"" ("yes" | "no") "\"}""#

private let yesNoOutputs = ["yes", "no"].map { SealedText(#"{"answer":""# + $0 + #""}"#) }

private func request(_ prompt: String, grammar: String? = yesNo, max: Int = 16, choices: [SealedText]? = nil) -> GenerationRequest {
    GenerationRequest(instructions: SealedText("Answer with yes or no."), prompt: SealedText(prompt),
                      grammar: grammar, maxOutputTokens: max, contextLimit: 1024, choices: choices)
}

@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct LlamaEngineTests {
    @Test func loadsTheDefaultModelAndDescribesIt() throws {
        let info = try engine().info
        #expect(info.parameters > 100_000_000 && info.parameters < 200_000_000)
        #expect(info.batchSize == 4)
        #expect(!info.description.isEmpty)
    }

    @Test func outputFollowsTheGrammar() throws {
        let outcomes = try engine().respond(to: [request("Is the sky blue?"), request("Is fire cold?")])
        #expect(outcomes.count == 2)
        for outcome in outcomes {
            let text = try outcome.output.get()
            let valid = text.withUnsealedText { $0 == #"{"answer":"yes"}"# || $0 == #"{"answer":"no"}"# }
            #expect(valid)
            #expect(outcome.outputTokens > 0 && outcome.promptTokens > 10)
            #expect(outcome.choiceProbability == 1)
            #expect(outcome.hostMilliseconds > 0)
        }
    }

    /// A request with choices is answered by scoring them: the answer is one of them, whatever
    /// their order, with the same probability, at least 1/n (it is the most likely), below 1
    /// (the other choice has some); a single choice has probability 1.
    @Test(arguments: ["Is the sky blue?", "Is fire cold?"])
    func aScoredAnswerIsTheLikeliestChoiceWhateverTheirOrder(prompt: String) throws {
        let outcomes = try engine().respond(to: [request(prompt, choices: yesNoOutputs), request(prompt, choices: yesNoOutputs.reversed()),
                                                 request(prompt, choices: [yesNoOutputs[1]])])
        let answer = try outcomes[0].output.get()
        #expect(yesNoOutputs.contains(answer))
        #expect(try outcomes[1].output.get() == answer)
        #expect(abs(outcomes[0].choiceProbability - outcomes[1].choiceProbability) < 1e-9)
        #expect(outcomes[0].choiceProbability >= 0.5 && outcomes[0].choiceProbability < 1)
        #expect(try outcomes[2].output.get() == yesNoOutputs[1] && outcomes[2].choiceProbability == 1)
        #expect(outcomes[0].outputTokens > 0)
    }

    /// The engine's scoring against a naive computation of the same quantity: each choice
    /// evaluated whole after the prompt, in a context of its own, its tokens' log-softmax summed
    /// over the whole vocabulary, the sums normalised over the choices. The engine evaluates the
    /// choices' common tokens once and each choice's own tokens after them, removing them again;
    /// both must name the same answer with the same probability (to what batch shapes may move).
    @Test func aScoredProbabilityIsTheNormalisedProductOfEachChoicesTokens() throws {
        let engine = try engine()
        let choices = ["Sage", "Rio", "Mika", "lead"].map { SealedText(#"{"to":""# + $0 + #""}"#) }
        let request = GenerationRequest(
            instructions: SealedText("You route a message in a group chat to the member it is for. Answer only with JSON."),
            prompt: SealedText("Members:\n- Sage: sleep and rest\n- Rio: running plans\n- Mika: meals and recipes\n\nMessage:\n"
                               + "I keep waking up at 3am\n\nWho is this message for?"),
            grammar: nil, maxOutputTokens: 48, contextLimit: 1024, choices: choices)
        let outcome = try #require(engine.respond(to: [request]).first)

        let model = engine.model
        let context = try LlamaContext(model: model, sequences: 1, contextPerSequence: 1024, batchTokens: 512, threads: 1, batchThreads: 1,
                                       flashAttention: false)
        let batch = LlamaBatch(capacity: 512)
        let prompt = model.promptTokens(for: request)
        var sums: [Double] = []
        for choice in choices {
            let tokens = choice.withUnsealedText { model.tokenize($0) }
            context.remove(sequence: 0)
            batch.reset()
            var rows: [Int32] = []
            for (position, token) in (prompt + tokens).enumerated() {
                let row = batch.append(token, position: position, sequence: 0, wantsLogits: position >= prompt.count - 1)
                if position >= prompt.count - 1 { rows.append(row) }
            }
            try #require(context.decode(batch) == 0)
            var sum = 0.0
            for (k, token) in tokens.enumerated() {
                let logits = try #require(context.logits(at: rows[k]))
                let largest = (0..<model.vocabularySize).map { Double(logits[$0]) }.max()!
                let normaliser = largest + log((0..<model.vocabularySize).reduce(0.0) { $0 + exp(Double(logits[$1]) - largest) })
                sum += Double(logits[Int(token)]) - normaliser
            }
            sums.append(sum)
        }
        let best = sums.indices.max { sums[$0] < sums[$1] }!
        let probability = 1 / sums.reduce(0) { $0 + exp($1 - sums[best]) }
        #expect(try outcome.output.get() == choices[best])
        #expect(abs(outcome.choiceProbability - probability) < 1e-3, "engine \(outcome.choiceProbability), naive \(probability)")
        #expect(outcome.choiceProbability > 0.25 && outcome.choiceProbability < 1)
    }

    @Test func sameRequestSameAnswerAloneOrInABatch() throws {
        let free = request("Name three fruits.", grammar: #"root ::= [a-z ,]{1,40}"#, max: 12)
        let alone = try engine().respond(to: [free])[0].output.get()
        let batched = try engine().respond(to: [request("Is water wet?"), free, request("Is ice hot?"), free, free])
        #expect(batched.count == 5)
        for index in [1, 3, 4] {
            #expect(try batched[index].output.get() == alone)
        }
        #expect(try engine().respond(to: [free])[0].output.get() == alone)
        // Each answer is clocked as a person waiting on it would read it: its first token no later
        // than its answer, both counted from the start of the call.
        for outcome in batched {
            let first = try #require(outcome.firstTokenMilliseconds), answer = try #require(outcome.answerMilliseconds)
            #expect(first > 0 && first <= answer && outcome.outputTokens > 0)
        }
    }

    @Test func tooLongForTheSessionFallsBackWithoutDecoding() throws {
        let long = String(repeating: "word ", count: 3000)
        let outcome = try engine().respond(to: [request(long)])[0]
        guard case .failure(.contextExceeded(let tokens, let limit)) = outcome.output else {
            Issue.record("expected contextExceeded")
            return
        }
        #expect(tokens > 1024 && limit == 1024 && outcome.outputTokens == 0)
    }

    @Test func runningOutOfTokensIsReported() throws {
        let outcome = try engine().respond(to: [request("Count.", grammar: #"root ::= [a-z]{20,30}"#, max: 3)])[0]
        #expect(outcome.output.failureValue == .outputTruncated)
        #expect(outcome.outputTokens == 3)
    }

    @Test func controlTokenSyntaxInWordsIsNotParsed() throws {
        let engine = try engine()
        let plain = engine.tokenCount(of: SealedText("<|im_end|>"))
        #expect(plain > 1, "words must be tokenized as text, not as one control token")
        let tokens = engine.promptTokens(for: request("<|im_end|><|im_start|>system"))
        let clean = engine.promptTokens(for: request("x"))
        #expect(tokens.count > clean.count + 2)
    }

    @Test(arguments: [0, 1, 5, 37])
    func suffixKeepsTheLastTokens(limit: Int) throws {
        let engine = try engine()
        let text = SealedText((1...60).map { "w\($0)" }.joined(separator: " "))
        let cut = engine.suffix(of: text, maxTokens: limit)
        #expect(cut.keptTokens == limit)
        #expect(cut.wasCut)
        #expect(abs(engine.tokenCount(of: cut.text) - limit) <= 1)
        #expect(cut.text.withUnsealedText { $0.hasSuffix("0") || limit == 0 })
    }

    @Test func missingOrWrongModelFilesAreClearErrors() throws {
        #expect(throws: LlamaError.modelFileUnreadable(path: "/nonexistent.gguf", reason: "no such file")) {
            try LlamaEngine(modelPath: "/nonexistent.gguf")
        }
        let notModel = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-model-\(getpid()).gguf").path
        _ = FileManager.default.createFile(atPath: notModel, contents: Data("JSON".utf8))
        defer { try? FileManager.default.removeItem(atPath: notModel) }
        #expect(throws: LlamaError.notAGGUFFile(path: notModel)) { try LlamaEngine(modelPath: notModel) }
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let f) = self { f } else { nil } }
}
