/// Token texts to ids, as llama.cpp's `token_to_id` holds them (a text seen twice keeps the later
/// id), for building the native tokenizer.
///
/// The build looks up three texts per merge rule (its halves and their join): 450,000 lookups
/// for Qwen2.5. A dictionary keyed by byte arrays made an array per lookup and hashed it a byte
/// at a time; here the texts sit in one buffer, a lookup hashes slices of the rule in place, and
/// a text that is two slices (a merge's result) is looked up without joining them.
struct TokenTextIndex {
    /// Every text, one after another; text `id` is `texts[starts[id]..<starts[id + 1]]`.
    private var texts: [UInt8] = []
    private var starts: [Int] = [0]
    /// Per slot the text's hash (upper half) and its id + 1 (lower half); 0 when empty.
    private var slots: [UInt64]
    private let shift: UInt64

    /// The index of `tokens` (text `i` is token `i`).
    init(_ tokens: [[UInt8]]) {
        var capacity = 16
        while capacity < tokens.count * 2 { capacity *= 2 }
        slots = [UInt64](repeating: 0, count: capacity)
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        texts.reserveCapacity(tokens.reduce(0) { $0 + $1.count })
        starts.reserveCapacity(tokens.count + 1)
        for text in tokens {
            texts += text
            starts.append(texts.count)
        }
        for (id, text) in tokens.enumerated() { insert(text[...], id: id) }
    }

    /// The id of the text `first` followed by `second`, or nil when no token has it.
    func id(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8> = []) -> Int32? {
        let hash = Self.hash(first, second)
        var slot = self.slot(hash)
        while true {
            let found = slots[slot]
            if found == 0 { return nil }
            let id = Int(found & 0xFFFF_FFFF) - 1
            if found >> 32 == UInt64(hash), text(id, equals: first, second) { return Int32(id) }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// Adds `text` as token `id`, replacing an earlier token of the same text.
    private mutating func insert(_ text: ArraySlice<UInt8>, id: Int) {
        let hash = Self.hash(text, [])
        var slot = self.slot(hash)
        while slots[slot] != 0 {
            let other = Int(slots[slot] & 0xFFFF_FFFF) - 1
            if slots[slot] >> 32 == UInt64(hash), self.text(other, equals: text, []) { break }
            slot = (slot + 1) & (slots.count - 1)
        }
        slots[slot] = UInt64(hash) << 32 | UInt64(id + 1)
    }

    private func text(_ id: Int, equals first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
        let start = starts[id], end = starts[id + 1]
        guard end - start == first.count + second.count else { return false }
        return texts[start..<(start + first.count)].elementsEqual(first) && texts[(start + first.count)..<end].elementsEqual(second)
    }

    @inline(__always)
    private func slot(_ hash: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(hash) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// FNV-1a over `first` then `second`.
    private static func hash(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in first { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        for byte in second { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}
