import Foundation
import Llama

/// The engine's options as `replay-bench model --engine` reads and logs them (bench/model.sh),
/// and as the engine's tests name the variants they compare: `key=value` pairs over a preset.
/// Not part of `replay`, which runs `LlamaEngine.Options.standard` always.
extension LlamaEngine.Options {
    /// Options from `key=value` pairs separated by commas, over `standard` (or over `flash` or
    /// `plain` when the list starts with that word): `prefix`, `jump`, `continuous`, `lend`
    /// (on/off), `chunk`, `threads`, `gpu-layers` (numbers), `attention` (flash/matmul).
    /// For benchmarks and tests; nil when a pair is not understood, or the options would not
    /// be exact (a chunk over 63 with flash attention, or the jump without it). Choosing flash
    /// attention without a chunk caps the chunk at 63.
    public init?(parsing text: String) {
        var options = Self.standard
        var chunkGiven = false
        for (index, item) in text.split(separator: ",").enumerated() {
            let pair = item.split(separator: "=", maxSplits: 1).map { String($0).trimmingCharacters(in: .whitespaces) }
            if index == 0 && pair.count == 1,
               let preset = ["standard": Self.standard, "flash": .flash, "plain": .plain][pair[0]] {
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
            case "lend": guard let flag else { return nil }; options.lendsIdleCores = flag
            case "chunk":
                guard let number, (4...Self.maximumChunk).contains(number) else { return nil }
                options.chunkTokens = number
                chunkGiven = true
            case "attention": guard let kind = Attention(rawValue: value) else { return nil }; options.attention = kind
            case "threads": guard let number, number > 0 else { return nil }; options.threads = number
            case "gpu-layers": guard let number, number >= 0 else { return nil }; options.offloadedLayers = number
            default: return nil
            }
        }
        if !chunkGiven && options.attention == .flash { options.chunkTokens = min(options.chunkTokens, 63) }
        guard Self.chunkRange(options.attention).contains(options.chunkTokens),
              !options.forcedTokenJump || options.attention == .flash else { return nil }
        self = options
    }

    /// The options as `init(parsing:)` reads them, for a benchmark's log.
    public var summary: String {
        func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
        var parts = ["prefix=\(onOff(prefixCache))", "jump=\(onOff(forcedTokenJump))",
                     "continuous=\(onOff(continuousBatching))", "lend=\(onOff(lendsIdleCores))",
                     "chunk=\(chunkTokens)"]
        if let threads { parts.append("threads=\(threads)") }
        parts.append("attention=\(attention.rawValue)")
        if offloadedLayers > 0 { parts.append("gpu-layers=\(offloadedLayers)") }
        return parts.joined(separator: ",")
    }
}
