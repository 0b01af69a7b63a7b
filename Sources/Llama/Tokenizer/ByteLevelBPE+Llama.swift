internal import CLlama
import Foundation

extension ByteLevelBPE.Vocabulary {
    /// The vocabulary of a loaded model, as llama.cpp holds it, with the merge rules from its file.
    init?(model: LlamaModel) {
        guard let merges = GGUFFile(path: model.path)?.strings("tokenizer.ggml.merges") else { return nil }
        let vocab = model.vocab
        let count = Int(llama_vocab_n_tokens(vocab))
        var tokens: [[UInt8]] = []
        var pieces: [[UInt8]] = []
        var userDefined: [UserDefinedTokens.Token] = []
        var stripSpaces = false
        tokens.reserveCapacity(count)
        pieces.reserveCapacity(count)
        for token in 0..<Int32(count) {
            guard let text = llama_vocab_get_text(vocab, token) else { return nil }
            tokens.append(Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self),
                                                    count: strlen(text))))
            pieces.append(model.piece(token))
            // llama.cpp finds a user-defined token in plain words unless it is also a control or
            // unknown token (`tokenizer_st_partition` with parse_special false).
            let attributes = llama_vocab_get_attr(vocab, token).rawValue
            if attributes & LLAMA_TOKEN_ATTR_USER_DEFINED.rawValue != 0,
               attributes & (LLAMA_TOKEN_ATTR_CONTROL.rawValue | LLAMA_TOKEN_ATTR_UNKNOWN.rawValue) == 0 {
                userDefined.append(UserDefinedTokens.Token(bytes: tokens[Int(token)], id: token))
                if attributes & (LLAMA_TOKEN_ATTR_LSTRIP.rawValue | LLAMA_TOKEN_ATTR_RSTRIP.rawValue) != 0 { stripSpaces = true }
            }
        }
        self.init(isBPE: llama_vocab_type(vocab) == LLAMA_VOCAB_TYPE_BPE,
                  model: model.metadata("tokenizer.ggml.model"),
                  preTokenizer: model.metadata("tokenizer.ggml.pre"),
                  tokens: tokens, userDefinedTokens: userDefined, userDefinedTokensStripSpaces: stripSpaces,
                  merges: merges, pieces: pieces)
    }
}
