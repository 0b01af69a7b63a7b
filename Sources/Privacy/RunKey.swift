/// The run key: 32 random bytes that the processes of one run share (its shards, a resumed
/// process, the merge's inputs) and that a reader of the reports does not hold.
///
/// Every digest a run writes of its corpus, and the salt of its labels, is an HMAC-SHA-256 under
/// this key: an unsalted digest of a corpus would confirm a guessed corpus, and a salt drawn from
/// the corpus alone would be known to whoever guessed it. With the key, only its holder can
/// compute or check either. Each use is apart from the others by a domain string fed first, so
/// no written digest gives another. The key's bytes have no description, mirror or encoding: it
/// cannot be printed or written by mistake; `check` is what a state carries to tell keys apart.
public struct RunKey: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// Its bytes; only this module and the HMACs read them.
    let bytes: [UInt8]

    /// Key bytes of a key file.
    public static let length = 32

    /// A key of exactly 32 bytes; nil otherwise.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        self.bytes = bytes
    }

    /// The key in a key file's contents: 32 raw bytes, or 64 hex digits with an optional final
    /// newline. Nil for anything else (the caller names the file).
    public init?(fileContents contents: [UInt8]) {
        if contents.count == Self.length {
            self.bytes = contents
            return
        }
        var text = contents
        if text.last == 0x0a { text.removeLast() }
        guard text.count == 2 * Self.length else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: text.count, by: 2) {
            guard let high = Self.nibble(text[index]), let low = Self.nibble(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    /// An HMAC under this key that has been fed `domain` and a NUL, ready for the bytes it keys.
    public func mac(_ domain: String) -> HMACSHA256 {
        var mac = HMACSHA256(key: bytes)
        mac.update(Array(domain.utf8) + [0])
        return mac
    }

    /// A check value of the key (HMAC of a fixed domain), written into a run's state so a merge
    /// or resume can refuse states of another key: equal keys give equal checks, and the check
    /// gives nothing of the key.
    public var check: String {
        var mac = mac("replay.run-key-check/1")
        return mac.finalizeHex()
    }

    /// The label salt of a corpus whose identifying bytes (`material`, fed to a MAC that began as
    /// `mac(LabelSalt.domain)`) were hashed under this key: 16 bytes, never written.
    public static func labelSalt(from material: HMACSHA256) -> LabelSalt {
        var mac = material
        return LabelSalt(bytes: Array(mac.finalize().prefix(16)))
    }

    public var description: String { "RunKey(32 bytes, not shown)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
