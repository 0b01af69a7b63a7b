import Foundation
import Testing
@testable import Export
import TestSupport

@Suite struct ZstdInputTests {
    @Test func singleFrameIsRead() throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 3)
        let file = try directory.write("one.jsonl.zst", try zstdFrame(text))
        let (events, stats) = try readEvents([file])
        #expect(messageIDs(events) == ["m0", "m1", "m2"])
        #expect(stats.records == 4)
        #expect(stats.decompressedBytes == text.utf8.count)
        #expect(stats.compressedBytes == (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
    }

    @Test func concatenatedFramesAreAllRead() throws {
        let directory = try TemporaryDirectory()
        let first = threadLines(id: "t1", messages: 2, prefix: "a")
        let second = threadLines(id: "t2", messages: 3, prefix: "b")
        let third = threadLines(id: "t3", messages: 1, prefix: "c")
        let file = try directory.write("multi.jsonl.zst", try zstdFrame(first) + zstdFrame(second, level: 19) + zstdFrame(third))
        let (events, stats) = try readEvents([file])
        #expect(messageIDs(events) == ["a0", "a1", "b0", "b1", "b2", "c0"])
        #expect(stats.threads == 3)
        #expect(stats.messages == 6)
        #expect(stats.badLines == 0)
        #expect(events.allSatisfy { $0.failure == nil })
        #expect(events.compactMap(\.location).map(\.line) == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test func frameBoundaryInsideALineJoinsTheLine() throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 2)
        let cut = text.utf8.count / 2
        let bytes = Array(text.utf8)
        let file = try directory.write("split.jsonl.zst",
                                       try zstdFrame(String(decoding: bytes[..<cut], as: UTF8.self))
                                           + zstdFrame(String(decoding: bytes[cut...], as: UTF8.self)))
        let (events, _) = try readEvents([file])
        #expect(messageIDs(events) == ["m0", "m1"])
        #expect(events.allSatisfy { $0.badLine == nil })
    }

    @Test(arguments: [UInt8(0), 7, 15])
    func skippableFramesAreIgnored(nibble: UInt8) throws {
        let directory = try TemporaryDirectory()
        let payload = Array("not json at all\n".utf8)
        let bytes = skippableFrame(payload, nibble: nibble)
            + (try zstdFrame(threadLines(id: "t1", messages: 1, prefix: "a")))
            + skippableFrame([], nibble: nibble)
            + skippableFrame(payload, nibble: nibble)
            + (try zstdFrame(threadLines(id: "t2", messages: 1, prefix: "b")))
        let file = try directory.write("skip.jsonl.zst", bytes)
        let (events, stats) = try readEvents([file])
        #expect(messageIDs(events) == ["a0", "b0"])
        #expect(stats.badLines == 0)
        #expect(events.allSatisfy { $0.failure == nil })
    }

    /// The magic decides how a file is read; a `.zst` name only adds a promise (RefusedFileTests).
    @Test func formatIsToldByMagic() throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 1)
        let zstdNamedPlain = try directory.write("really-zstd.jsonl", try zstdFrame(text))
        let plainNamedZstd = try directory.write("really-plain.jsonl.zst", text: text)
        #expect(messageIDs(try readEvents([zstdNamedPlain]).events) == ["m0"])
        #expect(try readEvents([plainNamedZstd]).events.compactMap(\.failure).count == 1)
        #expect(StoredFormat.detect([0x28, 0xB5, 0x2F, 0xFD]) == .zstd)
        #expect(StoredFormat.detect([0x5F, 0x2A, 0x4D, 0x18]) == .zstd)
        #expect(StoredFormat.detect([0x60, 0x2A, 0x4D, 0x18]) == .plain)
        #expect(StoredFormat.detect([0x28, 0xB5, 0x2F]) == .plain)
    }

    @Test(arguments: [1, 3, 10])
    func truncatedFileFailsAfterDeliveringEarlierLines(cutBytes: Int) throws {
        let directory = try TemporaryDirectory()
        let whole = try zstdFrame(threadLines(id: "t1", messages: 2, prefix: "a"))
            + zstdFrame(threadLines(id: "t2", messages: 40, prefix: "b"))
        let cutFile = try directory.write("cut.jsonl.zst", Array(whole.dropLast(cutBytes)))
        let later = try directory.write("later.jsonl", text: threadLines(id: "t9", messages: 1, prefix: "z"))
        let (events, stats) = try readEvents([cutFile, later])
        let ids = messageIDs(events)
        #expect(Array(ids.prefix(2)) == ["a0", "a1"])
        #expect(ids.last == "z0")
        let failures = events.compactMap(\.failure)
        #expect(failures == [.compressedDataIsTruncated(file: cutFile, offset: whole.count - cutBytes)])
        #expect(failures.first?.description.contains(cutFile) == true)
        #expect(failures.first?.description.contains("\(whole.count - cutBytes)") == true)
        // The failure comes after every line of the cut file and before the next file's lines.
        let failureIndex = try #require(events.firstIndex { $0.failure != nil })
        #expect(events[failureIndex...].compactMap(\.message).map(\.id) == ["z0"])
        #expect(stats.files == 2)
        #expect(stats.compressedBytes == whole.count - cutBytes + threadLines(id: "t9", messages: 1, prefix: "z").utf8.count)
    }

    @Test func corruptFrameHeaderFailsNamingTheOffset() throws {
        let directory = try TemporaryDirectory()
        let first = try zstdFrame(threadLines(id: "t1", messages: 2, prefix: "a"))
        var second = try zstdFrame(threadLines(id: "t2", messages: 2, prefix: "b"))
        second[2] ^= 0xFF  // break the second frame's magic number
        let file = try directory.write("bad.jsonl.zst", first + second)
        let (events, _) = try readEvents([file])
        #expect(messageIDs(events) == ["a0", "a1"])
        let failure = try #require(events.last?.failure)
        guard case .compressedDataIsCorrupt(let name, let offset, let reason) = failure else {
            Issue.record("expected a corrupt-data failure, got \(failure)")
            return
        }
        #expect(name == file)
        #expect(offset >= first.count && offset <= first.count + second.count)
        #expect(!reason.isEmpty)
        #expect(failure.description.hasPrefix(file + ": zstd data is corrupt"))
    }

    @Test func corruptByteInTheMiddleFails() throws {
        let directory = try TemporaryDirectory()
        var bytes = try zstdFrame(threadLines(id: "t1", messages: 500, prefix: "a"), level: 1)
        bytes[bytes.count / 2] ^= 0x5A
        let file = try directory.write("flip.jsonl.zst", bytes)
        let (events, _) = try readEvents([file])
        let failures = events.compactMap(\.failure)
        #expect(failures.count == 1)
        if case .compressedDataIsCorrupt(let name, _, _) = failures.first {
            #expect(name == file)
        } else {
            Issue.record("expected a corrupt-data failure")
        }
        #expect(events.last?.failure != nil)
    }

    @Test func largeCompressedFileStreamsAcrossManyChunks() throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 20_000)
        let file = try directory.write("big.jsonl.zst", try zstdFrame(text))
        let (events, stats) = try readEvents([file])
        #expect(stats.messages == 20_000)
        #expect(stats.badLines == 0)
        #expect(stats.decompressedBytes == text.utf8.count)
        #expect(stats.decompressedBytes > 4 * OpenFile.chunkSize)
        #expect(messageIDs(events).last == "m19999")
    }

    @Test func emptyZstdFileAndEmptyPlainFile() throws {
        let directory = try TemporaryDirectory()
        let empty = try directory.write("empty.jsonl", [])
        let emptyFrame = try directory.write("empty.jsonl.zst", try zstdFrame(""))
        let (events, stats) = try readEvents([empty, emptyFrame])
        #expect(events.isEmpty)
        #expect(stats.files == 2)
        #expect(stats.lines == 0)
    }
}
