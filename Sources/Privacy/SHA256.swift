import CSHA256

/// SHA-256 (FIPS 180-4), streaming: identifies corpus and model files (every byte of a corpus,
/// `CorpusIdentity`), and hashes in audit reports.
///
/// Written here because Foundation on Linux has no CryptoKit and the package may not depend on
/// swift-crypto; it is checked against the standard test vectors (FIPS 180-4's examples and
/// NIST's SHAVS messages). Whole blocks are compressed straight from the caller's buffer, with the
/// state in locals and the message schedule on the stack: a corpus is hashed at hundreds of MB/s,
/// so identifying it costs a small part of reading it. On a processor with the x86 SHA extensions
/// the blocks are compressed by them instead (`CSHA256`), several times faster; both ways are
/// checked against the same vectors.
public struct SHA256: Sendable {
    private var h0: UInt32 = 0x6a09e667, h1: UInt32 = 0xbb67ae85, h2: UInt32 = 0x3c6ef372, h3: UInt32 = 0xa54ff53a
    private var h4: UInt32 = 0x510e527f, h5: UInt32 = 0x9b05688c, h6: UInt32 = 0x1f83d9ab, h7: UInt32 = 0x5be0cd19
    /// The bytes of a block not yet complete (fewer than 64).
    private var pending: [UInt8] = []
    /// Bytes fed in all.
    private var length: UInt64 = 0
    /// Whether blocks go to the SHA extensions (tests turn it off to check the Swift rounds).
    var usesHardware = SHA256.hardwareAvailable

    /// Whether this processor has the SHA extensions.
    static let hardwareAvailable = csha256_hardware() != 0

    /// The round constants (FIPS 180-4 §4.2.2), one table for both compressions: C's, read-only.
    private nonisolated(unsafe) static let k = UnsafeBufferPointer(start: csha256_round_constants(), count: 64)

    public init() {}

    /// Feeds more bytes.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let fed: Void? = bytes.withContiguousStorageIfAvailable { self.update(UnsafeRawBufferPointer($0)) }
        if fed == nil { Array(bytes).withUnsafeBytes { self.update($0) } }
    }

    /// Feeds a buffer, compressing whole blocks straight from it.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard !buffer.isEmpty else { return }
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            offset = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<offset])
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (buffer.count - offset) / 64 * 64
        if whole > 0 { compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + whole])) }
        if offset + whole < buffer.count { pending.append(contentsOf: buffer[(offset + whole)...]) }
    }

    /// The digest as lowercase hex.
    public mutating func finalizeHex() -> String {
        finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The digest's 32 bytes.
    public mutating func finalize() -> [UInt8] {
        // The padding (0x80, zeros, the bit length) in one or two blocks on the stack: a keyed
        // item hash finalizes a few short messages per item, hundreds of thousands a run.
        let bitLength = length &* 8
        let blocks = pending.count < 56 ? 1 : 2
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            pending.withUnsafeBytes { tail.copyMemory(from: $0) }
            tail[pending.count] = 0x80
            tail.storeBytes(of: bitLength.bigEndian, toByteOffset: blocks * 64 - 8, as: UInt64.self)
            compress(UnsafeRawBufferPointer(rebasing: tail[0..<blocks * 64]))
        }
        pending.removeAll()
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBytes { out in
            for (index, word) in [h0, h1, h2, h3, h4, h5, h6, h7].enumerated() {
                out.storeBytes(of: word.bigEndian, toByteOffset: 4 * index, as: UInt32.self)
            }
        }
        return digest
    }

    /// The hex digest of `bytes`.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// Compresses `blocks` (a whole number of 64-byte blocks) into the state.
    private mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        if usesHardware {
            var state = (h0, h1, h2, h3, h4, h5, h6, h7)
            withUnsafeMutableBytes(of: &state) { words in
                csha256_compress(words.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                 blocks.baseAddress!.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
            }
            (h0, h1, h2, h3, h4, h5, h6, h7) = state
            return
        }
        do {
            let k = Self.k
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var a0 = h0, b0 = h1, c0 = h2, d0 = h3, e0 = h4, f0 = h5, g0 = h6, h00 = h7
                var start = 0
                while start + 64 <= blocks.count {
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let x = w[i - 15], y = w[i - 2]
                        let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
                        let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = h00
                    // Eight rounds a turn, the letters rotating through the arguments instead of
                    // being shifted along: the compiler keeps all eight in registers.
                    for i in stride(from: 0, to: 64, by: 8) {
                        Self.round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
                        Self.round(h, a, b, &c, d, e, f, &g, k[i + 1] &+ w[i + 1])
                        Self.round(g, h, a, &b, c, d, e, &f, k[i + 2] &+ w[i + 2])
                        Self.round(f, g, h, &a, b, c, d, &e, k[i + 3] &+ w[i + 3])
                        Self.round(e, f, g, &h, a, b, c, &d, k[i + 4] &+ w[i + 4])
                        Self.round(d, e, f, &g, h, a, b, &c, k[i + 5] &+ w[i + 5])
                        Self.round(c, d, e, &f, g, h, a, &b, k[i + 6] &+ w[i + 6])
                        Self.round(b, c, d, &e, f, g, h, &a, k[i + 7] &+ w[i + 7])
                    }
                    a0 &+= a; b0 &+= b; c0 &+= c; d0 &+= d
                    e0 &+= e; f0 &+= f; g0 &+= g; h00 &+= h
                    start += 64
                }
                h0 = a0; h1 = b0; h2 = c0; h3 = d0; h4 = e0; h5 = f0; h6 = g0; h7 = h00
            }
        }
    }
}

extension SHA256 {
    /// One round of FIPS 180-4's 6.2.2 step 3 with the letters renamed: `d` becomes the new `e`,
    /// `h` the new `a`; `kw` is the round's constant plus its schedule word.
    @inline(__always)
    fileprivate static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                                  _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
        d &+= t1
        h = t1 &+ t2
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}
