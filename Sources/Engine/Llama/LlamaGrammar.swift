internal import CLlama

/// A GBNF grammar sampler for one sequence: owns the `llama_sampler` and frees it once.
///
/// Used directly (not in a chain) so the engine can see the probabilities of the tokens the
/// grammar allows, which routing turns into a confidence.
final class LlamaGrammar {
    let pointer: UnsafeMutablePointer<llama_sampler>

    init(model: LlamaModel, grammar: String) throws(EngineError) {
        guard let sampler = llama_sampler_init_grammar(model.vocab, grammar, "root") else {
            throw .grammarRejected(root: "root")
        }
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
}
