import Foundation
import Privacy
import Spawn

/// Looks for the canary and for model outputs in bytes a run wrote, and says where, never what.
///
/// **The canary** (32 random hex digits) is searched in every form a program could turn it into
/// on its way out: as it is, in either case, and each half of it on its own (64 random bits
/// each, so a half cannot occur by chance); as hex of its characters; UTF-16 LE and BE; JSON
/// `\u` escapes; percent-encoding; and base64 and base64url at each of the three alignments a
/// byte string can start at. All but base64 are matched without regard to case. A zstd or gzip
/// file is also scanned decompressed (`zstd -dc`, `gzip -dc`, up to `decompressedLimit` bytes).
///
/// **Outputs** are recognised by their salted fingerprints (`OutputFingerprint`). A finding names
/// the file or stream, the first line and byte offset and how many places matched: the matching
/// text itself is never kept.
public struct LeakScanner: Sendable {
    /// Needles compared byte for byte, after folding ASCII letters to lower case.
    let foldedNeedles: [[UInt8]]
    /// Needles compared exactly (base64).
    let exactNeedles: [[UInt8]]
    let fingerprint: OutputFingerprint
    let digests: Set<UInt64>

    /// The most bytes of a compressed file's decompressed contents scanned.
    static let decompressedLimit = 64 << 20

