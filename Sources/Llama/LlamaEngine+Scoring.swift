import Engine
import Foundation

/// Answering a request that carries its choices (`GenerationRequest.choices`): each choice's log
/// probability is the sum of its tokens' log probabilities (softmax over the whole vocabulary)
/// after the prompt; the answer is the most likely choice (the first among equals), and its
/// probability normalised over the choices is `choiceProbability`.
///
/// The tokens every choice starts with (`{"to":"`) are evaluated once, with the prompt's last
/// chunk when they fit; the row after them predicts each choice's first token of its own. Each
/// choice's later tokens then go in after them and are removed again, so every choice is scored
/// on the same cells. Tokens shared by all choices add the same to each and are left out.
///
/// A choice is a few tokens, and an evaluation of a few rows costs far more per token than one
/// of several sequences' rows together (on one thread, one sequence's 2 rows of logits cost a
/// fifth more per token than 4 sequences' 2 rows each). So the choices of every scored request
/// whose prompt went in during a step are evaluated together after the step's prompt chunks
/// (`scoreChoices`), one choice of each sequence per evaluation, all of one length. Each
/// sequence's rows are the ones it would evaluate alone, at the same positions on the same cells,
/// and evaluation is batch-independent (`LlamaEngine`), so the sums do not change.
extension LlamaEngine {
    /// A scored request's progress once its prompt and the choices' shared opening are in.
    struct Scoring {
        /// The position of each choice's first token of its own.
        let start: Int
        /// Each choice's log probability so far.
        var sums: [Double]
        /// Choices whose later tokens are still to be evaluated.
        var pending: [Int]
    }

    /// Starts scoring `slot`: the logits at batch position `index` (the opening's last row when
    /// `openingEvaluated`, else the prompt's last) are read now, before the next evaluation;
    /// when the opening did not fit the prompt's last chunk it is evaluated here, alone. A request
    /// with nothing left to evaluate is answered at once; the rest wait for `scoreChoices`.
    func beginScoring(_ slot: inout Slot, id: Int, at index: Int32, openingEvaluated: Bool) {
        let started = ContinuousClock.now
        defer { slot.hostNanoseconds += started.nanosecondsSince }
        let choices = slot.choiceTokens
        // Never reached without choices (`admit` scores only a request that has some); ended, not left waiting.
        guard !choices.isEmpty, slot.choices != nil else { return failScoring(&slot) }
        let shared = slot.choiceOpening.count
        let start = slot.position - (openingEvaluated ? shared : 0)
        var row = context.logits(at: index)
        if shared > 0 && !openingEvaluated {
            row = evaluateAlone(slot.choiceOpening, from: start, id: id, slot: &slot).last ?? nil
        }
        guard let row else { return failScoring(&slot) }
        let normaliser = logSumExp(row)
        var sums = [Double](repeating: 0, count: choices.count)
        for (i, choice) in choices.enumerated() where choice.count > shared {
            sums[i] += Double(row[Int(choice[shared])]) - normaliser
        }
        slot.scoring = Scoring(start: start + shared, sums: sums, pending: choices.indices.filter { choices[$0].count > shared + 1 })
        // The opening's cells stay while choices follow; a request with none to follow is done.
        if slot.scoring!.pending.isEmpty { finishScoring(&slot, id: id) }
    }

