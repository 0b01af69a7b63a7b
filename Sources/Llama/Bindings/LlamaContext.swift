internal import CLlama

/// An inference context: owns the `llama_context`, and keeps its model alive until it is freed.
///
/// Every sequence has a KV buffer of its own (`kv_unified` off): its cells are always in the
/// order of its positions, which keeps attention's arithmetic the same however sequences come
/// and go (see `LlamaEngine`).
final class LlamaContext {
    let pointer: OpaquePointer
    let model: LlamaModel
    /// Sequence ids in the context (`n_seq_max`).
    let sequences: Int
    let contextPerSequence: Int
    let batchCapacity: Int

    /// A context of `sequences` sequences of `contextPerSequence` cells each. `batchTokens` is both
    /// `n_batch` and `n_ubatch`: the engine submits batches that are already one micro-batch.
    init(model: LlamaModel, sequences: Int, contextPerSequence: Int, batchTokens: Int, threads: Int, batchThreads: Int,
         flashAttention: Bool) throws(LlamaError) {
        var params = llama_context_default_params()
        params.n_ctx = UInt32(sequences * contextPerSequence)
        params.n_seq_max = UInt32(sequences)
        params.n_batch = UInt32(batchTokens)
        params.n_ubatch = UInt32(batchTokens)
        params.n_threads = Int32(threads)
        params.n_threads_batch = Int32(batchThreads)
        params.kv_unified = false
        params.no_perf = true
        params.flash_attn_type = flashAttention ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED
        guard let context = llama_init_from_model(model.pointer, params) else {
            throw .contextFailedToStart(contextSize: sequences * contextPerSequence, sequences: sequences)
        }
        self.pointer = context
        self.model = model
        self.sequences = sequences
        self.contextPerSequence = contextPerSequence
        self.batchCapacity = batchTokens
    }

    deinit { llama_free(pointer) }

    /// Evaluates with `threads` threads from the next evaluation on (a lane alone at a call's
    /// end takes its neighbours' cores, `CoreLending`). Each result is still computed by one
    /// thread with the same kernel, so the numbers do not change, only who computes them.
    func setThreads(_ threads: Int) {
        llama_set_n_threads(pointer, Int32(threads), Int32(threads))
    }

    /// The threads evaluating a batch now.
    var batchThreads: Int { Int(llama_n_threads_batch(pointer)) }

    private var memory: llama_memory_t { llama_get_memory(pointer) }

    /// Forgets the positions from `start` on of `sequence` (all of it for 0).
    func remove(sequence: Int, from start: Int = 0) {
        _ = llama_memory_seq_rm(memory, Int32(sequence), Int32(start), -1)
    }

    /// The cells of `sequence` (positions, and keys and values of every layer) as bytes that
    /// `restore` puts back, into this or another sequence. Numbers the model computed, kept in
    /// memory only.
    func save(sequence: Int) -> [UInt8] {
        let size = llama_state_seq_get_size(pointer, Int32(sequence))
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBufferPointer { llama_state_seq_get_data(pointer, $0.baseAddress, size, Int32(sequence)) }
        return Array(bytes.prefix(written))
    }

    /// Replaces `sequence` by saved cells, placed from its buffer's start in position order.
    @discardableResult
    func restore(_ bytes: [UInt8], into sequence: Int) -> Bool {
        bytes.withUnsafeBufferPointer { llama_state_seq_set_data(pointer, $0.baseAddress, $0.count, Int32(sequence)) } > 0
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
