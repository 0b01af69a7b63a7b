extension ByteLevelBPE {
    /// What a model's tokenizer is, as its GGUF metadata and llama.cpp say: enough to decide
    /// whether the native tokenizer may stand in for llama.cpp's, and to build it.
    struct Vocabulary: Sendable {
        /// llama.cpp's vocabulary type: the native tokenizer needs byte-level BPE.
        var isBPE: Bool
        /// `tokenizer.ggml.model` ("gpt2" for byte-level BPE).
        var model: String?
        /// `tokenizer.ggml.pre`: the pre-tokenizer, "smollm" for SmolLM2, "qwen2" for Qwen2.5.
        var preTokenizer: String?
        /// Each token's text as llama.cpp holds it (`llama_vocab_get_text`), in id order.
        var tokens: [[UInt8]]
        /// The user-defined tokens that are not control tokens: llama.cpp splits those out of
        /// plain words too (`UserDefinedTokens`).
        var userDefinedTokens: [UserDefinedTokens.Token]
        /// Whether any of them strips the spaces beside it (llama.cpp's LSTRIP and RSTRIP).
        var userDefinedTokensStripSpaces: Bool
        /// `tokenizer.ggml.merges`, "left right", in rank order.
        var merges: [[UInt8]]
        /// Each token's bytes as `llama_token_to_piece` renders them (for cutting text).
        var pieces: [[UInt8]]
    }

    /// Why `vocabulary` cannot be tokenized natively, or nil when it can: only the pre-tokenizers
    /// done natively (`PreTokenizerKind`: SmolLM2's and Qwen2.5's, the ones proven), and only
    /// user-defined tokens llama.cpp finds as `UserDefinedTokens` does.
    static func unsupportedReason(_ vocabulary: Vocabulary) -> String? {
        guard vocabulary.isBPE, vocabulary.model == "gpt2" else { return "not a GPT-2 byte-level BPE vocabulary" }
        guard let pre = vocabulary.preTokenizer, PreTokenizerKind(rawValue: pre) != nil else {
            return "pre-tokenizer \(vocabulary.preTokenizer ?? "none") has no native splitter"
        }
        if let reason = UserDefinedTokens.unsupportedReason(vocabulary.userDefinedTokens,
                                                            stripSpaces: vocabulary.userDefinedTokensStripSpaces) {
            return reason
        }
        guard vocabulary.pieces.count == vocabulary.tokens.count else { return "pieces do not match tokens" }
        return nil
    }

    /// Why a vocabulary gets no native tokenizer: a fact about the vocabulary, never about words.
    struct Unsupported: Error, Equatable {
        var reason: String
    }

    /// The native tokenizer for `vocabulary`; throws when it is not one this was proven on, or
    /// when some merge would make a symbol that is not a token (llama.cpp would then fall back
    /// to bytes, which this does not do).
    convenience init(vocabulary: Vocabulary) throws(Unsupported) {
        if let reason = Self.unsupportedReason(vocabulary) { throw Unsupported(reason: reason) }
        // llama.cpp's token_to_id map: a text seen twice keeps the later id.
        let index = TokenTextIndex(vocabulary.tokens)
        let vocabularySize = Int32(vocabulary.tokens.count)
        // Texts that are no token get stand-in ids past the vocabulary, so every symbol llama.cpp
        // could form has an id: a byte without a token, or a merge rule's half or result.
        var standIns: [[UInt8]: Int32] = [:]
        var standInTexts: [[UInt8]] = []
        func id(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8> = []) -> Int32 {
            if let known = index.id(first, second) { return known }
            let text = Array(first) + Array(second)
            if let known = standIns[text] { return known }
            let new = vocabularySize + Int32(standInTexts.count)
            standIns[text] = new
            standInTexts.append(text)
            return new
        }
        let byteTokens = Self.byteCharacters.map { id(Array(String($0).utf8)[...]) }

        // A rule's rank is its place in the whole list, as in llama.cpp's bpe_ranks.
        var merges: [(left: Int32, right: Int32, merged: Int32)] = []
        merges.reserveCapacity(vocabulary.merges.count)
        for rule in vocabulary.merges {
            // llama.cpp splits at the first space after the first byte; no space: an empty pair,
            // which no symbol (never empty) meets.
            guard let space = rule.dropFirst().firstIndex(of: 0x20) else {
                merges.append((-1, -1, -1))
                continue
            }
            let left = rule[..<space], right = rule[(space + 1)...]
            merges.append((id(left), id(right), id(left, right)))
        }
        // A symbol with no token: llama.cpp looks each byte of its text up as a one-byte token.
        let standInTokens = standInTexts.map { text in text.compactMap { index.id([$0][...]) } }
        // The narrow table when ids and ranks fit it (SmolLM2), else the wide one (Qwen2.5).
        let table: Tables.Merges
        if let narrow = BPEMergeTable(merges: merges) {
            guard narrow.count > 0 else { throw Unsupported(reason: "no merge rule applies") }
            table = .narrow(narrow)
        } else if let wide = WideBPEMergeTable(merges: merges) {
            guard wide.count > 0 else { throw Unsupported(reason: "no merge rule applies") }
            table = .wide(wide)
        } else {
            throw Unsupported(reason: "more than \(WideBPEMergeTable.limit) tokens or merge rules")
        }
        let preTokenizer = PreTokenizerKind(rawValue: vocabulary.preTokenizer ?? "")!
        self.init(byteTokens: byteTokens, merges: table, vocabularySize: vocabularySize,
                  standInTokens: standInTokens, pieces: vocabulary.pieces, preTokenizer: preTokenizer,
                  userDefinedTokens: UserDefinedTokens(vocabulary.userDefinedTokens))
    }

    /// GPT-2's stand-in character for each byte (`bytes_to_unicode`; llama.cpp's
    /// `unicode_byte_to_utf8_map`): printable Latin-1 as itself, the rest from U+0100 on.
    static let byteCharacters: [Unicode.Scalar] = {
        var map = [Unicode.Scalar?](repeating: nil, count: 256)
        for byte in 0x21...0x7E { map[byte] = Unicode.Scalar(UInt8(byte)) }
        for byte in 0xA1...0xAC { map[byte] = Unicode.Scalar(UInt8(byte)) }
        for byte in 0xAE...0xFF { map[byte] = Unicode.Scalar(UInt8(byte)) }
        var next: UInt32 = 256
        for byte in 0..<256 where map[byte] == nil {
            map[byte] = Unicode.Scalar(next)
            next += 1
        }
        return map.map { $0! }
    }()
}
