import Glibc
import Privacy

/// Random secrets for one audit: the canary planted in prompts and the salt of output fingerprints.
///
/// Read from the kernel (/dev/urandom), never from a seeded generator, so no two runs share them
/// and the child cannot predict them.
public enum AuditSecret {
    /// `count` random bytes from /dev/urandom; nil only if it cannot be read (then no audit).
    public static func bytes(_ count: Int) -> [UInt8]? {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + filled, count - filled)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { return nil }
            filled += result
        }
        return bytes
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of lowercase or uppercase hex; nil when `text` is not hex of whole bytes.
    public static func bytes(fromHex text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0, !characters.isEmpty else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
