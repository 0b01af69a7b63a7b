import Foundation

/// The pieces that BPE turns into one token whole, found by their bytes: one probe instead of merging.
///
/// Built from the vocabulary alone: for each token, BPE is run over exactly the token's bytes,
/// and the bytes go in only when that gives back the token itself. A piece with those bytes
/// then has that one token as its BPE result by construction, so the shortcut is exact; it is
/// not a cache of anything read, only of the vocabulary. Most words of a language the
/// vocabulary was trained on (" the", " hello") are such pieces. Owns its two slot buffers.
final class WholePieceTable: @unchecked Sendable {
    /// Pieces of up to 7 bytes (most words) are keyed by the bytes themselves, so a lookup reads
    /// one slot and nothing else: at `2 * slot` the key (`shortKey`, 0 when empty), after it the token.
    private let shortSlots: UnsafeMutablePointer<UInt64>
    private let shortCapacity: Int
    /// Longer pieces: per slot the FNV-1a hash of the bytes (upper half) and the token (lower
    /// half), or `empty`; a hit is confirmed against the token's bytes.
    private let slots: UnsafeMutablePointer<UInt64>
    private let capacity: Int
    private static let empty = UInt64.max
    /// Pieces longer than this are not looked up (few tokens are longer).
    static let maxLength = 24
    /// The longest piece keyed by its bytes.
    static let maxShortLength = 7
    /// The number of pieces held.
    let count: Int

    /// A table that holds nothing.
    static let none = WholePieceTable(pieces: { _ in UnsafeBufferPointer(start: nil, count: 0) }, count: 0) { _, _ in false }

    /// The table of tokens `0..<count` (each with its bytes from `pieces`) that `mergesToItself` accepts.
    init(pieces: (Int32) -> UnsafeBufferPointer<UInt8>, count: Int32,
         mergesToItself: (Int32, UnsafeBufferPointer<UInt8>) -> Bool) {
        var long: [(hash: UInt32, token: Int32)] = []
        var short: [(key: UInt64, token: Int32)] = []
        for token in 0..<count {
            let bytes = pieces(token)
            guard bytes.count >= 2, bytes.count <= Self.maxLength, mergesToItself(token, bytes) else { continue }
            if bytes.count <= Self.maxShortLength {
                short.append((Self.shortKey(bytes, 0, bytes.count), token))
            } else {
                long.append((Self.hash(bytes, 0, bytes.count), token))
            }
        }
        self.count = short.count + long.count
        shortCapacity = Self.capacity(for: short.count)
        shortSlots = .allocate(capacity: 2 * shortCapacity)
        shortSlots.initialize(repeating: 0, count: 2 * shortCapacity)
        for (key, token) in short {
            var slot = Self.slot(key, shortCapacity)
            while shortSlots[2 * slot] != 0 { slot = (slot + 1) & (shortCapacity - 1) }
            shortSlots[2 * slot] = key
            shortSlots[2 * slot + 1] = UInt64(UInt32(bitPattern: token))
        }
        capacity = Self.capacity(for: long.count)
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Self.empty, count: capacity)
        for (hash, token) in long {
            var slot = Self.slot(UInt64(hash), capacity)
            while slots[slot] != Self.empty { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = UInt64(hash) << 32 | UInt64(UInt32(bitPattern: token))
        }
    }

    deinit {
        shortSlots.deallocate()
        slots.deallocate()
    }

    /// A power of two at least twice `count` (a hash table that is at most half full).
    private static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity < count * 2 { capacity *= 2 }
        return capacity
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

    /// FNV-1a over `bytes[start..<end]`.
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
    fileprivate static func slot(_ key: UInt64, _ capacity: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - capacity.trailingZeroBitCount))
    }

    /// A view for hot loops, valid while the table lives: no reference counting per probe.
    var lookup: Lookup {
        Lookup(shortSlots: shortSlots, shortCapacity: shortCapacity, slots: slots, capacity: capacity)
    }

    struct Lookup {
        let shortSlots: UnsafePointer<UInt64>
        let shortCapacity: Int
        let slots: UnsafePointer<UInt64>
        let capacity: Int

        /// The token that `bytes[start..<end]` is whole, or nil; `tokenBytes(token)` must give
        /// each token's bytes, to tell it from a piece that only shares the hash.
        @inline(__always)
        func token(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int,
                   _ tokenBytes: (Int32) -> UnsafeBufferPointer<UInt8>) -> Int32? {
            if end - start <= WholePieceTable.maxShortLength {
                let key = WholePieceTable.shortKey(bytes, start, end)
                var slot = WholePieceTable.slot(key, shortCapacity)
                while true {
                    let found = shortSlots[2 * slot]
                    if found == key { return Int32(truncatingIfNeeded: shortSlots[2 * slot + 1]) }
                    if found == 0 { return nil }
                    slot = (slot + 1) & (shortCapacity - 1)
                }
            }
            let hash = WholePieceTable.hash(bytes, start, end)
            var slot = WholePieceTable.slot(UInt64(hash), capacity)
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
                slot = (slot + 1) & (capacity - 1)
            }
        }
    }
}
