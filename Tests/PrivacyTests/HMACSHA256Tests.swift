import Testing
@testable import Privacy

/// HMAC-SHA-256 against RFC 4231's test cases: the keyed digest every corpus identity, label salt
/// and benchmark digest stands on.
@Suite struct HMACSHA256Tests {
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    /// RFC 4231 §4.2–4.7 (test case 5, a truncated output, is checked on its first 16 bytes).
    @Test(arguments: [
        (String(repeating: "0b", count: 20), "4869205468657265",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (String(repeating: "aa", count: 131),
         "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (String(repeating: "aa", count: 131),
         "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ])
    func rfc4231(key: String, data: String, mac: String) {
        #expect(HMACSHA256.hex(key: Self.bytes(key), Self.bytes(data)) == mac)
    }

    @Test func truncatedOutputOfTestCaseFive() {
        let mac = HMACSHA256.hex(key: Self.bytes(String(repeating: "0c", count: 20)), Self.bytes("546573742057697468205472756e636174696f6e"))
        #expect(mac.hasPrefix("a3b6167473100ee06e0c796c2955552b"))
    }

    /// Fed in pieces or at once, the same digest; under another key, another.
    @Test func piecesAgreeAndTheKeyMatters() {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var pieces = HMACSHA256(key: [1, 2, 3])
        pieces.update(data[0..<5])
        data.withUnsafeBytes { pieces.update(UnsafeRawBufferPointer(rebasing: $0[5...])) }
        #expect(pieces.finalizeHex() == HMACSHA256.hex(key: [1, 2, 3], data))
        #expect(HMACSHA256.hex(key: [1, 2, 4], data) != HMACSHA256.hex(key: [1, 2, 3], data))
        #expect(HMACSHA256.hex(key: [1, 2, 3], data) != SHA256.hex(data))
    }
}
