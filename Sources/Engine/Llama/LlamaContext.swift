internal import CLlama

/// An inference context: owns the `llama_context`, and keeps its model alive until it is freed.
final class LlamaContext {
    let pointer: OpaquePointer
    let model: LlamaModel
    let sequences: Int
    let contextPerSequence: Int
    let batchCapacity: Int

    init(model: LlamaModel, sequences: Int, contextPerSequence: Int, threads: Int) throws(EngineError) {
        var params = llama_context_default_params()
        params.n_ctx = UInt32(sequences * contextPerSequence)
        params.n_seq_max = UInt32(sequences)
        params.n_batch = UInt32(max(512, min(2048, sequences * contextPerSequence)))
        params.n_ubatch = params.n_batch
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(threads)
        params.kv_unified = false
        params.no_perf = true
        guard let context = llama_init_from_model(model.pointer, params) else {
            throw .contextFailedToStart(contextSize: sequences * contextPerSequence, sequences: sequences)
        }
        self.pointer = context
        self.model = model
        self.sequences = sequences
        self.contextPerSequence = contextPerSequence
        self.batchCapacity = Int(params.n_batch)
    }

    deinit { llama_free(pointer) }

    /// Forgets every sequence, so the next requests start fresh sessions.
    func clear() {
        llama_memory_clear(llama_get_memory(pointer), true)
    }

    /// Evaluates `batch`; 0 on success, llama_decode's status otherwise.
    func decode(_ batch: LlamaBatch) -> Int32 {
        llama_decode(pointer, batch.raw)
    }

    /// The logits of the batch position `index` that asked for them.
    func logits(at index: Int32) -> UnsafeMutablePointer<Float>? {
        llama_get_logits_ith(pointer, index)
    }
}
