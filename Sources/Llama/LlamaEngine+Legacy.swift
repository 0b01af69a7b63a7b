import Engine
import Privacy

extension LlamaEngine {
    /// The engine before issue 11, kept to compare against (`Options.legacy`): rounds of up to
    /// `sequences` requests, each decode carrying the generating sequences' next tokens and as
    /// many prompt tokens as fit in 2,048, the cache cleared after each round.
    ///
    /// Its answers depend on which requests share a round: llama.cpp picks its kernels by the
    /// shape of each evaluation (see `LlamaEngine`).
    func respondLegacy(to requests: [GenerationRequest]) -> [GenerationOutcome] {
        var outcomes: [GenerationOutcome] = []
        outcomes.reserveCapacity(requests.count)
        var start = 0
        while start < requests.count {
            let end = min(start + context.sequences, requests.count)
            outcomes += legacyRound(Array(requests[start..<end]))
            start = end
        }
        return outcomes
    }

    /// Answers up to `context.sequences` requests together, then clears the cache.
    private func legacyRound(_ requests: [GenerationRequest]) -> [GenerationOutcome] {
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
            var slot = Slot(request: index, prompt: tokens, instructionPrefix: 0, maxOutputTokens: request.maxOutputTokens,
                            grammar: grammar, grammarText: request.grammar, measuresConfidence: request.measuresConfidence)
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
                slots[s].next = sample(&slots[s], at: slots[s].logitsIndex)
                slots[s].logitsIndex = -1
                let sampled = sampling.nanosecondsSince
                slots[s].hostNanoseconds += sampled
                statistics.samplingNanoseconds += sampled
                statistics.tokensSampled += 1
            }
        }

        for slot in slots {
            results[slot.request] = slot.outcome
        }
        return results.map { $0! }
    }
}
