import Foundation
import Privacy

/// Looks for the canary and for model outputs in bytes a run wrote, and says where, never what.
///
/// The canary is searched as bytes, in lower and upper case, whole and by either half (64 random
/// bits each, so a half cannot occur by chance); outputs by their salted fingerprints
/// (`OutputFingerprint`). A finding names the file or stream, the first line and byte offset and
/// how many places matched: the matching text itself is never kept.
public struct LeakScanner: Sendable {
    let needles: [[UInt8]]
    let fingerprint: OutputFingerprint
    let digests: Set<UInt64>

    public init(canary: String, fingerprint: OutputFingerprint, digests: Set<UInt64>) {
        var needles: [[UInt8]] = []
        for variant in [canary.lowercased(), canary.uppercased()] {
            let bytes = Array(variant.utf8)
            needles.append(bytes)
            if bytes.count >= 32 {
                needles.append(Array(bytes[..<(bytes.count / 2)]))
                needles.append(Array(bytes[(bytes.count / 2)...]))
            }
        }
        self.needles = needles
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
        var canary: Set<Int> = []
        for needle in needles where !needle.isEmpty && needle.count <= bytes.count {
            let first = needle[0]
            var at = 0
            let last = bytes.count - needle.count
            while at <= last {
                if bytes[at] == first, bytes[at..<at + needle.count].elementsEqual(needle) { canary.insert(at) }
                at += 1
            }
        }
        // A whole canary and its halves found at one place count once.
        let width = needles.first?.count ?? 1
        for offset in canary.sorted() where hits.canary.last.map({ offset >= $0 + width }) ?? true {
            hits.canary.append(offset)
        }
        if !digests.isEmpty {
            hits.outputs = fingerprint.matches(in: String(decoding: bytes, as: UTF8.self), digests: digests).map(\.offset)
        }
        return hits
    }

    /// Findings for the bytes written to `location` (a path, or `stdout`/`stderr`).
    public func findings(in bytes: [UInt8], location: String) -> [AuditFinding] {
        let hits = hits(in: bytes)
        var findings: [AuditFinding] = []
        if let first = hits.canary.first {
            findings.append(AuditFinding(
                rule: .canaryInOutput,
                message: "The canary planted in the prompts was written to \(location) (\(hits.canary.count) place\(hits.canary.count == 1 ? "" : "s"), first at line \(Self.line(of: first, in: bytes)), byte \(first)).",
                location: location, line: Self.line(of: first, in: bytes), byteOffset: first, occurrences: hits.canary.count))
        }
        if let first = hits.outputs.first {
            findings.append(AuditFinding(
                rule: .modelOutputInOutput,
                message: "Words of a model output were written to \(location) (\(hits.outputs.count) place\(hits.outputs.count == 1 ? "" : "s"), first at line \(Self.line(of: first, in: bytes)), byte \(first)).",
                location: location, line: Self.line(of: first, in: bytes), byteOffset: first, occurrences: hits.outputs.count))
        }
        return findings
    }

    /// The 1-based line of a byte offset.
    static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[..<min(offset, bytes.count)] where byte == 0x0a { line += 1 }
        return line
    }
}
