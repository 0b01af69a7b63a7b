/// The BPE merges of a large vocabulary keyed by token-id pair: ids and ranks of up to 18 bits.
///
/// `BPEMergeTable` packs ids and ranks in 16 bits each, which SmolLM2's 49,152 tokens fit and
/// Qwen2.5's 151,936 do not. Here a slot is still 8 bytes: the pair (`left << 18 | right`, 36
/// bits) and the merge's rank (18 bits above it); the merged token is read from a second array,
/// by rank, only when the pair is merged, not for every pair looked at. Built once, read-only
/// after, so threads share it safely.
struct WideBPEMergeTable: Sendable {
    /// The largest id and rank a table can hold.
    static let limit = (1 << 18) - 2

    /// The slots (`empty`, or rank << 36 | key) and, by rank, the token each merge makes.
    final class Storage: @unchecked Sendable {
        let slots: UnsafeMutablePointer<UInt64>
        let slotCount: Int
        let tokens: UnsafeMutablePointer<Int32>
        init(slotCount: Int, tokenCount: Int) {
            self.slotCount = slotCount
            slots = .allocate(capacity: slotCount)
            slots.initialize(repeating: WideBPEMergeTable.empty, count: slotCount)
            tokens = .allocate(capacity: max(1, tokenCount))
            tokens.initialize(repeating: -1, count: max(1, tokenCount))
        }
        deinit {
            slots.deallocate()
            tokens.deallocate()
        }
    }

    private let storage: Storage
    private let shift: UInt64
    fileprivate static let empty = UInt64.max
    fileprivate static let keyMask: UInt64 = (1 << 36) - 1

    /// The number of merges held.
    let count: Int

    /// A table of `merges` in rank order: (left, right, merged); entries with a negative id hold
    /// a rank but no merge. When a pair occurs twice the first (lower) rank wins, as llama.cpp's
    /// `bpe_ranks.emplace` keeps the first. Nil when an id or a rank exceeds `limit`.
    init?(merges: [(left: Int32, right: Int32, merged: Int32)]) {
        guard merges.count <= Self.limit,
              merges.allSatisfy({ $0.left <= Self.limit && $0.right <= Self.limit && $0.merged <= Self.limit }) else { return nil }
        var capacity = 16
        while capacity < merges.count * 2 { capacity *= 2 }
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        storage = Storage(slotCount: capacity, tokenCount: merges.count)
        let table = storage.slots
        var stored = 0
        for (rank, merge) in merges.enumerated() where merge.left >= 0 && merge.right >= 0 && merge.merged >= 0 {
            let key = Self.key(merge.left, merge.right)
            var slot = Self.slot(key, shift)
            while table[slot] != Self.empty && table[slot] & Self.keyMask != key { slot = (slot + 1) & (capacity - 1) }
            guard table[slot] == Self.empty else { continue }
            table[slot] = UInt64(rank) << 36 | key
            storage.tokens[rank] = merge.merged
            stored += 1
        }
        count = stored
    }

    @inline(__always)
    fileprivate static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: left)) << 18 | UInt64(UInt32(truncatingIfNeeded: right))
    }

    @inline(__always)
    fileprivate static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// A view for hot loops: no reference counting per probe. Valid while the table lives.
    var lookup: Lookup { Lookup(slots: storage.slots, tokens: storage.tokens, mask: storage.slotCount - 1, shift: shift) }

    /// Probes the table through its raw buffers.
    struct Lookup: MergeLookup {
        let slots: UnsafePointer<UInt64>
        let tokens: UnsafePointer<Int32>
        let mask: Int
        let shift: UInt64

        /// The merge's rank, or `UInt32.max`.
        @inline(__always)
        func rankedMerge(_ left: Int32, _ right: Int32) -> UInt32 {
            let key = WideBPEMergeTable.key(left, right)
            var slot = WideBPEMergeTable.slot(key, shift)
            while true {
                let found = slots[slot]
                if found & WideBPEMergeTable.keyMask == key { return UInt32(truncatingIfNeeded: found >> 36) }
                if found == WideBPEMergeTable.empty { return .max }
                slot = (slot + 1) & mask
            }
        }

        @inline(__always)
        func token(_ merge: UInt32) -> Int32 { tokens[Int(merge)] }
    }
}
