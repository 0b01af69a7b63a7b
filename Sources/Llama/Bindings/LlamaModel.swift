internal import CLlama
import Engine
import Privacy
import Foundation
import Synchronization

/// A loaded GGUF model: owns the `llama_model` and frees it once, after every context made from it.
///
/// Also the tokenizer, since the vocabulary lives in the model. Load with `vocabularyOnly` to
/// count tokens without reading the weights. Plain words go through `ByteLevelBPE` (llama.cpp's
/// ids, tens of times faster) when the vocabulary is one it was proven on, else `llama_tokenize`.
/// Sendable: after loading it is read-only, and llama.cpp's tokenizer only reads the vocabulary.
public final class LlamaModel: Tokenizer, @unchecked Sendable {
    let pointer: OpaquePointer
    let vocab: OpaquePointer
    /// The path the model was loaded from.
    public let path: String
    /// The chat template split around its turns; nil when the model carries no template.
    let framing: ChatFraming?
    /// The framing's three parts as tokens, tokenized once: llama.cpp's tokenizer runs at a few
    /// MB/s, and a dry run tokenizes every eligible screen.
    let framingTokens: [[Int32]]
    /// Instructions are a few fixed texts per job and language: their tokens are kept.
    private let instructionCache = Mutex<[SealedText: [Int32]]>([:])
    /// The native tokenizer, built at its first use (`NativeTokenizerSlot`).
    private let native: NativeTokenizerSlot
    /// The native tokenizer for plain words, when the vocabulary is one it was proven on (nil:
    /// every text goes through `llama_tokenize`).
    var nativeTokenizer: ByteLevelBPE? { native.value { buildNativeTokenizer() }.tokenizer }
    /// Why there is no native tokenizer (nil when there is one): a vocabulary fact, never words.
    var nativeTokenizerUnavailable: String? { native.value { buildNativeTokenizer() }.unavailable }

    /// Loads the model at `path`; `vocabularyOnly` skips the weights (for sizing, not generating).
    /// `nativeTokenizer` lets the native tokenizer stand in for llama.cpp's where it is exact
    /// (false only to compare the two). `offloadedLayers` go to a GPU where libllama has one
    /// (`LlamaEngine.Options.offloadedLayers`).
    public init(path: String, vocabularyOnly: Bool = false, nativeTokenizer: Bool = true, offloadedLayers: Int = 0) throws(LlamaError) {
        try Self.checkFile(path)
        LlamaBackend.start()
        var params = llama_model_default_params()
        params.n_gpu_layers = Int32(clamping: max(0, offloadedLayers))
        // No repacked weights: for some types (Q4_0, Q4_K, IQ4_NL: Qwen2.5's Q4_K_M, not
        // SmolLM2's Q4_1) the CPU backend repacks the weights at load and multiplies a batch's
        // rows in blocks with one kernel and the rows left over with another, so a token's
        // arithmetic would depend on where it sits in its batch, and the speed-ups would change
        // answers (`LlamaEngine`: the engine's answers must not depend on the batch).
        params.use_extra_bufts = false
        params.vocab_only = vocabularyOnly
        guard let model = llama_model_load_from_file(path, params) else {
            throw .modelFailedToLoad(path: path)
        }
        guard let vocab = llama_model_get_vocab(model) else {
            llama_model_free(model)
            throw .modelFailedToLoad(path: path)
        }
        self.pointer = model
        self.vocab = vocab
        self.path = path
        native = nativeTokenizer ? NativeTokenizerSlot() : NativeTokenizerSlot(.init(tokenizer: nil, unavailable: "turned off"))
        let framing = Self.template(of: model).flatMap { try? ChatFraming(template: $0, modelPath: path) }
        self.framing = framing
        self.framingTokens = framing.map { framing in
            [Self.tokenize(framing.parts[0], vocab: vocab, addSpecial: true, special: true),
             Self.tokenize(framing.parts[1], vocab: vocab, addSpecial: false, special: true),
             Self.tokenize(framing.parts[2], vocab: vocab, addSpecial: false, special: true)]
        } ?? [[], [], []]
    }

