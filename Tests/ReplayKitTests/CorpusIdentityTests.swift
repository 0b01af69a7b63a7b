import Foundation
import Privacy
@testable import ReplayKit
import Testing
import TestSupport

/// Which corpus a state was made over, and the label salt drawn from the same bytes.
@Suite struct CorpusIdentityTests {
    @Test func theSameBytesAreTheSameCorpusWhereverTheyAre() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        let small = try directory.write("small.jsonl", text: StateFixtures.messy(threads: 3))
        let copy = try directory.write("copy.jsonl", text: StateFixtures.messy(threads: 3))
        let edited = try directory.write("edited.jsonl", text: StateFixtures.messy(threads: 3).replacingOccurrences(of: "m2", with: "m9"))
        let (a, saltA) = CorpusIdentity.of([small])
        let (b, saltB) = CorpusIdentity.of([copy])
        let (c, saltC) = CorpusIdentity.of([edited])
        #expect(a.files[0].hashed == .whole)
        #expect(a.difference(from: b) == nil)
        #expect(saltA != nil && saltA == saltB)
        #expect(a.difference(from: c)?.contains("edited.jsonl") == true)
        #expect(saltA != saltC)
        #expect(a.difference(from: CorpusIdentity.of([small, copy]).identity) != nil)
        // The salt is none of the digests written.
        let saltHex = SHA256.hex(try #require(saltA).bytes)
        #expect(!a.files.contains { $0.sha256?.hasPrefix(saltHex) == true })
        // Standard input has no identity, and no corpus salt.
        let (stdin, none) = CorpusIdentity.of(["-"])
        #expect(none == nil && !stdin.isComplete)
        #expect(stdin.difference(from: stdin) != nil)
    }

    @Test func aLargeFileIsKnownByItsSizeAndEnds() throws {
        let directory = try TemporaryDirectory(prefix: "identity")
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let original = try directory.write("large.jsonl", bytes)
        let large = try #require(CorpusIdentity.of([original]).identity.files.first)
        #expect(large.hashed == .firstAndLastMiB && large.bytes == 3 << 20)
        bytes[bytes.count - 10] = UInt8(ascii: "y")
        let end = try #require(CorpusIdentity.of([try directory.write("end.jsonl", bytes)]).identity.files.first)
        #expect(end.sha256 != large.sha256)
        bytes[bytes.count - 10] = UInt8(ascii: "x")
        bytes[bytes.count / 2] = UInt8(ascii: "y")   // the middle is not read: an export grows at its end
        let middle = try #require(CorpusIdentity.of([try directory.write("middle.jsonl", bytes)]).identity.files.first)
        #expect(middle.sha256 == large.sha256)
    }

    /// The salt is chosen once, before the first label: a salt that changed later would count one
    /// value under two hashes.
    @Test func theProcessSaltCannotChangeAfterTheFirstLabel() {
        let before = ReportLabel(build: "the quick brown fox").text
        #expect(!LabelSalt.useForThisProcess(LabelSalt(bytes: [1, 2, 3])))
        #expect(ReportLabel(build: "the quick brown fox").text == before)
    }
}
