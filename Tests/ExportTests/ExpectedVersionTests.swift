#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import Testing
@testable import Export
import TestSupport

/// A file opened by a reader told which version to expect (`CorpusReader(paths:expecting:)`,
/// the version a run hashed): edited in place or replaced since, it fails at its opening, named,
/// with nothing of it read, and the rest of the corpus is still read; unchanged, it reads as
/// without the expectation (no false alarm). Every way of reading agrees.
@Suite struct ExpectedVersionTests {
    /// Reading on the caller's thread, and read ahead on a thread of its own.
    static let readAhead = [false, true]

    /// Sets `path`'s access and modification times to `seconds` and `nanoseconds` past the epoch.
    static func setModified(_ path: String, seconds: Int, nanoseconds: Int = 0) throws {
        var times = [timespec(tv_sec: seconds, tv_nsec: nanoseconds), timespec(tv_sec: seconds, tv_nsec: nanoseconds)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXError(.EIO) }
    }

    /// The version of `path` now, as a run takes it (`fstat` of a descriptor open on it).
    static func version(_ path: String) throws -> FileVersion {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(.ENOENT) }
        defer { close(descriptor) }
        return try #require(FileVersion.ofOpenFile(descriptor))
    }

    static func read(_ paths: [String], expecting: [String: FileVersion], readAhead: Bool) throws -> (events: [ReaderEvent], stats: CorpusStats) {
        let reader = try CorpusReader(paths: paths, readAhead: readAhead, expecting: expecting)
        let events = reader.readAll()
        return (events, reader.stats)
    }

    /// Rewritten in place at the same size after its version was taken, the modification time
    /// moved (set here, so the clock's granularity cannot hide it): it fails when opened, with
    /// both sizes and times; the next file is read.
    @Test(arguments: readAhead)
    func aFileRewrittenAtTheSameSizeFailsWhenOpened(readAhead: Bool) throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 50)
        let file = try directory.write("corpus.jsonl", text: text)
        let later = try directory.write("later.jsonl", text: threadLines(id: "t2", messages: 2, prefix: "z"))
        // 1700000000 s is 2023-11-14T22:13:20Z and 1000000000 s 2001-09-09T01:46:40Z (Python 3:
        // datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat()).
        try Self.setModified(file, seconds: 1_700_000_000, nanoseconds: 500)
        let hashed = try Self.version(file)
        let other = threadLines(id: "t1", messages: 50, prefix: "b")
        #expect(other.utf8.count == text.utf8.count)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.write(contentsOf: Data(other.utf8))
        try handle.close()
        try Self.setModified(file, seconds: 1_000_000_000)
        #expect(try Self.version(file).inode == hashed.inode, "rewritten in place: the same inode")

        let (events, stats) = try Self.read([file, later], expecting: [file: hashed, later: try Self.version(later)], readAhead: readAhead)
        let size = text.utf8.count
        let failure = try #require(events.first?.failure)
        #expect(events.compactMap(\.failure).count == 1)
        #expect(failure.description == "\(file): the file changed after the run took its identity: it was \(size) bytes "
                + "(modified 2023-11-14T22:13:20.000000500Z) when hashed and \(size) bytes (modified 2001-09-09T01:46:40.000000000Z) "
                + "when opened; nothing of it was read")
        #expect(messageIDs(events) == ["z0", "z1"], "nothing of the changed file, all of the next")
        #expect(stats.files == 2 && stats.lines == 3 && stats.decompressedBytes == threadLines(id: "t2", messages: 2, prefix: "z").utf8.count)
    }

    /// Another file renamed over the path (`mv`) after the version was taken, with the same size
    /// and modification time: another inode, so it fails when opened, saying it was replaced.
    @Test(arguments: readAhead)
    func aFileReplacedByRenameFailsWhenOpened(readAhead: Bool) throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 20)
        let file = try directory.write("corpus.jsonl", text: text)
        let replacement = try directory.write("replacement.jsonl", text: threadLines(id: "t1", messages: 20, prefix: "b"))
        try Self.setModified(file, seconds: 1_700_000_000)
        try Self.setModified(replacement, seconds: 1_700_000_000)
        let hashed = try Self.version(file)
        guard rename(replacement, file) == 0 else { throw POSIXError(.EIO) }
        let opened = try Self.version(file)
        #expect(opened.inode != hashed.inode && opened.bytes == hashed.bytes && opened.modifiedSeconds == hashed.modifiedSeconds)

        let (events, stats) = try Self.read([file], expecting: [file: hashed], readAhead: readAhead)
        let size = text.utf8.count
        #expect(events.map(\.failure) == [.fileChangedAfterIdentity(file: file, hashed: hashed, opened: opened)])
        #expect(events.first?.failure?.description == "\(file): the file changed after the run took its identity (another file was put at its path): "
                + "it was \(size) bytes (modified 2023-11-14T22:13:20.000000000Z) when hashed and \(size) bytes "
                + "(modified 2023-11-14T22:13:20.000000000Z) when opened; nothing of it was read")
        #expect(stats.files == 1 && stats.lines == 0 && stats.compressedBytes == 0)
    }

    /// A file cut shorter (a new size, whatever its time): fails when opened.
    @Test func aFileCutShorterFailsWhenOpened() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("corpus.jsonl", text: threadLines(id: "t1", messages: 20))
        let hashed = try Self.version(file)
        guard truncate(file, 100) == 0 else { throw POSIXError(.EIO) }
        let (events, _) = try Self.read([file], expecting: [file: hashed], readAhead: false)
        guard case .fileChangedAfterIdentity(let name, let was, let now) = try #require(events.first?.failure) else {
            Issue.record("another failure than a change after the identity")
            return
        }
        #expect(name == file && was == hashed && now.bytes == 100 && events.count == 1)
    }

    /// Unchanged since its version was taken, plain and zstd: read exactly as without an
    /// expectation (the same events and counts), nothing failed.
    @Test(arguments: readAhead)
    func anUnchangedFileReadsAsWithoutAnExpectation(readAhead: Bool) throws {
        let directory = try TemporaryDirectory()
        let plain = try directory.write("plain.jsonl", text: threadLines(id: "t1", messages: 30))
        let packed = try directory.write("packed.jsonl.zst", try zstdFrame(threadLines(id: "t2", messages: 30, prefix: "z")))
        let expecting = [plain: try Self.version(plain), packed: try Self.version(packed)]
        let expected = try Self.read([plain, packed], expecting: expecting, readAhead: readAhead)
        let unexpected = try Self.read([plain, packed], expecting: [:], readAhead: readAhead)
        #expect(expected.events.compactMap(\.failure) == [])
        #expect(messageIDs(expected.events) == messageIDs(unexpected.events) && messageIDs(expected.events).count == 60)
        #expect(expected.stats == unexpected.stats)
    }

    /// A directory's files are expected by their paths as resolved: one changed fails, the other
    /// reads.
    @Test func aDirectorysFilesAreExpectedByTheirResolvedPaths() throws {
        let directory = try TemporaryDirectory()
        let shards = try directory.makeDirectory("shards")
        let first = try directory.write("shards/a.jsonl", text: threadLines(id: "t1", messages: 3))
        let second = try directory.write("shards/b.jsonl", text: threadLines(id: "t2", messages: 3, prefix: "z"))
        #expect(try CorpusReader(paths: [shards]).files == [first, second])
        let expecting = [first: try Self.version(first), second: try Self.version(second)]
        try Data(threadLines(id: "t1", messages: 4).utf8).write(to: URL(fileURLWithPath: first))
        let (events, _) = try Self.read([shards], expecting: expecting, readAhead: false)
        #expect(events.compactMap(\.failure).count == 1)
        #expect(events.first?.failure?.description.hasPrefix("\(first): the file changed after the run took its identity") == true)
        #expect(messageIDs(events) == ["z0", "z1", "z2"])
    }

    /// The time as written in messages, to the nanosecond (reference values as above).
    @Test(arguments: [(0, 0, "1970-01-01T00:00:00.000000000Z"), (1_000_000_000, 0, "2001-09-09T01:46:40.000000000Z"),
                      (1_700_000_000, 5, "2023-11-14T22:13:20.000000005Z"), (1_700_000_000, 999_999_999, "2023-11-14T22:13:20.999999999Z")])
    func theModificationTimeReadsAsUTC(seconds: Int, nanoseconds: Int, text: String) {
        let version = FileVersion(device: 1, inode: 2, bytes: 3, modifiedSeconds: seconds, modifiedNanoseconds: nanoseconds)
        #expect(version.modifiedText == text)
    }
}