    /// The native tokenizer of this model's vocabulary, or why there is none.
    private func buildNativeTokenizer() -> NativeTokenizerSlot.Built {
        guard let vocabulary = ByteLevelBPE.Vocabulary(model: self) else {
            return .init(tokenizer: nil, unavailable: "the model file's merges could not be read")
        }
        do {
            return .init(tokenizer: try ByteLevelBPE(vocabulary: vocabulary), unavailable: nil)
        } catch {
            return .init(tokenizer: nil, unavailable: error.reason)
        }
    }

    private static func template(of model: OpaquePointer) -> String? {
        llama_model_chat_template(model, nil).map { String(cString: $0) }
    }

    deinit { llama_model_free(pointer) }

    /// Checks that the file at `path` is a model the engine could answer with, from its metadata
    /// alone: GGUF, an architecture, a vocabulary and a chat template the framing can split. A dry
    /// run asks nothing and sizes in the phone's tokens, so it needs to know only this, and
    /// loading even the vocabulary would cost it more than its planning (the file is still the
    /// one a run would load: its digest and size are the report's).
    public static func check(path: String) throws(LlamaError) {
        try checkFile(path)
        guard let file = GGUFFile(path: path) else { throw .modelFailedToLoad(path: path) }
        guard file.string("general.architecture") != nil, file.has("tokenizer.ggml.tokens") else {
            throw .modelHasNoVocabulary(path: path)
        }
        guard let template = file.string("tokenizer.chat_template") else { throw .modelHasNoChatTemplate(path: path) }
        _ = try ChatFraming(template: template, modelPath: path)
    }

