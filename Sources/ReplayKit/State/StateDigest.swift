import Privacy

/// The digest a state file carries of its own content: `"digest": "hmac-sha256:<64 hex>"`, the
/// last key, after `"complete": true`.
///
/// It is the HMAC-SHA-256 under the run key (domain `replay.state-digest/1`) of the exact bytes
/// of the file without that key: the text up to and including `"complete": true`, then a newline,
/// `}` and a newline, as `RunState.unsealedJSON()` writes it. Keyed, never a plain SHA-256: a
/// plain digest of a state would let whoever can read it confirm guesses at its counts, and let
/// whoever can write it change a count and write the matching digest. With the key only the run's
/// processes can write a digest that checks, so a state changed by one digit, or copied from a
/// run under another key, is told from the state as written. A checkpoint names its item
/// segments by their SHA-256, so its digest keys the whole chain.
package enum StateDigest {
    static let domain = "replay.state-digest/1"
    package static let prefix = "hmac-sha256:"
    /// How the unsealed text ends, and what replaces its last `}`.
    static let unsealedEnd = "\n}\n"
    static let keyOpening = ",\n  \"digest\": \"" + prefix

    /// The hex HMAC of `text`'s bytes under `key`.
    static func digest(of text: String, key: RunKey) -> String {
        var mac = key.mac(domain)
        mac.update(Array(text.utf8))
        return mac.finalizeHex()
    }

    /// `unsealed` (a state's text ending in `"complete": true`, a newline, `}`, a newline) with its digest as the last key.
    static func seal(_ unsealed: String, key: RunKey) -> String {
        precondition(unsealed.hasSuffix(unsealedEnd), "a state's text ends with its closing brace and a newline")
        return String(unsealed.dropLast(unsealedEnd.count)) + keyOpening + digest(of: unsealed, key: key) + "\"" + unsealedEnd
    }

    /// The text `sealed` was sealed over, and the digest it carries; nil when it ends otherwise than `seal` writes.
    static func split(_ sealed: String) -> (unsealed: String, digest: String)? {
        let bytes = Array(sealed.utf8)
        let tail = Array(keyOpening.utf8), end = Array(unsealedEnd.utf8)
        let length = tail.count + 64 + 1 + end.count
        guard bytes.count > length else { return nil }
        let start = bytes.count - length
        guard Array(bytes[start..<start + tail.count]) == tail, Array(bytes.suffix(end.count)) == end,
              bytes[bytes.count - end.count - 1] == UInt8(ascii: "\"") else { return nil }
        let hex = bytes[(start + tail.count)..<(start + tail.count + 64)]
        guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return (String(decoding: bytes[..<start], as: UTF8.self) + unsealedEnd, String(decoding: hex, as: UTF8.self))
    }

    /// Whether two hex digests are equal, in time that does not depend on where they differ.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
