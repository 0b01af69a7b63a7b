internal import CLlama

/// A token batch for `llama_decode`: owns the `llama_batch` arrays and frees them once.
final class LlamaBatch {
    var raw: llama_batch
    let capacity: Int

    init(capacity: Int) {
        raw = llama_batch_init(Int32(capacity), 0, 1)
        self.capacity = capacity
    }

    deinit { llama_batch_free(raw) }

    var count: Int { Int(raw.n_tokens) }

    func reset() { raw.n_tokens = 0 }

    /// Appends one token of sequence `sequence` at `position`; returns its index in the batch.
    @discardableResult
    func append(_ token: Int32, position: Int, sequence: Int, wantsLogits: Bool) -> Int32 {
        let index = Int(raw.n_tokens)
        precondition(index < capacity, "batch overflow")
        raw.token[index] = token
        raw.pos[index] = Int32(position)
        raw.n_seq_id[index] = 1
        raw.seq_id[index]![0] = Int32(sequence)
        raw.logits[index] = wantsLogits ? 1 : 0
        raw.n_tokens += 1
        return Int32(index)
    }

    /// Asks for the logits of the token at `index` too.
    func requestLogits(at index: Int32) {
        raw.logits[Int(index)] = 1
    }
}
