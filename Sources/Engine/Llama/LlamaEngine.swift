internal import CLlama
import Privacy
import Foundation

/// The real model engine: llama.cpp running a GGUF instruct model, greedy, under a grammar.
///
/// Requests are decoded together, continuously batched: every `llama_decode` carries the next
/// token of each generating sequence plus as many prompt tokens of waiting sequences as fit.
/// Each request is its own sequence in the KV cache, cleared between rounds, so no request
/// sees another's words (a fresh session each, as on the phone). Decoding is greedy, so the
/// same request always gives the same answer. One lock serialises use of the context, which
/// llama.cpp does not allow from two threads at once.
public final class LlamaEngine: LanguageModel, @unchecked Sendable {
    private let lock = NSLock()
    let model: LlamaModel
    let context: LlamaContext
    let batch: LlamaBatch
    private var candidates: [llama_token_data]
    public let info: ModelInfo
    /// Where the engine's time went so far: timings and counts only.
    public private(set) var statistics = EngineStatistics()

    /// Loads the model at `modelPath` and a context for `sequences` parallel sessions of
    /// `contextPerSequence` tokens each (4,096 mirrors the phone's session ceiling).
    public init(modelPath: String, sequences: Int = 8, contextPerSequence: Int = 4096,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws(EngineError) {
        precondition(sequences >= 1 && contextPerSequence >= 64)
        let model = try LlamaModel(path: modelPath)
        guard model.framing != nil else { throw .modelHasNoChatTemplate(path: modelPath) }
        self.model = model
        self.context = try LlamaContext(model: model, sequences: sequences, contextPerSequence: contextPerSequence, threads: threads)
        self.batch = LlamaBatch(capacity: context.batchCapacity)
        self.candidates = []
        self.info = ModelInfo(
            name: model.metadata("general.name") ?? URL(fileURLWithPath: modelPath).lastPathComponent,
            description: model.summary, path: modelPath, parameters: model.parameterCount,
            contextPerSequence: contextPerSequence, batchSize: sequences)
    }

    public func tokenCount(of text: SealedText) -> Int { model.tokenCount(of: text) }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut { model.suffix(of: text, maxTokens: maxTokens) }

    public func promptTokenCount(for request: GenerationRequest) -> Int { model.promptTokenCount(for: request) }

    func promptTokens(for request: GenerationRequest) -> [Int32] { model.promptTokens(for: request) }

    public func respond(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        lock.lock()
        defer { lock.unlock() }
        var outcomes: [GenerationOutcome] = []
        outcomes.reserveCapacity(requests.count)
        var start = 0
        while start < requests.count {
            let end = min(start + context.sequences, requests.count)
            outcomes += round(Array(requests[start..<end]))
            start = end
        }
        return outcomes
    }

    /// One sequence being answered.
    private struct Slot {
        let request: Int
        let prompt: [Int32]
        let maxOutputTokens: Int
        let grammar: LlamaGrammar?
        let measuresConfidence: Bool
        var cursor = 0                 // prompt tokens already in the cache
        var position = 0               // next position in the sequence
        var next: Int32? = nil         // sampled token still to be evaluated
        var logitsIndex: Int32 = -1    // where this slot's logits are in the current batch
        var bytes: [UInt8] = []
        var outputTokens = 0
        var hostNanoseconds: Double = 0
        var minimumProbability = 1.0
        var failure: GenerationOutcome.Failure? = nil
        var finished = false
    }

    /// Answers up to `context.sequences` requests together, then clears the cache.
    private func round(_ requests: [GenerationRequest]) -> [GenerationOutcome] {
        defer { context.clear() }
        var results = [GenerationOutcome?](repeating: nil, count: requests.count)
        var slots: [Slot] = []
        for (index, request) in requests.enumerated() {
            let started = ContinuousClock.now
            let tokens = promptTokens(for: request)
            let limit = min(request.contextLimit, context.contextPerSequence)
            guard tokens.count + request.maxOutputTokens <= limit else {
                results[index] = GenerationOutcome(
                    output: .failure(.contextExceeded(promptTokens: tokens.count, limit: limit)),
                    promptTokens: tokens.count, outputTokens: 0, hostMilliseconds: started.millisecondsSince)
                continue
            }
            let grammar = request.grammar.flatMap { try? LlamaGrammar(model: model, grammar: $0) }
            precondition(request.grammar == nil || grammar != nil, "a job built a grammar llama.cpp rejects")
            var slot = Slot(request: index, prompt: tokens, maxOutputTokens: request.maxOutputTokens, grammar: grammar,
                            measuresConfidence: request.measuresConfidence)
            slot.hostNanoseconds = started.nanosecondsSince
            slots.append(slot)
        }

        while slots.contains(where: { !$0.finished }) {
            batch.reset()
            var contributed = [Int](repeating: 0, count: slots.count)
            // Generating sequences first: one token each, so decoding never starves.
            for s in slots.indices where !slots[s].finished {
                guard let token = slots[s].next else { continue }
                slots[s].logitsIndex = batch.append(token, position: slots[s].position, sequence: s, wantsLogits: true)
                slots[s].position += 1
                slots[s].next = nil
                contributed[s] += 1
            }
            // Then prompt tokens of waiting sequences, as many as fit.
            for s in slots.indices where !slots[s].finished && slots[s].cursor < slots[s].prompt.count {
                while slots[s].cursor < slots[s].prompt.count && !batch.isFull {
                    let last = slots[s].cursor == slots[s].prompt.count - 1
                    let index = batch.append(slots[s].prompt[slots[s].cursor], position: slots[s].position, sequence: s, wantsLogits: last)
                    if last { slots[s].logitsIndex = index }
                    slots[s].cursor += 1
                    slots[s].position += 1
                    contributed[s] += 1
                }
            }
            guard batch.count > 0 else { break }

            let started = ContinuousClock.now
            let status = context.decode(batch)
            let decodeNanoseconds = started.nanosecondsSince
            statistics.decodeCalls += 1
            statistics.tokensEvaluated += batch.count
            statistics.decodeNanoseconds += decodeNanoseconds
            let share = decodeNanoseconds / Double(batch.count)
            for s in slots.indices where contributed[s] > 0 {
                slots[s].hostNanoseconds += share * Double(contributed[s])
            }
            if status != 0 {
                for s in slots.indices where contributed[s] > 0 {
                    slots[s].failure = .decodeFailed(status: status)
                    slots[s].finished = true
                }
                continue
            }
            for s in slots.indices where !slots[s].finished && slots[s].logitsIndex >= 0 {
                let sampling = ContinuousClock.now
                sample(&slots[s])
                slots[s].logitsIndex = -1
                let sampled = sampling.nanosecondsSince
                slots[s].hostNanoseconds += sampled
                statistics.samplingNanoseconds += sampled
                statistics.tokensSampled += 1
            }
        }

        for slot in slots {
            let output: Result<SealedText, GenerationOutcome.Failure> = slot.failure.map { .failure($0) }
                ?? .success(SealedText(String(decoding: slot.bytes, as: UTF8.self)))
            results[slot.request] = GenerationOutcome(
                output: output, promptTokens: slot.prompt.count, outputTokens: slot.outputTokens,
                hostMilliseconds: slot.hostNanoseconds / 1_000_000, minimumTokenProbability: slot.minimumProbability)
        }
        return results.map { $0! }
    }

    /// Picks the most likely token the grammar allows and, when the request measures
    /// confidence, records its probability among the allowed tokens.
    ///
    /// Masking the whole vocabulary with the grammar costs about as much as evaluating a token,
    /// so without a confidence to measure the unconstrained best token is tried first: if the
    /// grammar allows it, it is also the best allowed token (greedy gives the same answer), and
    /// the full mask is only needed when it does not.
    private func sample(_ slot: inout Slot) {
        guard let logits = context.logits(at: slot.logitsIndex) else {
            slot.failure = .decodeFailed(status: -1)
            slot.finished = true
            return
        }
        let vocabulary = model.vocabularySize
        var best: Int32 = -1
        if !slot.measuresConfidence {
            var top = 0
            for token in 1..<vocabulary where logits[token] > logits[top] { top = token }
            if let grammar = slot.grammar {
                var single = llama_token_data(id: Int32(top), logit: logits[top], p: 0)
                let grammarStarted = ContinuousClock.now
                withUnsafeMutablePointer(to: &single) { pointer in
                    var array = llama_token_data_array(data: pointer, size: 1, selected: -1, sorted: false)
                    grammar.apply(&array)
                }
                statistics.grammarNanoseconds += grammarStarted.nanosecondsSince
                if single.logit > -Float.infinity { best = Int32(top) }
            } else {
                best = Int32(top)
            }
        }
        if best < 0 {
            best = maskedBest(logits: logits, vocabulary: vocabulary, slot: &slot)
        }
        guard best >= 0 else {
            slot.failure = .grammarDeadEnd
            slot.finished = true
            return
        }
        if model.isEndOfGeneration(best) {
            slot.finished = true
            return
        }
        slot.grammar?.accept(best)
        slot.bytes += model.piece(best)
        slot.outputTokens += 1
        if slot.outputTokens >= slot.maxOutputTokens {
            slot.failure = .outputTruncated
            slot.finished = true
        } else {
            slot.next = best
        }
    }

    /// The best token after masking the whole vocabulary with the grammar; records its
    /// probability among the allowed tokens. -1 when the grammar allows nothing.
    private func maskedBest(logits: UnsafeMutablePointer<Float>, vocabulary: Int, slot: inout Slot) -> Int32 {
        if candidates.count != vocabulary {
            candidates = [llama_token_data](repeating: llama_token_data(id: 0, logit: 0, p: 0), count: vocabulary)
        }
        var best: Int32 = -1
        var bestLogit = -Float.infinity
        var normaliser = 0.0
        candidates.withUnsafeMutableBufferPointer { buffer in
            for token in 0..<vocabulary {
                buffer[token] = llama_token_data(id: Int32(token), logit: logits[token], p: 0)
            }
            var array = llama_token_data_array(data: buffer.baseAddress, size: vocabulary, selected: -1, sorted: false)
            let grammarStarted = ContinuousClock.now
            slot.grammar?.apply(&array)
            statistics.grammarNanoseconds += grammarStarted.nanosecondsSince
            for i in 0..<array.size {
                let logit = array.data[i].logit
                if logit > bestLogit { bestLogit = logit; best = array.data[i].id }
            }
            guard best >= 0 else { return }
            for i in 0..<array.size where array.data[i].logit > -Float.infinity {
                normaliser += exp(Double(array.data[i].logit - bestLogit))
            }
        }
        if best >= 0 && slot.measuresConfidence { slot.minimumProbability = min(slot.minimumProbability, 1 / normaliser) }
        return best
    }
}

/// Where an engine's time went: evaluation, sampling and the grammar's share of sampling.
public struct EngineStatistics: Sendable, Equatable {
    public var decodeCalls = 0
    public var tokensEvaluated = 0
    public var tokensSampled = 0
    public var decodeNanoseconds = 0.0
    public var samplingNanoseconds = 0.0
    /// Part of `samplingNanoseconds` spent masking the vocabulary with the grammar.
    public var grammarNanoseconds = 0.0
}

extension ContinuousClock.Instant {
    /// Nanoseconds from this instant to now, as a Double for sums and shares.
    public var nanosecondsSince: Double {
        let elapsed = ContinuousClock.now - self
        return Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    }
    /// Milliseconds from this instant to now.
    public var millisecondsSince: Double { nanosecondsSince / 1e6 }
}
