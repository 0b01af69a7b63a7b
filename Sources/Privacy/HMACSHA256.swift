/// HMAC-SHA-256 (RFC 2104, FIPS 198-1): a digest only the holder of a key can compute or check.
///
/// Every digest `replay` writes of a corpus, a text or an output is keyed with this, under the run
/// key (`RunKey`): an unsalted SHA-256 of a text would let anyone who can guess the text confirm
/// the guess against the report. Checked against RFC 4231's test cases.
public struct HMACSHA256: Sendable {
    private var inner = SHA256()
    /// The outer hash with its padded key already absorbed, so finalizing a short message costs
    /// two compressions, not three.
    private var outer = SHA256()

    /// Starts a digest under `key` (any length: a key longer than a block is hashed first).
    public init(key: [UInt8]) {
        var block = key.count > 64 ? Self.sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        outer.update(block.map { $0 ^ 0x5c })
        inner.update(block.map { $0 ^ 0x36 })
    }

    /// Feeds more bytes.
    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 { inner.update(bytes) }

    /// Feeds a buffer.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) { inner.update(buffer) }

    /// The 32 bytes of the digest.
    public mutating func finalize() -> [UInt8] {
        var outer = self.outer
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// The digest as lowercase hex.
    public mutating func finalizeHex() -> String { Self.hex(finalize()) }

    /// The hex HMAC of `bytes` under `key`.
    public static func hex<Bytes: Sequence>(key: [UInt8], _ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var mac = HMACSHA256(key: key)
        mac.update(bytes)
        return mac.finalizeHex()
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
