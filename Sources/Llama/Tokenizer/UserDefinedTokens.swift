import Foundation

/// The tokens llama.cpp finds in plain words before it splits them: user-defined tokens (Qwen2.5's
/// `<tool_call>` and `</tool_call>`), and how it cuts a text around them.
///
/// `llama_tokenize` with parse_special false still runs `tokenizer_st_partition` over the text
/// with every user-defined token that is not also a control or unknown token (control tokens
/// such as `<|im_start|>` stay plain words, so words cannot forge turns). It takes the tokens
/// longest first; for each, every fragment of text not yet taken is searched from its start,
/// each match becoming that token and the text on either side fragments of their own; then
/// each fragment of text is pre-tokenized and merged alone. This does the same on bytes.
/// Built only when no token strips the spaces beside it and the order of two tokens of one
/// length cannot matter (`init` returns nil otherwise): llama.cpp's sort leaves their order open.
struct UserDefinedTokens: Sendable {
    /// A token's text and id.
    struct Token: Sendable {
        var bytes: [UInt8]
        var id: Int32
    }

    /// The tokens in the order llama.cpp searches for them: longest first.
    let tokens: [Token]
    /// Bit `b` set when some token starts with byte `b`: a text with none of these bytes holds
    /// no token. A value, not an array, so looking costs no reference counting on a shared buffer.
    private let startsAToken: (UInt64, UInt64, UInt64, UInt64)
    /// The byte every token starts with, when they share one (Qwen2.5's `<`): found with memchr.
    private let sharedFirstByte: UInt8?

    /// Why llama.cpp would cut words around `tokens` otherwise than this does, or nil.
    static func unsupportedReason(_ tokens: [Token], stripSpaces: Bool) -> String? {
        if stripSpaces { return "a user-defined token strips the spaces beside it" }
        if tokens.contains(where: { $0.bytes.isEmpty }) { return "a user-defined token has no text" }
        for (index, one) in tokens.enumerated() {
            for other in tokens[(index + 1)...] where other.bytes.count == one.bytes.count {
                if one.bytes == other.bytes || Self.mayOverlap(one.bytes, other.bytes) || Self.mayOverlap(other.bytes, one.bytes) {
                    return "two user-defined tokens of one length may overlap, and llama.cpp's order for them is open"
                }
            }
        }
        return nil
    }

    /// Whether some proper suffix of `first` is a prefix of `second` (an occurrence of each could overlap).
    private static func mayOverlap(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        for length in 1..<max(1, min(first.count, second.count)) where first.suffix(length).elementsEqual(second.prefix(length)) {
            return true
        }
        return false
    }

    /// The tokens, searched longest first; nil when there are none (or `unsupportedReason` has one).
    init?(_ tokens: [Token], stripSpaces: Bool = false) {
        guard !tokens.isEmpty, Self.unsupportedReason(tokens, stripSpaces: stripSpaces) == nil else { return nil }
        self.tokens = tokens.enumerated().sorted { a, b in
            a.element.bytes.count != b.element.bytes.count ? a.element.bytes.count > b.element.bytes.count : a.offset < b.offset
        }.map(\.element)
        var starts: [UInt64] = [0, 0, 0, 0]
        for token in tokens { starts[Int(token.bytes[0]) >> 6] |= 1 << UInt64(token.bytes[0] & 63) }
        startsAToken = (starts[0], starts[1], starts[2], starts[3])
        let firsts = Set(tokens.map { $0.bytes[0] })
        sharedFirstByte = firsts.count == 1 ? firsts.first : nil
    }

    /// Whether any token occurs in `bytes`: when none does, the text is one fragment of words.
    func occurs(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        if let first = sharedFirstByte {
            var at = 0
            while at < bytes.count, let found = memchr(base + at, Int32(first), bytes.count - at) {
                let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if tokens.contains(where: { Self.matches($0.bytes, bytes, at: offset, end: bytes.count) }) { return true }
                at = offset + 1
            }
            return false
        }
        for offset in 0..<bytes.count where startsAToken(bytes[offset]) {
            if tokens.contains(where: { Self.matches($0.bytes, bytes, at: offset, end: bytes.count) }) { return true }
        }
        return false
    }

    @inline(__always)
    private func startsAToken(_ byte: UInt8) -> Bool {
        let word: UInt64
        switch byte >> 6 {
        case 0: word = startsAToken.0
        case 1: word = startsAToken.1
        case 2: word = startsAToken.2
        default: word = startsAToken.3
        }
        return word >> UInt64(byte & 63) & 1 != 0
    }

    /// A part of a text once the tokens are found: words (a byte range) or a token.
    enum Fragment: Equatable {
        case words(Range<Int>)
        case token(Int32)
    }

    /// The fragments llama.cpp's `tokenizer_st_partition` cuts `bytes` into, in order.
    func fragments(of bytes: UnsafeBufferPointer<UInt8>) -> [Fragment] {
        var fragments: [Fragment] = bytes.isEmpty ? [] : [.words(0..<bytes.count)]
        for token in tokens {
            var next: [Fragment] = []
            next.reserveCapacity(fragments.count + 2)
            for fragment in fragments {
                guard case .words(let range) = fragment else {
                    next.append(fragment)
                    continue
                }
                var start = range.lowerBound
                while let match = Self.firstMatch(token.bytes, bytes, from: start, end: range.upperBound) {
                    if match > start { next.append(.words(start..<match)) }
                    next.append(.token(token.id))
                    start = match + token.bytes.count
                }
                if start < range.upperBound { next.append(.words(start..<range.upperBound)) }
            }
            fragments = next
        }
        return fragments
    }

    /// Where `token` first occurs in `bytes[from..<end]`, or nil.
    private static func firstMatch(_ token: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        var at = from
        while at + token.count <= end {
            if matches(token, bytes, at: at, end: end) { return at }
            at += 1
        }
        return nil
    }

    @inline(__always)
    private static func matches(_ token: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int) -> Bool {
        guard offset + token.count <= end else { return false }
        return token.withUnsafeBufferPointer { token in memcmp(token.baseAddress!, bytes.baseAddress! + offset, token.count) == 0 }
    }
}
