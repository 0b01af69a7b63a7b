import Foundation
import Testing
@testable import Export
import TestSupport

@Suite struct CorpusInputTests {
    @Test func directoryShardsAreReadInByteWiseNameOrder() throws {
        let directory = try TemporaryDirectory()
        let shards = try directory.makeDirectory("shards")
        try directory.write("shards/b.jsonl.zst", try zstdFrame(threadLines(id: "tb", messages: 1, prefix: "b")))
        try directory.write("shards/a.jsonl", text: threadLines(id: "ta", messages: 1, prefix: "a"))
        try directory.write("shards/B.jsonl", text: threadLines(id: "tB", messages: 1, prefix: "B"))
        try directory.write("shards/a10.jsonl", text: threadLines(id: "t10", messages: 1, prefix: "a10-"))
        try directory.write("shards/a9.jsonl", text: threadLines(id: "t9", messages: 1, prefix: "a9-"))
        try directory.write("shards/notes.txt", text: "not a shard\n")
        try directory.write("shards/.hidden.jsonl", text: "not read\n")
        try directory.write("shards/c.json", text: "not a shard\n")
        _ = try directory.makeDirectory("shards/nested.jsonl")
        try directory.write("shards/nested.jsonl/x.jsonl", text: threadLines(id: "tx", messages: 1, prefix: "x"))

        let reader = try CorpusReader(paths: [shards])
        #expect(reader.files.map { ($0 as NSString).lastPathComponent } == ["B.jsonl", "a.jsonl", "a10.jsonl", "a9.jsonl", "b.jsonl.zst"])
        let events = reader.readAll()
        #expect(messageIDs(events) == ["B0", "a0", "a10-0", "a9-0", "b0"])
        #expect(reader.stats.files == 5)
        #expect(events.first?.location?.file == shards + "/B.jsonl")
    }

    @Test func severalPathsAreReadInTheOrderGiven() throws {
        let directory = try TemporaryDirectory()
        let second = try directory.write("z.jsonl", text: threadLines(id: "t2", messages: 1, prefix: "z"))
        let first = try directory.write("y.jsonl", text: threadLines(id: "t1", messages: 1, prefix: "y"))
        let (events, stats) = try readEvents([second, first])
        #expect(messageIDs(events) == ["z0", "y0"])
        #expect(stats.files == 2)
    }

    @Test func missingPathIsAnError() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path + "/nope.jsonl.zst"
        #expect(throws: ExportError.pathDoesNotExist(path: missing)) { try CorpusReader(paths: [missing]) }
        #expect(ExportError.pathDoesNotExist(path: missing).description.contains(missing))
        #expect(throws: ExportError.corpusHasNoPaths) { try CorpusReader(paths: []) }
    }

    @Test func directoryWithoutShardsIsAnError() throws {
        let directory = try TemporaryDirectory()
        let empty = try directory.makeDirectory("empty")
        try directory.write("empty/readme.txt", text: "x")
        #expect(throws: ExportError.directoryHasNoShards(path: empty)) { try CorpusReader(paths: [empty]) }
    }

    @Test func unreadableFileIsAnError() throws {
        guard getuid() != 0 else { return }  // root reads everything
        let directory = try TemporaryDirectory()
        let file = try directory.write("locked.jsonl", text: "{}\n")
        chmod(file, 0)
        #expect(throws: ExportError.self) { try CorpusReader(paths: [file]) }
    }

    @Test func fileThatVanishesBeforeReadingFailsAndTheNextIsRead() throws {
        let directory = try TemporaryDirectory()
        let gone = try directory.write("gone.jsonl", text: threadLines(id: "t1", messages: 1, prefix: "g"))
        let kept = try directory.write("kept.jsonl", text: threadLines(id: "t2", messages: 1, prefix: "k"))
        let reader = try CorpusReader(paths: [gone, kept])
        try FileManager.default.removeItem(atPath: gone)
        let events = reader.readAll()
        #expect(events.first?.failure == .pathDoesNotExist(path: gone))
        #expect(messageIDs(events) == ["k0"])
    }

    /// `-` reads standard input: the test puts a pipe on descriptor 0 for the read, then restores it.
    @Test func standardInputIsReadThroughAPipe() throws {
        let frame = try zstdFrame(threadLines(id: "t1", messages: 2, prefix: "s"))
        #expect(frame.count < 60_000)  // fits in the pipe's buffer, so no writer thread is needed
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        frame.withUnsafeBytes { _ = write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        let saved = dup(0)
        dup2(ends[0], 0)
        close(ends[0])
        defer {
            dup2(saved, 0)
            close(saved)
        }
        let reader = try CorpusReader(paths: ["-"])
        #expect(reader.files == ["-"])
        let events = reader.readAll()
        #expect(messageIDs(events) == ["s0", "s1"])
        #expect(events.first?.location == Export.SourceLocation(file: "<stdin>", line: 1))
        #expect(reader.stats.compressedBytes == frame.count)
    }
}