    /// Evaluates the pending choices of every scoring sequence, one choice of each per evaluation,
    /// until all are answered, every row with its logits. An evaluation takes choices of one
    /// length only, the length most sequences have pending: llama.cpp splits a batch whose
    /// sequences have unequal rows into micro-batches, and a sequence's rows evaluated in a later
    /// one beside fewer sequences come out wrong (logits off by tenths against the same rows
    /// alone), while equal rows go in as one micro-batch and are exact.
    func scoreChoices(_ run: inout Run) {
        while true {
            let waiting = run.slots.indices.dropFirst().filter { id in
                run.slots[id].map { !$0.finished && $0.scoring?.pending.isEmpty == false } ?? false
            }
            guard !waiting.isEmpty else { return }
            func rows(_ id: Int, _ choice: Int) -> Int {
                let slot = run.slots[id]!
                return slot.choiceTokens[choice].count - slot.choiceOpening.count - 1
            }
            var sequencesByLength: [Int: Int] = [:]
            for id in waiting {
                for length in Set(run.slots[id]!.scoring!.pending.map { rows(id, $0) }) { sequencesByLength[length, default: 0] += 1 }
            }
            let common = sequencesByLength.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }!.key
            let ids = waiting.filter { id in run.slots[id]!.scoring!.pending.contains { rows(id, $0) == common } }
            batch.reset()
            // One sequence's single row goes in with the companion token (two rows at least, as
            // in every evaluation here).
            let alone = ids.count == 1 && common == 1
            if alone {
                batch.append(model.framingTokens[0].first ?? 0, position: 0, sequence: Self.companion, wantsLogits: true)
            }
            var taken: [(id: Int, choice: Int, indices: [Int32])] = []
            for id in ids {
                let scoring = run.slots[id]!.scoring!
                let at = scoring.pending.firstIndex { rows(id, $0) == common }!
                let choice = scoring.pending[at]
                run.slots[id]!.scoring!.pending.remove(at: at)
                let tokens = run.slots[id]!.choiceTokens[choice].dropFirst(run.slots[id]!.choiceOpening.count).dropLast()
                let indices = tokens.enumerated().map { batch.append($1, position: scoring.start + $0, sequence: id, wantsLogits: true) }
                statistics.choiceTokensEvaluated += indices.count
                taken.append((id, choice, indices))
            }
            lendIfAlone()
            let status = evaluate(shares: taken.map { ($0.id, $0.indices.count) }, slots: &run.slots)
            if alone { context.remove(sequence: Self.companion) }
            for (id, choice, indices) in taken {
                let started = ContinuousClock.now
                var slot = run.slots[id]!
                var scoring = slot.scoring!
                let tokens = slot.choiceTokens[choice]
                let shared = slot.choiceOpening.count
                var read = status == 0
                // The choice's later tokens, each predicted by the row of its own token before it.
                for (k, index) in indices.enumerated() where read {
                    guard let logits = context.logits(at: index) else { read = false; break }
                    scoring.sums[choice] += Double(logits[Int(tokens[shared + 1 + k])]) - logSumExp(logits)
                }
                context.remove(sequence: id, from: scoring.start)
                slot.scoring = scoring
                if !read {
                    if status != 0 { slot.failure = .decodeFailed(status: status) }
                    failScoring(&slot)
                } else if scoring.pending.isEmpty {
                    finishScoring(&slot, id: id)
                }
                slot.hostNanoseconds += started.nanosecondsSince
                run.slots[id] = slot
            }
        }
    }

    /// The answer: the most likely choice, the first among equals.
    private func finishScoring(_ slot: inout Slot, id: Int) {
        guard let scoring = slot.scoring, let texts = slot.choices else { return failScoring(&slot) }
        context.remove(sequence: id, from: scoring.start - slot.choiceOpening.count)
        let sums = scoring.sums
        let best = sums.indices.max { sums[$0] < sums[$1] || (sums[$0] == sums[$1] && $0 > $1) }!
        let total = sums.reduce(0) { $0 + exp($1 - sums[best]) }
        slot.choiceProbability = 1 / total
        slot.bytes = texts[best].withUnsealedText { Array($0.utf8) }
        slot.outputIDs = slot.choiceTokens[best]
        slot.outputTokens = slot.choiceTokens[best].count
        slot.scoring = nil
        slot.finished = true
        statistics.requestsScored += 1
    }

    /// Evaluates `tokens` in sequence `id` from `position` (with the companion token when alone,
    /// as every evaluation here holds two tokens at least) and returns each token's row of logits,
    /// valid until the next evaluation; empty when the evaluation failed.
    private func evaluateAlone(_ tokens: [Int32], from position: Int, id: Int, slot: inout Slot) -> [UnsafeMutablePointer<Float>?] {
        batch.reset()
        if tokens.count == 1 {
            batch.append(model.framingTokens[0].first ?? 0, position: 0, sequence: Self.companion, wantsLogits: true)
        }
        let indices = tokens.enumerated().map { batch.append($1, position: position + $0, sequence: id, wantsLogits: true) }
        let status = decodeBatch().status
        statistics.choiceTokensEvaluated += tokens.count
        if tokens.count == 1 { context.remove(sequence: Self.companion) }
        guard status == 0 else {
            slot.failure = .decodeFailed(status: status)
            return []
        }
        return indices.map { context.logits(at: $0) }
    }

    /// Ends a scored request that could not be evaluated (its failure is set, or set here).
    func failScoring(_ slot: inout Slot) {
        if slot.failure == nil { slot.failure = .decodeFailed(status: -1) }
        slot.scoring = nil
        slot.finished = true
    }

    /// log Σ exp(logits) over the vocabulary, from the largest logit for precision.
    private func logSumExp(_ logits: UnsafeMutablePointer<Float>) -> Double {
        let vocabulary = model.vocabularySize
        var largest = logits[0]
        for token in 1..<vocabulary where logits[token] > largest { largest = logits[token] }
        var sum: Float = 0
        for token in 0..<vocabulary { sum += expf(logits[token] - largest) }
        return Double(largest) + Double(log(sum))
    }
}
