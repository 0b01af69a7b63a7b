import Foundation
import Testing
@testable import Audit
@testable import Confinement
import Privacy

/// A model output or the canary dumped as hex or base64, as a debugging program would print it,
/// is recognised like the words themselves; hex and base64 that are not words (digests, keyed
/// hashes) are not.
@Suite struct EncodedDumpTests {
    static let canary = "ability able about above absent absorb abstract absurd"
    static let fingerprint = OutputFingerprint(salt: Array("salt-for-tests".utf8))
    static let output = #"{"replies": ["Can we do Friday instead?", "Not yet, sorry"]}"#
    static let scanner = LeakScanner(canary: canary, fingerprint: fingerprint,
                                     digests: fingerprint.digests(ofOutput: output))
    /// Invented words of the output above, as a program would have them in hand.
    static let chip = Array("Can we do Friday instead?".utf8)

    /// The encodings of `bytes` a debugging program prints.
    static func forms(_ bytes: [UInt8]) -> [(String, String)] {
        let lower = bytes.map { String(format: "%02x", $0) }
        let base64 = Data(bytes).base64EncodedString()
        let wrapped = stride(from: 0, to: base64.count, by: 76).map { start -> String in
            let from = base64.index(base64.startIndex, offsetBy: start)
            return String(base64[from..<(base64.index(from, offsetBy: 76, limitedBy: base64.endIndex) ?? base64.endIndex)])
        }
        let url = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        return [
            ("xxd -p", "debug: " + stride(from: 0, to: lower.count, by: 30).map { lower[$0..<min($0 + 30, lower.count)].joined() }.joined(separator: "\n")),
            ("upper case", lower.joined().uppercased()),
            ("spaces", "bytes=[" + lower.joined(separator: " ") + "]"),
            ("colons", lower.joined(separator: ":").uppercased()),
            ("0x, comma", lower.map { "0x" + $0 }.joined(separator: ", ")),
            ("\\x escapes", "b'" + lower.map { "\\x" + $0 }.joined() + "'"),
            ("hexdump -C", hexdump(bytes)),
            ("xxd", xxd(bytes)),
            ("base64", "payload: " + base64 + "\n"),
            ("base64 wrapped at 76", wrapped.joined(separator: "\n")),
            ("base64 CRLF", wrapped.joined(separator: "\r\n")),
            ("base64url without padding", "?d=" + url.replacingOccurrences(of: "=", with: "")),
        ]
    }

    static func hexdump(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            let line = bytes[start..<min(start + 16, bytes.count)]
            let hex = line.enumerated().map { String(format: "%02x ", $1) + ($0 == 7 ? " " : "") }.joined()
            let text = String(decoding: line.map { (0x20..<0x7f).contains($0) ? $0 : 0x2e }, as: UTF8.self)
            return String(format: "%08x  ", start) + hex.padding(toLength: 50, withPad: " ", startingAt: 0) + "|" + text + "|"
        }.joined(separator: "\n") + "\n"
    }

    static func xxd(_ bytes: [UInt8]) -> String {
        stride(from: 0, to: bytes.count, by: 16).map { start in
            let line = Array(bytes[start..<min(start + 16, bytes.count)])
            let groups = stride(from: 0, to: line.count, by: 2).map { line[$0..<min($0 + 2, line.count)].map { String(format: "%02x", $0) }.joined() }
            let text = String(decoding: line.map { (0x20..<0x7f).contains($0) ? $0 : 0x2e }, as: UTF8.self)
            return String(format: "%08x: ", start) + groups.joined(separator: " ").padding(toLength: 40, withPad: " ", startingAt: 0) + "  " + text
        }.joined(separator: "\n") + "\n"
    }

    static let outputForms = forms(chip)
    static let canaryForms = forms(Array(("note: " + canary).utf8))

    @Test(arguments: outputForms)
    func anOutputDumpedIsFound(form: String, text: String) {
        #expect(!Self.scanner.hits(in: Array(text.utf8)).outputs.isEmpty, "\(form)")
        #expect(Self.scanner.findings(in: Array(text.utf8), location: "stderr").map(\.rule) == [.modelOutputInOutput], "\(form)")
    }

    @Test(arguments: canaryForms)
    func theCanaryDumpedIsFound(form: String, text: String) {
        #expect(Self.scanner.hits(in: Array(text.utf8)).canary.count == 1, "\(form)")
    }

    /// A dump in the middle of a long stream is found where it is, whichever buffer it falls in.
    @Test func aDumpAcrossBuffersIsFoundOnce() {
        let dump = Array(Self.outputForms.first { $0.0 == "base64 wrapped at 76" }!.1.utf8)
        let filler = [UInt8](repeating: UInt8(ascii: "."), count: StreamSearch.bufferSize - 20)
        var search = StreamSearch(scanner: Self.scanner, canaryOnly: false)
        search.feed(filler + dump + [0x0a] + filler)
        search.finish()
        #expect(search.outputs.first == filler.count)
        #expect(Set(search.outputs).count == search.outputs.count)
        #expect(search.outputs.allSatisfy { (filler.count..<filler.count + dump.count).contains($0) })
    }

    /// What a clean run writes in hex and base64: digests, keyed hashes, ids, numbers.
    @Test func digestsAndHashesAreNotWords() {
        var text = ""
        for seed in 0..<200 {
            var hash = SHA256()
            hash.update(Array("seed \(seed)".utf8))
            let hex = hash.finalizeHex()
            text += "\"sha256\": \"\(hex)\", \"state\": \"#h:\(hex.prefix(8))\", \"b64\": \"\(Data(hex.utf8).base64EncodedString())\"\n"
        }
        text += "1700000000123 0.000000 12345678901234567890 deadbeefcafe cafe_au_lait facade\n"
        #expect(Self.scanner.hits(in: Array(text.utf8)).isEmpty)
    }

    @Test func decodedBytesStayAtTheirSource() {
        let text = Array("x 68656c6c6f20776f726c64 y".utf8)
        let decoded = DecodedRuns(text)
        let view = String(decoding: decoded.bytes.prefix(11), as: UTF8.self)
        #expect(view == "hello world")
        #expect(decoded.origins.prefix(2) == [2, 4])
        #expect(DecodedRuns.validUTF8([0x61, 0xff, 0xc3, 0xa9, 0xe2, 0x28]) == [0x61, 0x1a, 0xc3, 0xa9, 0x1a, 0x28])
    }
}
