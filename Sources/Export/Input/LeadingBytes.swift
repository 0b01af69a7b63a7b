/// A file's first bytes, described by what they look like, never quoted.
///
/// A file refused for its format is named with the hex of at most its first four bytes and a
/// guess from well-known magic numbers (gzip, xz, bzip2, zip) or the shape of text (an HTML page,
/// JSON): enough to see that a download saved an error page or a gzip file under a `.zst` name,
/// and too little to carry a word of what the file holds.
public struct LeadingBytes: Sendable, Hashable, CustomStringConvertible {
    /// What the first bytes look like.
    public enum Kind: Sendable, Hashable {
        /// The file has no bytes at all.
        case empty
        /// gzip's magic, `1f 8b`.
        case gzip
        /// xz's magic, `fd 37 7a 58`.
        case xz
        /// bzip2's magic, `BZh`.
        case bzip2
        /// A zip archive, `PK\3\4`.
        case zip
        /// Text beginning with `<` (after blanks or a byte order mark): an HTML or XML page.
        case markup
        /// Text beginning with `{` or `[`: JSON, perhaps the plain JSON Lines themselves.
        case json
        /// Other printable text.
        case text
        /// None of these.
        case unknown
    }

    /// At most the first four bytes.
    public let bytes: [UInt8]

    /// Keeps at most the first four of `prefix`.
    public init(_ prefix: [UInt8]) {
        bytes = Array(prefix.prefix(4))
    }

    /// The best guess at what the file is, from its first bytes.
    public var kind: Kind {
        guard let first = bytes.first else { return .empty }
        if bytes.starts(with: [0x1F, 0x8B]) { return .gzip }
        if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58]) { return .xz }
        if bytes.starts(with: [0x42, 0x5A, 0x68]) { return .bzip2 }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        guard text.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            return .unknown
        }
        switch text.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
        case UInt8(ascii: "<"): return .markup
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        default: return first == 0 ? .unknown : .text
        }
    }

    /// The bytes in hex, such as `1f 8b 08 00`.
    public var hex: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }

    /// "is empty (0 bytes)", or "starts with 1f 8b 08 00, gzip's magic (a gzip file?)" and the like.
    public var description: String {
        let what: String
        switch kind {
        case .empty: return "is empty (0 bytes)"
        case .gzip: what = "gzip's magic (a gzip file?)"
        case .xz: what = "xz's magic (an xz file?)"
        case .bzip2: what = "bzip2's magic (a bzip2 file?)"
        case .zip: what = "a zip archive's magic (a zip file?)"
        case .markup: what = "text beginning with '<' (an HTML or XML page, such as an error page saved in its place?)"
        case .json: what = "text beginning with '{' or '[' (uncompressed JSON Lines? then name it .jsonl)"
        case .text: what = "text (not compressed)"
        case .unknown: what = "no format this reader knows"
        }
        return "starts with \(hex), \(what)"
    }
}
