import Foundation

extension LlamaEngine {
    /// How the engine evaluates. Each speed-up can be turned off, and a test shows the answers do
    /// not change with any of them: the engine's arithmetic for a token never depends on which
    /// other tokens share its evaluation (`LlamaEngine`).
    public struct Options: Sendable, Equatable {
        /// How attention is computed.
        public enum Attention: String, Sendable, CaseIterable {
            /// llama.cpp's flash attention: a row at a time below 64 rows, tiled from 64, so a
            /// sequence's chunks must stay under 64 tokens for its answers not to depend on them.
            case flash
            /// Matrix products and a softmax (flash attention off): the same arithmetic for a
            /// token however many rows share the evaluation, so prompts go in large chunks.
            case matmul
        }

        /// Evaluate the part a request shares with an earlier one (the chat framing and the job's
        /// instructions, per job and language; further when prompts agree further, as a group's
        /// member list does for routing) once, keep its keys and values, and put them in each new
        /// sequence, so a request evaluates only its own words.
        public var prefixCache: Bool
        /// Append the tokens every output of the grammar started with so far (the opening the
        /// grammar fixes, `{"replies":["`) together with the prompt, keeping each only while it is
        /// greedy decoding's own pick at its place; end a sequence without evaluating its last
        /// token when the grammar allows nothing but the end. Token for token the same answer with
        /// flash attention only: with matrix-product attention a token evaluated among the
        /// prompt's rows takes another kernel than the same token generated alone in its sequence.
        public var forcedTokenJump: Bool
        /// Give a finished sequence's place to the next request at once, instead of waiting for
        /// the whole round of `sequences` requests to finish.
        public var continuousBatching: Bool
        /// In a pool, a lane left alone with work at a call's end evaluates on every lane's threads
        /// while that is faster than its own thread, judged evaluation by evaluation
        /// (`CoreLending`).
        public var lendsIdleCores: Bool
        /// Prompt tokens of one sequence per evaluation: 4 to 63 with flash attention (at 64 it
        /// switches to a tiled kernel whose rounding depends on the batch, see `LlamaEngine`), 4 to
        /// `maximumChunk` with matrix-product attention.
        public var chunkTokens: Int
        /// How attention is computed.
        public var attention: Attention
        /// Threads for evaluation; nil means one per active processor.
        public var threads: Int?
        /// The model's layers whose weights and work go to a GPU (llama.cpp's `n_gpu_layers`), for
        /// a libllama built with one (CUDA): 0 keeps everything on the processors. A build without
        /// a GPU backend has no device to offload to and runs every layer on the processors
        /// whatever this says. docs/performance.md says what changes on a GPU.
        public var offloadedLayers: Int

        /// The largest chunk: one evaluation's batch.
        public static let maximumChunk = 512

        /// The chunk sizes `attention` keeps batch-independent.
        public static func chunkRange(_ attention: Attention) -> ClosedRange<Int> {
            attention == .flash ? 4...63 : 4...maximumChunk
        }

        public init(prefixCache: Bool = true, forcedTokenJump: Bool = false, continuousBatching: Bool = true,
                    lendsIdleCores: Bool = true, chunkTokens: Int = maximumChunk, threads: Int? = nil,
                    attention: Attention = .matmul, offloadedLayers: Int = 0) {
            precondition(Self.chunkRange(attention).contains(chunkTokens),
                         "chunks of 4 to 63 tokens keep flash attention's arithmetic batch-independent")
            precondition(!forcedTokenJump || attention == .flash, "the forced-token jump is exact with flash attention only")
            self.prefixCache = prefixCache
            self.forcedTokenJump = forcedTokenJump
            self.continuousBatching = continuousBatching
            self.lendsIdleCores = lendsIdleCores
            self.chunkTokens = chunkTokens
            self.threads = threads
            self.attention = attention
            self.offloadedLayers = max(0, offloadedLayers)
        }

        /// The shipped settings: matrix-product attention, llama.cpp's own default, so answers
        /// are the ones a user's llama.cpp script gets (every answer of the model benchmark equal
        /// to llama-cpp-python's, where flash attention matched 33 of 50 chips answers), prompts
        /// in whole-batch chunks of 512 tokens, the prefix cache and continuous batching; not the
        /// jump, which would change answers with this attention. As fast as `flash` on a quiet
        /// two-core machine (chips over 30 threads of the sample: 24.8 s against 24.6 s).
        public static let standard = Options()

        /// Every speed-up that is exact with flash attention, the jump included.
        public static let flash = Options(forcedTokenJump: true, chunkTokens: 63, attention: .flash)

        /// Batch-independent evaluation with every speed-up off: one request's prompt after the
        /// other's, rounds of `sequences`, every token sampled. The reference the tests hold the
        /// speed-ups to (`attention=flash` after it for the flash engine's).
        public static let plain = Options(prefixCache: false, forcedTokenJump: false, continuousBatching: false, lendsIdleCores: false)
    }
}
