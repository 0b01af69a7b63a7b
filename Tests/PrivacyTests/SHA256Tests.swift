import Foundation
import Testing
@testable import Privacy

/// Every vector through both compressions: the Swift rounds, and the x86 SHA extensions where
/// the processor has them.
@Suite struct SHA256Tests {
    static let engines = [false] + (SHA256.hardwareAvailable ? [true] : [])

    static func hex(_ bytes: [UInt8], hardware: Bool) -> String {
        var hasher = SHA256()
        hasher.usesHardware = hardware
        hasher.update(bytes)
        return hasher.finalizeHex()
    }

    /// The extensions are used wherever the kernel lists them (`sha_ni`), never silently passed over.
    @Test func theExtensionsAreUsedWhereTheProcessorHasThem() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") }.map { $0.split(separator: " ").map(String.init) } ?? []
        #expect(SHA256.hardwareAvailable == flags.contains("sha_ni"))
        #expect(SHA256().usesHardware == SHA256.hardwareAvailable)
    }

    /// FIPS 180-4's examples (csrc.nist.gov, SHA256.pdf and SHA2_Additional.pdf): the empty
    /// message, "abc", the two-block 448-bit message and the 896-bit message of SHA-512's
    /// examples, whose SHA-256 is cf5b16a7….
    @Test(arguments: engines, [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func standardVectors(hardware: Bool, vector: (input: String, digest: String)) {
        #expect(Self.hex(Array(vector.input.utf8), hardware: hardware) == vector.digest)
    }

    /// NIST CAVP's SHA256ShortMsg.rsp (SHAVS), Len = 8 and Len = 16.
    @Test(arguments: engines, [
        ([0xd3] as [UInt8], "28969cdfa74a12c82f3bad960b0b000aca2ac329deea5c2328ebc6f2ba9802c1"),
        ([0x11, 0xaf], "5ca7133fa735326081558ac312c620eeca9970d1e70a4b95533d956f072d1f98"),
    ])
    func shavsShortMessages(hardware: Bool, vector: (message: [UInt8], digest: String)) {
        #expect(Self.hex(vector.message, hardware: hardware) == vector.digest)
    }

    /// Messages around the block and padding boundaries (55, 56, 63, 64, 65, … bytes: the
    /// padding then fits, just misses, or fills a block), bytes `i * 31 mod 256`. Reference values
    /// from Python 3's hashlib: `hashlib.sha256(bytes((i * 31) & 0xff for i in range(n))).hexdigest()`.
    @Test(arguments: engines, [
        (55, "27d3069ecafb8507f92fa750312a99afe0908525e67b2abe8942b51659945b1b"),
        (56, "3428ab653c0a1ac104ee80fd3bed55135da5556ca4c26da9c781ae56364a6969"),
        (63, "b5ec25bd1c4b7c94c9ea9d235272e43f644f561d7c8c7e58ec5fa9aefe95ef07"),
        (64, "a08f82c23e6c13629d8e33d0d2a13005fb104363eb793b5e8842044951d27764"),
        (65, "c0a0263ae1ab4e9dda9cd2ed6c44b23ee6ff75c90c640185f462fad7f24fcd6f"),
        (119, "b4639d08cdba917a7875088b4e05633a7812e14282482de937915c9799b17250"),
        (120, "e4fce14f6aa99657bdffe9f1da59ce85f0398479e9af7e9de6ccf53e174447ab"),
        (127, "c3328af00588e4c0de651212baf4babe06a69afd3a41320daf2508bd5290fc9e"),
        (128, "8bb5dfd6ac2a606ce25701c19ed1fe8fa3a1a7355cd7fe3445ac3e2cc7a45359"),
        (1000, "945acdf575d6a2430bf4d6163e1d03b4b0b896fcef107c8b24bf7ff07a621fa3"),
    ])
    func blockBoundaries(hardware: Bool, vector: (length: Int, digest: String)) {
        #expect(Self.hex((0..<vector.length).map { UInt8(truncatingIfNeeded: $0 &* 31) }, hardware: hardware) == vector.digest)
    }

    @Test(arguments: engines)
    func bufferedAndBytewiseAgree(hardware: Bool) {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var chunked = SHA256()
        chunked.usesHardware = hardware
        bytes.withUnsafeBytes { all in
            chunked.update(UnsafeRawBufferPointer(rebasing: all[0..<7]))
            chunked.update(UnsafeRawBufferPointer(rebasing: all[7..<700]))
            chunked.update(UnsafeRawBufferPointer(rebasing: all[700...]))
        }
        #expect(chunked.finalizeHex() == Self.hex(bytes, hardware: !hardware))
        // A sequence that is not contiguous storage, fed in pieces.
        var lazy = SHA256()
        lazy.usesHardware = hardware
        lazy.update(bytes.prefix(300).lazy.map { $0 })
        lazy.update(bytes[300...])
        #expect(lazy.finalizeHex() == Self.hex(bytes, hardware: !hardware && SHA256.hardwareAvailable))
        // FIPS 180-4's million "a", in pieces of every size up to 129 bytes.
        #expect(Self.hex(Array(repeating: UInt8(ascii: "a"), count: 1_000_000), hardware: hardware)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var pieces = SHA256()
        pieces.usesHardware = hardware
        let a = [UInt8](repeating: UInt8(ascii: "a"), count: 129)
        var fed = 0, size = 1
        while fed < 1_000_000 {
            let n = min(size, 1_000_000 - fed)
            a.withUnsafeBytes { pieces.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            fed += n
            size = size % 129 + 1
        }
        #expect(pieces.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
