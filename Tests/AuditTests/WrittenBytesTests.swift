import Foundation
import Testing
@testable import Audit
@testable import Confinement
import Privacy

/// The bytes a run's write calls carried are read from strace's dumps and searched, so a leak
/// overwritten, truncated or removed before the scan is still found; pipes and `/dev/null` are not
/// searched, and what the scan found where it is is not reported twice.
@Suite struct WrittenBytesTests {
    static let canary = "ability able about above absent absorb abstract absurd"
    let scanner = LeakScanner(canary: Self.canary, fingerprint: OutputFingerprint(salt: [1]), digests: [])

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "\\x%02x", $0) }.joined() }

    /// strace's dump of `bytes`: ` | 00000  68 65 …  hel… |`, 16 bytes a line.
    static func dump(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            let line = bytes[start..<min(start + 16, bytes.count)]
            let pairs = line.enumerated().map { String(format: "%02x ", $1) + ($0 == 7 ? " " : "") }.joined()
            let text = String(decoding: line.map { (0x20..<0x7f).contains($0) ? $0 : 0x2e }, as: UTF8.self)
            return String(format: " | %05x  ", start) + pairs.padding(toLength: 50, withPad: " ", startingAt: 0) + text.padding(toLength: 16, withPad: " ", startingAt: 0) + " |"
        }.joined(separator: "\n")
    }

    func written(_ trace: String) throws -> WrittenBytes {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)").path
        try trace.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return WrittenBytes(tracePath: path, scanner: scanner) { Auditor.harmlessFiles.contains($0) }
    }

    @Test func aCanaryWrittenThenTruncatedIsFound() throws {
        let leak = Array(("draft: " + Self.canary + "\n").utf8)
        let trace = """
            10  openat(AT_FDCWD<\(Self.hex("/w"))>, "\(Self.hex("/out/draft.txt"))", O_RDWR|O_CREAT|O_TRUNC, 0644) = 3<\(Self.hex("/out/draft.txt"))>
            10  write(3<\(Self.hex("/out/draft.txt"))>, "\(Self.hex("draft: ability a"))"..., \(leak.count)) = \(leak.count)
            \(Self.dump(leak))
            10  ftruncate(3<\(Self.hex("/out/draft.txt"))>, 0) = 0
            10  write(4<\(Self.hex("pipe:[77]"))>, "\(Self.hex("draft: ability a"))"..., \(leak.count)) = \(leak.count)
            \(Self.dump(leak))
            10  write(5<\(Self.hex("/dev/null"))<char 1:3>>, "\(Self.hex("draft: ability a"))"..., \(leak.count)) = \(leak.count)
            \(Self.dump(leak))
            """
        let written = try written(trace)
        #expect(written.found == ["/out/draft.txt": WrittenBytes.Hits(canary: 1, outputs: 0)])
        #expect(written.bytes == leak.count)
        // The dumps are not calls: the trace's calls are read as before.
        #expect(!written.calls.contains(" | "))
        #expect(StraceLog(trace: written.calls, workingDirectory: "/w").entries.count == 2)

        let findings = Auditor.writtenFindings(written, existing: []) { $0 }
        #expect(findings.map(\.rule) == [.canaryInOutput])
        #expect(findings.first?.location == "/out/draft.txt")
        #expect(findings.first?.message.contains("truncated") == true)
        #expect(findings.first?.message.contains("absorb") == false)
        // Found where it is by the final scan: said once.
        let scanned = AuditFinding(rule: .canaryInOutput, message: "", location: "/out/draft.txt")
        #expect(Auditor.writtenFindings(written, existing: [scanned]) { $0 }.isEmpty)
    }

    /// A leak cut across writes (and threads' unfinished calls) is one stream per target.
    @Test func writesToOneTargetAreOneStream() throws {
        let leak = Array(Self.canary.utf8)
        let first = Array(leak[..<20]), second = Array(leak[20...])
        let trace = """
            11  pwrite64(1<\(Self.hex("/tmp/x/stdout"))>, "\(Self.hex("ability able abo"))"..., 20, 0 <unfinished ...>
            12  getpid() = 12
            11  <... pwrite64 resumed>) = 20
            \(Self.dump(first))
            12  writev(1<\(Self.hex("/tmp/x/stdout"))>, [{iov_base="\(Self.hex("ut above absent "))"..., iov_len=\(second.count)}], 1) = \(second.count)
            \(Self.dump(second))
            """
        let written = try written(trace)
        #expect(written.found["/tmp/x/stdout"]?.canary == 1)
    }

    @Test func aDumpLineIsReadByItsColumns() {
        let bytes = Array("0123456789abcdef".utf8) + [0x00, 0xff, 0x7c, 0x20]
        let lines = Self.dump(bytes).split(separator: "\n").map { Array($0.utf8) }
        #expect(lines.flatMap(WrittenBytes.dumped) == bytes)
    }
}