    private static func checkFile(_ path: String) throws(LlamaError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw .modelFileUnreadable(path: path, reason: reason)
        }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        guard magic == Data("GGUF".utf8) else { throw .notAGGUFFile(path: path) }
    }

    /// A metadata value of the model, such as "general.name".
    func metadata(_ key: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = llama_model_meta_val_str(pointer, key, &buffer, buffer.count)
        guard length >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// llama.cpp's one-line description of the model.
    var summary: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = llama_model_desc(pointer, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, Int(length))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var parameterCount: UInt64 { llama_model_n_params(pointer) }


    // MARK: Tokens

    /// Tokenizes `text`. `special` parses control-token syntax such as `<|im_start|>`: only for
    /// the chat template's own framing, never for a thread's words, so words cannot forge turns.
    /// Plain words go through the native tokenizer when there is one (the same ids, proven by
    /// ByteLevelBPETests), everything else through `llama_tokenize`.
    func tokenize(_ text: String, addSpecial: Bool = false, special: Bool = false) -> [Int32] {
        if !addSpecial, !special, let nativeTokenizer { return nativeTokenizer.tokens(of: text) }
        return Self.tokenize(text, vocab: vocab, addSpecial: addSpecial, special: special)
    }

    /// Tokenizes `text` with `llama_tokenize` whatever else is available: the reference the
    /// native tokenizer is proven against.
    func llamaTokenize(_ text: String, addSpecial: Bool = false, special: Bool = false) -> [Int32] {
        Self.tokenize(text, vocab: vocab, addSpecial: addSpecial, special: special)
    }

    private static func tokenize(_ text: String, vocab: OpaquePointer, addSpecial: Bool, special: Bool) -> [Int32] {
        var utf8 = Array(text.utf8)
        if utf8.isEmpty && !addSpecial { return [] }
        var tokens = [Int32](repeating: 0, count: utf8.count + 8)
        var count = llama_tokenize(vocab, &utf8, Int32(utf8.count), &tokens, Int32(tokens.count), addSpecial, special)
        if count < 0 {
            tokens = [Int32](repeating: 0, count: Int(-count))
            count = llama_tokenize(vocab, &utf8, Int32(utf8.count), &tokens, Int32(tokens.count), addSpecial, special)
        }
        return Array(tokens.prefix(max(0, Int(count))))
    }

    /// The bytes a token stands for (control tokens render as nothing).
    func piece(_ token: Int32) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 64)
        var length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        if length < 0 {
            buffer = [CChar](repeating: 0, count: Int(-length))
            length = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        }
        return buffer.prefix(max(0, Int(length))).map { UInt8(bitPattern: $0) }
    }

    /// The tokens of a job's instructions, from the cache when seen before (at most 256 kept).
    func instructionTokens(_ instructions: SealedText) -> [Int32] {
        if let known = instructionCache.withLock({ $0[instructions] }) { return known }
        let tokens = instructions.withUnsealedText { tokenize($0) }
        instructionCache.withLock { cache in
            if cache.count >= 256 { cache.removeAll() }
            cache[instructions] = tokens
        }
        return tokens
    }

    func isEndOfGeneration(_ token: Int32) -> Bool { llama_vocab_is_eog(vocab, token) }

    /// The vocabulary by first byte, for asking a grammar about a few tokens instead of all of
    /// them; nil when some first byte has no token of its own (byte-level BPE vocabularies, such
    /// as SmolLM2's, have all 256).
    lazy var byteIndex: ByteIndex? = ByteIndex(model: self)

    /// Grammars match text a character at a time, so a grammar allows a token only if it allows
    /// the token's first byte alone: asking about one token per first byte tells which tokens
    /// can be allowed at all.
    struct ByteIndex {
        /// Per first byte that starts any token: a token whose text is that byte alone.
        let firstByteTokens: [Int32]
        /// The byte each of `firstByteTokens` stands for.
        let firstBytes: [UInt8]
        /// Per byte: the tokens whose text starts with it, in id order.
        let tokensStartingWith: [[Int32]]
        /// Tokens that end generation (a grammar allows them only when it is complete).
        let endTokens: [Int32]

        init?(model: LlamaModel) {
            var single = [Int32?](repeating: nil, count: 256)
            var starting = [[Int32]](repeating: [], count: 256)
            var ends: [Int32] = []
            for token in 0..<Int32(model.vocabularySize) {
                if model.isEndOfGeneration(token) { ends.append(token); continue }
                let bytes = model.piece(token)
                guard let first = bytes.first else { continue }   // control tokens: never allowed
                starting[Int(first)].append(token)
                if bytes.count == 1 && single[Int(first)] == nil { single[Int(first)] = token }
            }
            var tokens: [Int32] = []
            var bytes: [UInt8] = []
            for byte in 0..<256 where !starting[byte].isEmpty {
                guard let token = single[byte] else { return nil }
                tokens.append(token)
                bytes.append(UInt8(byte))
            }
            firstByteTokens = tokens
            firstBytes = bytes
            tokensStartingWith = starting
            endTokens = ends
        }
    }

    /// A token that ends generation (end of turn, else end of text), or nil when the vocabulary has none.
    var endToken: Int32? {
        for token in [llama_vocab_eot(vocab), llama_vocab_eos(vocab)] where token >= 0 && isEndOfGeneration(token) {
            return token
        }
        return nil
    }

    var vocabularySize: Int { Int(llama_vocab_n_tokens(vocab)) }

    public func tokenCount(of text: SealedText) -> Int {
        text.withUnsealedText { nativeTokenizer?.count(of: $0) ?? tokenize($0).count }
    }

    public func tokenCount(joining parts: [SealedText], separator: String, knownCounts: [Int?]) -> Int {
        guard let nativeTokenizer else { return tokenCount(of: SealedText.joined(parts, separator: separator)) }
        return nativeTokenizer.tokenCount(joining: parts, separator: separator, knownCounts: knownCounts)
    }

    public func promptTokenCount(for request: GenerationRequest) -> Int {
        promptTokens(for: request).count
    }

    public func promptTokenCount(for request: GenerationRequest, promptParts parts: [SealedText], separator: String,
                                 knownCounts: [Int?]) -> Int {
        guard framing != nil, let nativeTokenizer else { return promptTokenCount(for: request) }
        let framingCount = framingTokens.reduce(0) { $0 + $1.count }
        return framingCount + instructionTokens(request.instructions).count
            + nativeTokenizer.tokenCount(joining: parts, separator: separator, knownCounts: knownCounts)
    }

    /// The tokens of a whole request: framing parsed for control tokens, words not. Without a
    /// template (never the case for an engine, which refuses such models) the words alone.
    func promptTokens(for request: GenerationRequest) -> [Int32] {
        guard let framing else {
            return SealedText.joined([request.instructions, request.prompt], separator: "\n").withUnsealedText { tokenize($0) }
        }
        return framing.tokens(instructions: request.instructions, prompt: request.prompt, model: self)
    }

    /// The tokens of a whole request, and how many of them are its framing and instructions (0
    /// without a template): the part requests of the same job and language share.
    func promptTokensAndInstructionPrefix(for request: GenerationRequest) -> (tokens: [Int32], prefix: Int) {
        guard let framing else { return (promptTokens(for: request), 0) }
        return framing.tokensAndInstructionPrefix(instructions: request.instructions, prompt: request.prompt, model: self)
    }

    /// HMAC-SHA-256 under `key` of the request's token ids (little-endian 32-bit each, after the
    /// domain `replay.bench-digest/1` and a NUL): the same digest means the model sees the same
    /// tokens. Keyed, never the tokens (which would spell the words) nor a plain digest (which
    /// would confirm a guessed prompt to anyone who reads it).
    public func promptDigest(for request: GenerationRequest, key: RunKey) -> String {
        var hasher = key.mac(Self.benchDigestDomain)
        for token in promptTokens(for: request) {
            let value = UInt32(bitPattern: token)
            hasher.update([UInt8(value & 0xff), UInt8((value >> 8) & 0xff), UInt8((value >> 16) & 0xff), UInt8(value >> 24)])
        }
        return hasher.finalizeHex()
    }

    /// The domain of the benchmark's keyed digests (`bench/peer_llama_cpp_python.py` uses it too).
    public static let benchDigestDomain = "replay.bench-digest/1"

    /// Whether decoding `bytes` can give a U+FFFD: they start inside a character, or hold one (EF BF BD).
    static func mayHoldReplacement(_ bytes: [UInt8]) -> Bool {
        guard let first = bytes.first else { return false }
        if first & 0xC0 == 0x80 { return true }
        return bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 2 < bytes.count {
                if bytes[index] == 0xEF, bytes[index + 1] == 0xBF, bytes[index + 2] == 0xBD { return true }
                index += 1
            }
            return false
        }
    }

    public func suffix(of text: SealedText, maxTokens: Int) -> TokenCut {
        text.withUnsealedText { words in
            let tail: TailTokens
            if let nativeTokenizer {
                // The native tokenizer's tokens cover the text's bytes, each at least one: a text
                // of no more bytes than `maxTokens` is never cut, and only its count is needed.
                if words.utf8.count <= maxTokens {
                    let count = nativeTokenizer.count(of: words)
                    return TokenCut(text: text, keptTokens: count, wasCut: false, textTokens: count)
                }
                // A long text's kept tokens come from its tail: the start it drops is not tokenized.
                tail = nativeTokenizer.lastTokens(of: words, maxTokens: maxTokens)
            } else {
                let all = tokenize(words)
                let kept = Array(all.suffix(maxTokens)), wasCut = all.count > maxTokens
                tail = TailTokens(tokens: kept, wasCut: wasCut, bytes: wasCut ? kept.flatMap { piece($0) } : [])
            }
            guard tail.wasCut else {
                return TokenCut(text: text, keptTokens: tail.tokens.count, wasCut: false, textTokens: tail.tokens.count)
            }
            let bytes = tail.bytes
            // A cut can fall inside a multi-byte character: drop a broken lead rather than
            // produce invalid UTF-8. Without a broken lead or a U+FFFD in the bytes there is
            // nothing to drop, and Foundation's search (slow, and cluster-aware, so kept as the
            // rule when there is something) is skipped, and the kept text is the kept tokens'
            // bytes, whose count the native tokenizer may know.
            let decoded = String(decoding: bytes, as: UTF8.self)
            guard Self.mayHoldReplacement(bytes) else {
                return TokenCut(text: SealedText(decoded), keptTokens: maxTokens, wasCut: true, textTokens: tail.keptTextTokens)
            }
            return TokenCut(text: SealedText(decoded.replacingOccurrences(of: "\u{FFFD}", with: "")), keptTokens: maxTokens,
                            wasCut: true)
        }
    }
}
