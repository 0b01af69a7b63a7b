/// The BPE merges of a vocabulary keyed by token-id pair: rank and merged token in one probe.
///
/// llama.cpp looks merges up by a pair of strings, built afresh for every candidate pair; keyed
/// by ids, a lookup is one multiply and (nearly always) one compare, and allocates nothing.
/// Ids and ranks take 16 bits each, so a slot is 8 bytes and the table (twice as many slots
/// as merges, open addressing) stays in a core's L2 cache: a probe that misses the cache costs
/// more than the rest of a merge step. Built once, read-only after, so threads share it safely.
struct BPEMergeTable: Sendable {
    /// A pair's merge, packed so that comparing two packed values compares ranks first.
    struct Merge {
        /// `rank << 16 | merged token`; `none` when the pair has no merge.
        var packed: UInt32
        static let none = Merge(packed: .max)
        var exists: Bool { packed != .max }
        var token: Int32 { Int32(packed & 0xFFFF) }
        var rank: Int { Int(packed >> 16) }
    }

    /// The largest id and rank a table can hold (the next value marks empty slots).
    static let limit = 0xFFFE

    /// The slots: the low half `left << 16 | right` (or `empty`), the high half `Merge.packed`.
    final class Slots: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<UInt64>
        let count: Int
        init(count: Int) {
            self.count = count
            pointer = .allocate(capacity: count)
            pointer.initialize(repeating: UInt64(BPEMergeTable.empty), count: count)
        }
        deinit { pointer.deallocate() }
    }

    private let slots: Slots
    private let shift: UInt32
    fileprivate static let empty = UInt32.max

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
        shift = UInt32(32 - capacity.trailingZeroBitCount)
        slots = Slots(count: capacity)
        let table = slots.pointer
        var stored = 0
        for (rank, merge) in merges.enumerated() where merge.left >= 0 && merge.right >= 0 && merge.merged >= 0 {
            let key = Self.key(merge.left, merge.right)
            var slot = Self.slot(key, shift)
            while UInt32(truncatingIfNeeded: table[slot]) != Self.empty && UInt32(truncatingIfNeeded: table[slot]) != key {
                slot = (slot + 1) & (capacity - 1)
            }
            guard UInt32(truncatingIfNeeded: table[slot]) == Self.empty else { continue }
            table[slot] = UInt64(UInt32(rank) << 16 | UInt32(merge.merged)) << 32 | UInt64(key)
            stored += 1
        }
        count = stored
    }

    @inline(__always)
    fileprivate static func key(_ left: Int32, _ right: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: left) << 16 | UInt32(truncatingIfNeeded: right) & 0xFFFF
    }

    @inline(__always)
    fileprivate static func slot(_ key: UInt32, _ shift: UInt32) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> shift)
    }

    /// The merge of `left` followed by `right`, or `.none`.
    func merge(_ left: Int32, _ right: Int32) -> Merge {
        withExtendedLifetime(slots) { lookup.merge(left, right) }
    }

    /// A view for hot loops: no reference counting per probe. Valid while the table lives.
    var lookup: Lookup { Lookup(slots: slots.pointer, mask: slots.count - 1, shift: shift) }

    /// Probes the table through its raw buffer.
    struct Lookup {
        let slots: UnsafePointer<UInt64>
        let mask: Int
        let shift: UInt32

        @inline(__always)
        func merge(_ left: Int32, _ right: Int32) -> Merge {
            let key = BPEMergeTable.key(left, right)
            var slot = BPEMergeTable.slot(key, shift)
            while true {
                let found = slots[slot]
                let foundKey = UInt32(truncatingIfNeeded: found)
                if foundKey == key { return Merge(packed: UInt32(truncatingIfNeeded: found >> 32)) }
                if foundKey == BPEMergeTable.empty { return .none }
                slot = (slot + 1) & mask
            }
        }
    }
}
