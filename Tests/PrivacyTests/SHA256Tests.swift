import Testing
@testable import Privacy

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func standardVectors(input: String, digest: String) {
        #expect(SHA256.hex(Array(input.utf8)) == digest)
    }

    @Test func bufferedAndBytewiseAgree() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var chunked = SHA256()
        bytes.withUnsafeBytes { all in
            chunked.update(UnsafeRawBufferPointer(rebasing: all[0..<7]))
            chunked.update(UnsafeRawBufferPointer(rebasing: all[7..<700]))
            chunked.update(UnsafeRawBufferPointer(rebasing: all[700...]))
        }
        #expect(chunked.finalizeHex() == SHA256.hex(bytes))
        #expect(SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
