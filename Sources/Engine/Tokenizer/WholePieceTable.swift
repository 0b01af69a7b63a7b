import Foundation

/// The pieces that BPE turns into one token whole, found by their bytes: one probe instead of merging.
///
/// Built from the vocabulary alone: for each token, BPE is run over exactly the token's bytes,
/// and the bytes go in only when that gives back the token itself. A piece with those bytes
/// then has that one token as its BPE result by construction, so the shortcut is exact; it is
/// not a cache of anything read, only of the vocabulary. Most words of a language the
/// vocabulary was trained on (" the", " hello") are such pieces.
struct WholePieceTable: Sendable {
    /// Pieces of up to 7 bytes (most words) are keyed by the bytes themselves, so a lookup reads
    /// one slot and nothing else: at `2 * slot` the key (`shortKey`, 0 when empty), after it the token.
    private let shortSlots: [UInt64]
    private let shortShift: UInt64
    /// Longer pieces: per slot the FNV-1a hash of the bytes (upper half) and the token (lower
    /// half), or `empty`; a hit is confirmed against the token's bytes.
    private let slots: [UInt64]
    private let shift: UInt64
    private static let empty = UInt64.max
    /// Pieces longer than this are not looked up (few tokens are longer).
    static let maxLength = 24
    /// The longest piece keyed by its bytes.
    static let maxShortLength = 7

    /// A table that holds nothing.
    static let none = WholePieceTable(shortSlots: [0, 0], shortShift: 64, slots: [empty], shift: 64)

    private init(shortSlots: [UInt64], shortShift: UInt64, slots: [UInt64], shift: UInt64) {
        self.shortSlots = shortSlots
        self.shortShift = shortShift
        self.slots = slots
        self.shift = shift
    }

    /// The bytes of a piece of 1 to 7 bytes packed little-endian, its length in the top byte.
    @inline(__always)
    static func shortKey(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var key = UInt64(end - start) << 56
        var index = start, shift: UInt64 = 0
        while index < end {
            key |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        return key
    }

    /// The table of `tokens` (each with its bytes) that `mergesToItself` accepts.
    init(pieces: (Int32) -> ArraySlice<UInt8>, count: Int32, mergesToItself: (Int32, ArraySlice<UInt8>) -> Bool) {
        var accepted: [(hash: UInt32, token: Int32)] = []
        var short: [(key: UInt64, token: Int32)] = []
        for token in 0..<count {
            let bytes = pieces(token)
            guard bytes.count >= 2, bytes.count <= Self.maxLength, mergesToItself(token, bytes) else { continue }
            if bytes.count <= Self.maxShortLength {
                short.append((bytes.withUnsafeBufferPointer { Self.shortKey($0, 0, $0.count) }, token))
            } else {
                accepted.append((bytes.withUnsafeBufferPointer { Self.hash($0, 0, $0.count) }, token))
            }
        }
        var shortCapacity = 16
        while shortCapacity < short.count * 2 { shortCapacity *= 2 }
        shortShift = UInt64(64 - shortCapacity.trailingZeroBitCount)
        var shortSlots = [UInt64](repeating: 0, count: 2 * shortCapacity)
        for (key, token) in short {
            var slot = Self.slot(key, shortShift)
            while shortSlots[2 * slot] != 0 { slot = (slot + 1) & (shortCapacity - 1) }
            shortSlots[2 * slot] = key
            shortSlots[2 * slot + 1] = UInt64(UInt32(bitPattern: token))
        }
        self.shortSlots = shortSlots
        var capacity = 16
        while capacity < accepted.count * 2 { capacity *= 2 }
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        var slots = [UInt64](repeating: Self.empty, count: capacity)
        for (hash, token) in accepted {
            var slot = Self.slot(hash, shift)
            while slots[slot] != Self.empty { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = UInt64(hash) << 32 | UInt64(UInt32(bitPattern: token))
        }
        self.slots = slots
    }

    /// The number of pieces held.
    var count: Int {
        slots.reduce(0) { $0 + ($1 == Self.empty ? 0 : 1) } + stride(from: 0, to: shortSlots.count, by: 2).reduce(0) { $0 + (shortSlots[$1] == 0 ? 0 : 1) }
    }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        var index = start
        while index < end {
            hash = (hash ^ UInt32(bytes[index])) &* 0x0100_0193
            index += 1
        }
        return hash
    }

    @inline(__always)
    private static func slot(_ hash: UInt32, _ shift: UInt64) -> Int {
        slot(UInt64(hash), shift)
    }

    @inline(__always)
    private static func slot(_ key: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Calls `body` with a view for hot loops.
    @inline(__always)
    func withLookup<R>(_ body: (Lookup) -> R) -> R {
        slots.withUnsafeBufferPointer { slots in
            shortSlots.withUnsafeBufferPointer { short in
                body(Lookup(slots: slots, shift: shift, shortSlots: short, shortShift: shortShift))
            }
        }
    }

    struct Lookup {
        let slots: UnsafeBufferPointer<UInt64>
        let shift: UInt64
        let shortSlots: UnsafeBufferPointer<UInt64>
        let shortShift: UInt64

        /// The token that `bytes[start..<end]` is whole, or nil; `tokenBytes(token)` must give
        /// each token's bytes, to tell it from a piece that only shares the hash.
        @inline(__always)
        func token(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                   _ tokenBytes: (Int32) -> UnsafeBufferPointer<UInt8>) -> Int32? {
            if end - start <= WholePieceTable.maxShortLength {
                let key = WholePieceTable.shortKey(bytes, start, end)
                let mask = shortSlots.count / 2 - 1
                var slot = WholePieceTable.slot(key, shortShift)
                while true {
                    let found = shortSlots[2 * slot]
                    if found == key { return Int32(truncatingIfNeeded: shortSlots[2 * slot + 1]) }
                    if found == 0 { return nil }
                    slot = (slot + 1) & mask
                }
            }
            let hash = WholePieceTable.hash(bytes, start, end)
            let mask = slots.count - 1
            var slot = WholePieceTable.slot(hash, shift)
            while true {
                let found = slots[slot]
                if found == WholePieceTable.empty { return nil }
                if UInt32(truncatingIfNeeded: found >> 32) == hash {
                    let token = Int32(truncatingIfNeeded: found & 0xFFFF_FFFF)
                    let candidate = tokenBytes(token)
                    if candidate.count == end - start, memcmp(candidate.baseAddress!, bytes.baseAddress! + start, end - start) == 0 {
                        return token
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
