import Foundation

extension LlamaEngine {
    /// How the engine evaluates. Each speed-up can be turned off, and a test shows the answers do
    /// not change with any of them: the engine's arithmetic for a token never depends on which
    /// other tokens share its evaluation (`LlamaEngine`). `legacy` is the engine before all this.
    public struct Options: Sendable, Equatable {
        /// The KV cache's element type.
        public enum CacheType: String, Sendable, CaseIterable {
            case f16
            case q8_0
        }

        /// Evaluate the part a request shares with an earlier one (the chat framing and the job's
        /// instructions, per job and language; further when prompts agree further, as a group's
        /// member list does for routing) once, keep its keys and values, and put them in each new
        /// sequence, so a request evaluates only its own words.
        public var prefixCache: Bool
        /// Append the tokens every output of the grammar started with so far (the opening the
        /// grammar fixes, `{"replies":["`) together with the prompt, keeping each only while it is
        /// greedy decoding's own pick at its place; end a sequence without evaluating its last
        /// token when the grammar allows nothing but the end. Token for token the same answer.
        public var forcedTokenJump: Bool
        /// Give a finished sequence's place to the next request at once, instead of waiting for
        /// the whole round of `sequences` requests to finish.
        public var continuousBatching: Bool
        /// Prompt tokens of one sequence per evaluation, 4 to 63: at 64 llama.cpp's attention
        /// switches to a tiled kernel whose rounding depends on the batch (see `LlamaEngine`).
        public var chunkTokens: Int
        /// Threads for evaluation; nil means one per active processor.
        public var threads: Int?
        /// The KV cache's element type: f16 (the default) or q8_0, which halves the cache but
        /// rounds keys and values, so answers can differ from f16's.
        public var cacheType: CacheType
        /// The engine before batch-independent evaluation: rounds of `sequences` requests whose
        /// prompts and tokens are mixed into 2,048-token evaluations. Its answers depend on which
        /// requests share a round (llama.cpp picks kernels by the shape of each evaluation); the
        /// other options do not apply. For comparison only.
        public var legacy: Bool

        public init(prefixCache: Bool = true, forcedTokenJump: Bool = true, continuousBatching: Bool = true,
                    chunkTokens: Int = 63, threads: Int? = nil, cacheType: CacheType = .f16, legacy: Bool = false) {
            precondition((4...63).contains(chunkTokens), "chunks of 4 to 63 tokens keep attention's arithmetic batch-independent")
            self.prefixCache = prefixCache
            self.forcedTokenJump = forcedTokenJump
            self.continuousBatching = continuousBatching
            self.chunkTokens = chunkTokens
            self.threads = threads
            self.cacheType = cacheType
            self.legacy = legacy
        }

        /// Every speed-up on, with the settings measured best on the reference machine.
        public static let standard = Options()

        /// Batch-independent evaluation with every speed-up off: one request's prompt after the
        /// other's, rounds of `sequences`, every token sampled. The reference the tests hold the
        /// speed-ups to.
        public static let plain = Options(prefixCache: false, forcedTokenJump: false, continuousBatching: false)

        /// The engine before issue 11 (see `legacy`).
        public static let legacyEngine = Options(prefixCache: false, forcedTokenJump: false, continuousBatching: false, legacy: true)

        /// Options from `key=value` pairs separated by commas, over `standard` (or over `plain` or
        /// `legacy` when the list starts with that word): `prefix`, `jump`, `continuous` (on/off),
        /// `chunk`, `threads` (numbers), `cache` (f16/q8_0). For benchmarks and tests; nil when a
        /// pair is not understood.
        public init?(parsing text: String) {
            var options = Options.standard
            for (index, item) in text.split(separator: ",").enumerated() {
                let pair = item.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
                if index == 0 && pair.count == 1, let preset = ["standard": Options.standard, "plain": .plain, "legacy": .legacyEngine][pair[0]] {
                    options = preset
                    continue
                }
                guard pair.count == 2 else { return nil }
                let (key, value) = (pair[0], pair[1])
                let flag: Bool? = value == "on" ? true : value == "off" ? false : nil
                let number = Int(value)
                switch key {
                case "prefix": guard let flag else { return nil }; options.prefixCache = flag
                case "jump": guard let flag else { return nil }; options.forcedTokenJump = flag
                case "continuous": guard let flag else { return nil }; options.continuousBatching = flag
                case "chunk": guard let number, (4...63).contains(number) else { return nil }; options.chunkTokens = number
                case "threads": guard let number, number > 0 else { return nil }; options.threads = number
                case "cache": guard let type = CacheType(rawValue: value) else { return nil }; options.cacheType = type
                default: return nil
                }
            }
            self = options
        }

        /// The options as `init(parsing:)` reads them, for a benchmark's log.
        public var summary: String {
            func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
            if legacy { return "legacy" + (threads.map { ",threads=\($0)" } ?? "") }
            var parts = ["prefix=\(onOff(prefixCache))", "jump=\(onOff(forcedTokenJump))",
                         "continuous=\(onOff(continuousBatching))", "chunk=\(chunkTokens)"]
            if let threads { parts.append("threads=\(threads)") }
            parts.append("cache=\(cacheType.rawValue)")
            return parts.joined(separator: ",")
        }
    }
}
