internal import CLlama

/// A GBNF grammar sampler for one sequence: owns the `llama_sampler` and frees it once.
///
/// Used directly (not in a chain) so the engine can see the probabilities of the tokens the
/// grammar allows, which routing turns into a confidence.
final class LlamaGrammar {
    let pointer: UnsafeMutablePointer<llama_sampler>

    init(model: LlamaModel, grammar: String) throws(LlamaError) {
        guard let sampler = llama_sampler_init_grammar(model.vocab, grammar, "root") else {
            throw .grammarRejected(root: "root")
        }
        pointer = sampler
    }

    /// A sampler in the state `other` is in, without parsing the grammar again.
    init?(copying other: LlamaGrammar) {
        guard let sampler = llama_sampler_clone(other.pointer) else { return nil }
        pointer = sampler
    }

    deinit { llama_sampler_free(pointer) }

    /// Masks, in place, the candidates the grammar does not allow next (their logit becomes -inf).
    func apply(_ candidates: inout llama_token_data_array) {
        llama_sampler_apply(pointer, &candidates)
    }

    /// Advances the grammar past `token`.
    func accept(_ token: Int32) {
        llama_sampler_accept(pointer, token)
    }

    /// The ones of `tokens` the grammar allows next, in the order given.
    func allowed(among tokens: [Int32]) -> [Int32] {
        var candidates = tokens.map { llama_token_data(id: $0, logit: 0, p: 0) }
        return candidates.withUnsafeMutableBufferPointer { buffer in
            var array = llama_token_data_array(data: buffer.baseAddress, size: buffer.count, selected: -1, sorted: false)
            apply(&array)
            return buffer.filter { $0.logit > -Float.infinity }.map(\.id)
        }
    }

    /// Whether the grammar allows any of `tokens` next.
    func allowsAny(of tokens: [Int32]) -> Bool {
        !allowed(among: tokens).isEmpty
    }

    /// Whether the grammar allows `token` next.
    func allows(_ token: Int32) -> Bool {
        var single = llama_token_data(id: token, logit: 0, p: 0)
        withUnsafeMutablePointer(to: &single) { pointer in
            var array = llama_token_data_array(data: pointer, size: 1, selected: -1, sorted: false)
            apply(&array)
        }
        return single.logit > -Float.infinity
    }
}
