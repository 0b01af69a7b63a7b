/// One of llama.cpp's pre-tokenizers, done natively: the split of text into the pieces BPE merges
/// within, and the facts about that split which let a text's tokens be taken in parts (a tail,
/// joined parts) without changing them.
///
/// The tokenizer is specialized for each (`ByteLevelBPE.encode`): the split runs inside the
/// merging loop, as if written there.
protocol PreTokenizer {
    /// The scratch `split(_:scratch:piece:)` needs for `count` bytes.
    static func scratchBytes(for count: Int) -> Int

    /// Calls `piece` with each piece's byte range, in order; the pieces cover `bytes` exactly.
    /// `bytes` must be valid UTF-8 (every Swift `String` is); `scratch` holds
    /// `scratchBytes(for: bytes.count)` bytes, 4-aligned.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableRawPointer, piece: (Int, Int) -> Void)

    /// The first byte offset in `max(from, 1)..<end` where the split starts a piece of every
    /// text that ends with `bytes[offset...]` and of every text that starts with `bytes[..<offset]`,
    /// whatever the rest; nil when there is none.
    static func pieceStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int, before end: Int) -> Int?

    /// Whether parts joined by `separator` can have their tokens counted as the sum of the parts'
    /// own and the separator's, where `endsApart` and `startsApart` allow (`ByteLevelBPE.tokenCount(joining:)`).
    static func joinsBySum(separator: Unicode.Scalar) -> Bool

    /// Whether a part ending in `last`, followed by such a separator and anything after it, is
    /// split as it is alone: no piece crosses the seam, and nothing after it changes a piece before.
    static func endsApart(_ last: Unicode.Scalar) -> Bool

    /// Whether a part with these ends, after such a separator, is split as it is alone, the
    /// separator a piece of its own before it.
    static func startsApart(_ ends: ByteLevelBPE.Ends) -> Bool
}

/// The pre-tokenizers done natively, by their `tokenizer.ggml.pre` names.
enum PreTokenizerKind: String, Sendable, CaseIterable {
    case smollm
    case qwen2
}