    public init(canary: String, fingerprint: OutputFingerprint, digests: Set<UInt64>) {
        let text = Array(canary.lowercased().utf8)
        var folded: [[UInt8]] = [text]
        if text.count >= 32 {
            folded.append(Array(text[..<(text.count / 2)]))
            folded.append(Array(text[(text.count / 2)...]))
        }
        folded.append(Array(text.map { Self.hexPair($0) }.joined()))
        folded.append(Array(text.map { [$0, 0] }.joined()))
        folded.append(Array(text.map { [0, $0] }.joined()))
        folded.append(Array(text.map { Array("\\u00".utf8) + Self.hexPair($0) }.joined()))
        folded.append(Array(text.map { [UInt8(ascii: "%")] + Self.hexPair($0) }.joined()))
        var exact: [[UInt8]] = []
        for variant in [text, Array(canary.uppercased().utf8)] {
            for alignment in 0..<3 {
                let stable = Self.base64Stable(variant, alignment: alignment)
                exact.append(stable)
                exact.append(stable.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 })
            }
        }
        foldedNeedles = folded
        exactNeedles = exact
        self.fingerprint = fingerprint
        self.digests = digests
    }

    /// Where in some bytes the canary or an output was found.
    public struct Hits: Sendable, Equatable {
        public var canary: [Int] = []
        public var outputs: [Int] = []
        public var isEmpty: Bool { canary.isEmpty && outputs.isEmpty }
    }

    /// Byte offsets of canary and output matches in `bytes`.
    public func hits(in bytes: [UInt8]) -> Hits {
        var hits = Hits()
        var found: Set<Int> = []
        let folded = bytes.map(Self.fold)
        for needle in foldedNeedles { Self.search(needle, in: folded, into: &found) }
        for needle in exactNeedles { Self.search(needle, in: bytes, into: &found) }
        // A whole canary and its halves found at one place count once.
        let width = foldedNeedles.first?.count ?? 1
        for offset in found.sorted() where hits.canary.last.map({ offset >= $0 + width }) ?? true {
            hits.canary.append(offset)
        }
        if !digests.isEmpty {
            hits.outputs = fingerprint.matches(in: String(decoding: bytes, as: UTF8.self), digests: digests).map(\.offset)
        }
        return hits
    }

    /// Findings for the bytes written to `location` (a path, or `stdout`/`stderr`); `what` says
    /// what the bytes were when they are not the file's contents ("the name of an entry").
    /// `canaryOnly`: look for the canary alone (in files other programs may have written too).
    public func findings(in bytes: [UInt8], location: String, what: String? = nil, canaryOnly: Bool = false) -> [AuditFinding] {
        var findings = judge(bytes, location: location, what: what, canaryOnly: canaryOnly)
        if what == nil, let decompressed = Self.decompressed(bytes) {
            findings += judge(decompressed.bytes, location: location, what: "the \(decompressed.format)-decompressed contents",
                              canaryOnly: canaryOnly)
        }
        return findings
    }

    func judge(_ bytes: [UInt8], location: String, what: String?, canaryOnly: Bool) -> [AuditFinding] {
        var hits = hits(in: bytes)
        if canaryOnly { hits.outputs = [] }
        var findings: [AuditFinding] = []
        let place = what.map { "\($0) of \(location)" } ?? location
        func detail(_ offsets: [Int]) -> String {
            let first = offsets[0]
            let count = "\(offsets.count) place\(offsets.count == 1 ? "" : "s")"
            return what == nil || what!.hasSuffix("contents") ? "\(count), first at line \(Self.line(of: first, in: bytes)), byte \(first)" : count
        }
        if let first = hits.canary.first {
            findings.append(AuditFinding(
                rule: .canaryInOutput,
                message: "The canary planted in the prompts was written to \(place) (\(detail(hits.canary))).",
                location: location, line: what == nil ? Self.line(of: first, in: bytes) : nil, byteOffset: what == nil ? first : nil,
                occurrences: hits.canary.count))
        }
        if let first = hits.outputs.first {
            findings.append(AuditFinding(
                rule: .modelOutputInOutput,
                message: "Words of a model output were written to \(place) (\(detail(hits.outputs))).",
                location: location, line: what == nil ? Self.line(of: first, in: bytes) : nil, byteOffset: what == nil ? first : nil,
                occurrences: hits.outputs.count))
        }
        return findings
    }

    /// Adds every offset where `needle` starts in `bytes`.
    static func search(_ needle: [UInt8], in bytes: [UInt8], into found: inout Set<Int>) {
        guard let first = needle.first, needle.count <= bytes.count else { return }
        let last = bytes.count - needle.count
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { pattern in
                var at = 0
                while at <= last {
                    if haystack[at] == first {
                        var index = 1
                        while index < pattern.count, haystack[at + index] == pattern[index] { index += 1 }
                        if index == pattern.count { found.insert(at) }
                    }
                    at += 1
                }
            }
        }
    }

    static func fold(_ byte: UInt8) -> UInt8 { (0x41...0x5a).contains(byte) ? byte | 0x20 : byte }

    static func hexPair(_ byte: UInt8) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
    }

    /// The base64 characters that depend on `bytes` alone when they start `alignment` bytes into
    /// an encoded string: what any encoding of a text holding them contains at that alignment.
    static func base64Stable(_ bytes: [UInt8], alignment: Int) -> [UInt8] {
        let encoded = Array(Data([UInt8](repeating: 0, count: alignment) + bytes).base64EncodedString().utf8)
        let firstBit = alignment * 8, endBit = (alignment + bytes.count) * 8
        let first = (firstBit + 5) / 6, end = endBit / 6
        return first < end ? Array(encoded[first..<end]) : []
    }

    /// The contents of a zstd or gzip file, decompressed by the system's tool, or nil.
    static func decompressed(_ bytes: [UInt8]) -> (format: String, bytes: [UInt8])? {
        let format: String
        if bytes.starts(with: [0x28, 0xb5, 0x2f, 0xfd]) { format = "zstd" }
        else if bytes.starts(with: [0x1f, 0x8b]) { format = "gzip" }
        else { return nil }
        let tool = ["/usr/bin/" + format, "/bin/" + format].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let tool else { return (format, []) }
        // The bytes are written as the tool reads and its output read at once, so neither pipe
        // can fill against the other; a tool that stops reading early (a corrupt file some other
        // program left in /tmp) fails this one scan: the write fails, nothing is killed by SIGPIPE.
        let ended = try? ChildProcess.run(tool, ["-dc"], input: .bytes(Data(bytes)), errors: .null,
                                          outputLimit: decompressedLimit)
        // The output stops at the limit (the tool is killed there).
        return (format, [UInt8](ended?.standardOutput ?? Data()))
    }

    /// The 1-based line of a byte offset.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0a { line += 1 }
        return line
    }
}
