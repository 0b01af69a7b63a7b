/// The BPE merges of a vocabulary keyed by token-id pair: rank and merged token in one probe.
///
/// llama.cpp looks merges up by a pair of strings, built afresh for every candidate pair; keyed
/// by ids, a lookup is one multiply and (nearly always) one compare, and allocates nothing.
/// Open addressing over power-of-two arrays; built once, read-only after.
struct BPEMergeTable: Sendable {
    /// `left << 32 | right` per slot, or `empty`.
    private let keys: [UInt64]
    /// `rank << 32 | merged` per slot, as `Merge.packed`.
    private let values: [UInt64]
    private let shift: UInt64
    private static let empty = UInt64.max

    /// A pair's merge, packed so that comparing two packed values compares ranks first.
    struct Merge {
        /// `rank << 32 | merged token`; `none` when the pair has no merge.
        var packed: UInt64
        static let none = Merge(packed: .max)
        var exists: Bool { packed != .max }
        var token: Int32 { Int32(truncatingIfNeeded: packed & 0xFFFF_FFFF) }
        var rank: Int { Int(packed >> 32) }
    }

    /// The number of merges held.
    let count: Int

    /// A table of `merges` in rank order: (left, right, merged); entries with a negative id hold
    /// a rank but no merge. When a pair occurs twice the first (lower) rank wins, as llama.cpp's
    /// `bpe_ranks.emplace` keeps the first.
    init(merges: [(left: Int32, right: Int32, merged: Int32)]) {
        var capacity = 16
        while capacity < merges.count * 2 { capacity *= 2 }
        var bits: UInt64 = 0
        while (1 << bits) < capacity { bits += 1 }
        shift = 64 - bits
        var keys = [UInt64](repeating: Self.empty, count: capacity)
        var values = [UInt64](repeating: Self.empty, count: capacity)
        var stored = 0
        for (rank, merge) in merges.enumerated() where merge.left >= 0 && merge.right >= 0 && merge.merged >= 0 {
            let key = UInt64(UInt32(bitPattern: merge.left)) << 32 | UInt64(UInt32(bitPattern: merge.right))
            var slot = Int((key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while keys[slot] != Self.empty && keys[slot] != key { slot = (slot + 1) & (capacity - 1) }
            guard keys[slot] == Self.empty else { continue }
            keys[slot] = key
            values[slot] = UInt64(rank) << 32 | UInt64(UInt32(bitPattern: merge.merged))
            stored += 1
        }
        self.keys = keys
        self.values = values
        self.count = stored
    }

    /// The merge of `left` followed by `right`, or `.none`.
    @inline(__always)
    func merge(_ left: Int32, _ right: Int32) -> Merge {
        let key = UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
        return keys.withUnsafeBufferPointer { keys in
            let mask = keys.count - 1
            var slot = Int((key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while true {
                let found = keys[slot]
                if found == key { return Merge(packed: values.withUnsafeBufferPointer { $0[slot] }) }
                if found == Self.empty { return .none }
                slot = (slot + 1) & mask
            }
        }
    }
}
