/// The BPE merges of a vocabulary keyed by token-id pair: rank and merged token in one probe.
///
/// llama.cpp looks merges up by a pair of strings, built afresh for every candidate pair; keyed
/// by ids, a lookup is one multiply and (nearly always) one compare, and allocates nothing.
/// Open addressing over one power-of-two buffer of (key, value) slots, owned by `Slots`; built
/// once, read-only after, so sharing it across threads is safe.
struct BPEMergeTable: Sendable {
    /// A pair's merge, packed so that comparing two packed values compares ranks first.
    struct Merge {
        /// `rank << 32 | merged token`; `none` when the pair has no merge.
        var packed: UInt64
        static let none = Merge(packed: .max)
        var exists: Bool { packed != .max }
        var token: Int32 { Int32(truncatingIfNeeded: packed & 0xFFFF_FFFF) }
        var rank: Int { Int(packed >> 32) }
    }

    /// The slots: at `2 * slot` the key `left << 32 | right` (or `empty`), after it `Merge.packed`.
    final class Slots: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<UInt64>
        let count: Int
        init(count: Int) {
            self.count = count
            pointer = .allocate(capacity: 2 * count)
            pointer.initialize(repeating: BPEMergeTable.empty, count: 2 * count)
        }
        deinit { pointer.deallocate() }
    }

    private let slots: Slots
    private let shift: UInt64
    fileprivate static let empty = UInt64.max

    /// The number of merges held.
    let count: Int

    /// A table of `merges` in rank order: (left, right, merged); entries with a negative id hold
    /// a rank but no merge. When a pair occurs twice the first (lower) rank wins, as llama.cpp's
    /// `bpe_ranks.emplace` keeps the first.
    init(merges: [(left: Int32, right: Int32, merged: Int32)]) {
        var capacity = 16
        while capacity < merges.count * 2 { capacity *= 2 }
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        slots = Slots(count: capacity)
        let table = slots.pointer
        var stored = 0
        for (rank, merge) in merges.enumerated() where merge.left >= 0 && merge.right >= 0 && merge.merged >= 0 {
            let key = Self.key(merge.left, merge.right)
            var slot = Int((key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while table[2 * slot] != Self.empty && table[2 * slot] != key { slot = (slot + 1) & (capacity - 1) }
            guard table[2 * slot] == Self.empty else { continue }
            table[2 * slot] = key
            table[2 * slot + 1] = UInt64(rank) << 32 | UInt64(UInt32(bitPattern: merge.merged))
            stored += 1
        }
        count = stored
    }

    @inline(__always)
    private static func key(_ left: Int32, _ right: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: left)) << 32 | UInt64(UInt32(bitPattern: right))
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
        let shift: UInt64

        @inline(__always)
        func merge(_ left: Int32, _ right: Int32) -> Merge {
            let key = BPEMergeTable.key(left, right)
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while true {
                let found = slots[2 * slot]
                if found == key { return Merge(packed: slots[2 * slot + 1]) }
                if found == BPEMergeTable.empty { return .none }
                slot = (slot + 1) & mask
            }
        }
    }
}
