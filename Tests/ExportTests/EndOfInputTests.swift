#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import Testing
@testable import Export
import TestSupport

/// Where an input ends: inside a record (its last line has no line end and is not valid JSON) is
/// a failure naming the file and the byte where the data ended, whatever the container; a whole
/// last record without its line end is read as ever. A regular file written while it is read
/// fails at its end, named. Every way of reading agrees (`ReadingModesTests`), and no message
/// quotes a byte of the line.
@Suite struct EndOfInputTests {
    /// A made-up message line, with an escape, a two-byte character and a backslash to cut at.
    static let lastLine = #"{"type":"message","thread":"t1","id":"m9","at":"2026-09-01T07:00:00Z","from":"person","text":"caf\u00e9 \"quoted\" naïve \\ end"}"#

    /// Where `lastLine` is cut: after its first byte, inside a key, inside the text, inside
    /// `\u00e9`, right after a backslash, between the two bytes of `ï`, one byte before its end.
    static let cuts: [Int] = {
        let bytes = Array(lastLine.utf8)
        let escape = bytes.firstIndex(of: UInt8(ascii: "\\"))!
        let twoByte = bytes.firstIndex(of: 0xC3)!
        return [1, 9, bytes.count - 20, escape + 3, escape + 1, twoByte + 1, bytes.count - 1]
    }()

    /// The expected message, written out here rather than built from the error's own text.
    static func cutMessage(_ file: String, line: Int, offset: Int, compressed: Bool = false) -> String {
        "\(file): the input ends inside a record: line \(line) has no line end and is not valid JSON, and the "
            + (compressed ? "decompressed data ends" : "data ends") + " at byte \(offset) (cut short?)"
    }

    /// Words of `lastLine` that no message may hold.
    static let words = ["caf", "quoted", "na\u{EF}ve", "end\""]

    /// A plain file cut inside its last record: the lines before it are delivered, then the file
    /// fails, naming it, the cut line's number and the file's size; the cut line is counted
    /// nowhere (not a bad line) and the next file is read.
    @Test(arguments: cuts)
    func aPlainFileCutInsideARecordFailsNamingWhereItEnds(cut: Int) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("cut.jsonl", Array(threadLines(id: "t1", messages: 3).utf8) + Array(Self.lastLine.utf8).prefix(cut))
        let later = try directory.write("later.jsonl", text: threadLines(id: "t2", messages: 1, prefix: "z"))
        let (events, stats) = try readEvents([file, later])
        let size = threadLines(id: "t1", messages: 3).utf8.count + cut
        #expect(events.compactMap(\.failure) == [.inputEndsInsideRecord(file: file, line: 5, offset: size, compressed: false)])
        #expect(events[4].failure != nil, "the failure comes after the file's four records")
        #expect(messageIDs(events) == ["m0", "m1", "m2", "z0"])
        #expect(stats.lines == 6 && stats.badLines == 0 && stats.records == 6)
        #expect(stats.decompressedBytes == size + threadLines(id: "t2", messages: 1, prefix: "z").utf8.count)
        let said = try #require(events[4].failure).description
        #expect(said == Self.cutMessage(file, line: 5, offset: size))
        for word in Self.words { #expect(!said.contains(word)) }
    }

    /// The file's only line, cut: the same failure, not "no valid record".
    @Test func aFileThatIsOneCutLineFailsTheSameWay() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("one.jsonl", text: #"{"type":"thread","id":"t1","ag"#)
        let (events, stats) = try readEvents([file])
        #expect(events.map(\.failure) == [.inputEndsInsideRecord(file: file, line: 1, offset: 30, compressed: false)])
        #expect(events.first?.failure?.description == Self.cutMessage(file, line: 1, offset: 30))
        #expect(stats.lines == 0 && stats.badLines == 0)
    }

    /// The contract allows a last line without `\n`: a whole record there is read as a record,
    /// with a `\r` or blanks after it too; a blank last line is no record and no failure either.
    @Test(arguments: ["", "\r", "  \t", "\r\n\n  "])
    func aWholeLastRecordWithoutALineEndIsRead(after: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("whole.jsonl", text: threadLines(id: "t1", messages: 2) + Self.lastLine + after)
        let (events, stats) = try readEvents([file])
        #expect(events.compactMap(\.failure) == [])
        #expect(messageIDs(events) == ["m0", "m1", "m9"])
        // "\r\n\n  ": the record ends its line, and the blanks after it are a last line that is not JSON.
        let blankLine = after == "\r\n\n  "
        #expect(stats.badLines == (blankLine ? 1 : 0))
        #expect(events.last?.badLine?.reason == (blankLine ? "invalid JSON at column 3: expected a value, found the end of the line" : nil))
        #expect(events.last?.badLine?.location.line == (blankLine ? 6 : nil))
    }

    /// A last line without a line end that is whole JSON but not a record stays a bad line: the
    /// input did not end inside it.
    @Test func wholeJSONThatIsNoRecordIsABadLineAtTheEnd() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("end.jsonl", text: threadLines(id: "t1", messages: 1) + #"{"type":"message","thread":"t1"}"#)
        let (events, _) = try readEvents([file])
        #expect(events.compactMap(\.failure) == [])
        #expect(events.last?.badLine?.location.line == 3)
    }

    /// A `.jsonl.zst` whose frames are whole but whose JSON Lines stop inside a record (the
    /// exporter was stopped, then the stream closed): the failure names the decompressed byte.
    @Test(arguments: [1, 40, 120])
    func aCompressedFileWhoseLinesAreCutFailsNamingTheDecompressedByte(cut: Int) throws {
        let directory = try TemporaryDirectory()
        let text = threadLines(id: "t1", messages: 3) + String(decoding: Array(Self.lastLine.utf8).prefix(cut), as: UTF8.self)
        let file = try directory.write("cut.jsonl.zst", try zstdFrame(text))
        let (events, stats) = try readEvents([file])
        let failure = try #require(events.last?.failure)
        #expect(failure == .inputEndsInsideRecord(file: file, line: 5, offset: text.utf8.count, compressed: true))
        #expect(failure.description == Self.cutMessage(file, line: 5, offset: text.utf8.count, compressed: true))
        #expect(messageIDs(events) == ["m0", "m1", "m2"])
        #expect(stats.badLines == 0 && stats.lines == 4)
    }

    /// A zstd frame cut short (a copy or a download stopped) is a failure of its own, at the
    /// stored byte where the file ends: the line it stopped in is not reported a second time.
    @Test func aFrameCutShortInsideALineIsTheTruncatedFrameFailure() throws {
        let directory = try TemporaryDirectory()
        let whole = try zstdFrame(threadLines(id: "t1", messages: 40) + Self.lastLine + "\n", level: 1)
        let cut = try directory.write("cut.jsonl.zst", Array(whole.dropLast(30)))
        let (events, _) = try readEvents([cut])
        #expect(events.compactMap(\.failure) == [.compressedDataIsTruncated(file: cut, offset: whole.count - 30)])
        #expect(events.last?.failure?.description
                == "\(cut): zstd data is truncated: the file ends at compressed byte \(whole.count - 30) inside a frame")
        #expect(events.allSatisfy { $0.badLine == nil })
    }

    /// A pipe whose writer stopped mid-line (closed its end): the same failure, at the byte the
    /// stream ended, after every whole line. Read through /dev/fd, so standard input is left alone.
    @Test func aPipeThatEndsInsideARecordFails() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let bytes = Array(threadLines(id: "t1", messages: 2).utf8) + Array(Self.lastLine.utf8).prefix(50)
        #expect(bytes.count < 60_000)  // fits in the pipe's buffer
        bytes.withUnsafeBytes { _ = write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        defer { close(ends[0]) }
        let path = "/dev/fd/\(ends[0])"
        let (events, _) = try readEvents([path])
        #expect(messageIDs(events) == ["m0", "m1"])
        #expect(events.compactMap(\.failure) == [.inputEndsInsideRecord(file: path, line: 4, offset: bytes.count, compressed: false)])
    }

    // MARK: - Files written while they are read

    /// The ways of reading a file, with `change` run once `after` events were handed out.
    enum Way: String, CaseIterable {
        case full, outline, fullReadAhead, outlineReadAhead, callbackReadAhead
    }

    /// What a read handed out: message ids in order, and the failures.
    struct Read {
        var ids: [String] = []
        var failures: [ExportError] = []
    }

    static func read(_ path: String, _ way: Way, changingAfter after: Int, _ change: () throws -> Void) throws -> Read {
        let readAhead = way == .fullReadAhead || way == .outlineReadAhead || way == .callbackReadAhead
        let reader = try CorpusReader(paths: [path], readAhead: readAhead)
        var read = Read()
        var count = 0
        var changeError: Error?
        func note(_ id: String?, _ failure: ExportError?) {
            if let id { read.ids.append(id) }
            if let failure { read.failures.append(failure) }
            count += 1
            if count == after {
                do { try change() } catch { changeError = error }
            }
        }
        switch way {
        case .full, .fullReadAhead:
            while let event = reader.next() { note(event.message?.id, event.failure) }
        case .outline, .outlineReadAhead:
            while let event = reader.nextOutline() { note(Self.id(event), Self.failure(event)) }
        case .callbackReadAhead:
            reader.forEachOutline { event in note(Self.id(event), Self.failure(event)) }
        }
        if let changeError { throw changeError }
        return read
    }

    static func id(_ event: OutlineEvent) -> String? {
        if case .record(.message(let message), _) = event { return message.id }
        return nil
    }

    static func failure(_ event: OutlineEvent) -> ExportError? {
        if case .fileFailed(let error) = event { return error }
        return nil
    }

    /// A corpus of some megabytes (many chunks, and more than the read-ahead holds).
    static let big = threadLines(id: "t1", messages: 40_000, prefix: "a")

    /// Writes `bytes` at `offset` of `path` without truncating it (or appending, with `append`).
    static func writeInPlace(_ path: String, _ bytes: [UInt8], at offset: Int = 0, append: Bool = false) throws {
        let fd = open(path, O_WRONLY | (append ? O_APPEND : 0))
        guard fd >= 0 else { throw POSIXError(.EIO) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { append ? write(fd, $0.baseAddress, $0.count) : pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == bytes.count else { throw POSIXError(.EIO) }
    }

    /// An exporter still appending while the file is read: the end comes later than the size at
    /// opening, and the file fails there, named with the three sizes, whichever way it is read.
    @Test(arguments: Way.allCases)
    func aFileAppendedToWhileReadFailsAtItsEnd(way: Way) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("growing.jsonl", text: Self.big)
        let more = Array(threadLines(id: "t2", messages: 3, prefix: "b").utf8)
        let read = try Self.read(file, way, changingAfter: 100) { try Self.writeInPlace(file, more, append: true) }
        let size = Self.big.utf8.count
        #expect(read.failures == [.fileChangedWhileRead(file: file, bytesAtOpen: size, bytesAtEnd: size + more.count, bytesRead: size + more.count)])
        #expect(read.failures.first?.description == "\(file): the file changed while it was read: it was \(size) bytes when opened and "
                + "\(size + more.count) when its end was read, and \(size + more.count) bytes were read; what was read may mix two versions")
        #expect(read.ids.count == 40_003)
    }

    /// Rewritten in place at the same size, with its modification time moved (set here, so the
    /// clock's granularity cannot hide it): a change, though every size agrees.
    @Test(arguments: Way.allCases)
    func aFileRewrittenAtTheSameSizeFails(way: Way) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("same-size.jsonl", text: Self.big)
        let other = Array(threadLines(id: "t1", messages: 40_000, prefix: "b").utf8)
        #expect(other.count == Self.big.utf8.count)
        let read = try Self.read(file, way, changingAfter: 100) {
            try Self.writeInPlace(file, other)
            var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
            guard utimensat(AT_FDCWD, file, &times, 0) == 0 else { throw POSIXError(.EIO) }
        }
        let size = other.count
        #expect(read.failures == [.fileChangedWhileRead(file: file, bytesAtOpen: size, bytesAtEnd: size, bytesRead: size)])
        #expect(read.failures.first?.description
                == "\(file): the file changed while it was read: it was modified while it was read (\(size) bytes throughout); what was read may mix two versions")
    }

    /// `cp` of another corpus over the file mid-read (the same inode, truncated and written
    /// again): the lines read mix the two, and the file fails at its end, named.
    @Test(arguments: Way.allCases)
    func aFileCopiedOverWhileReadFails(way: Way) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("corpus.jsonl", text: Self.big)
        let other = try directory.write("other.jsonl", text: threadLines(id: "t1", messages: 50_000, prefix: "b"))
        let read = try Self.read(file, way, changingAfter: 100) {
            let copy = try Subprocess.run("/bin/cp", [other, file])
            guard copy.status == 0 else { throw POSIXError(.EIO) }
        }
        let failure = try #require(read.failures.first)
        #expect(read.failures.count == 1)
        guard case .fileChangedWhileRead(let name, let atOpen, _, let bytesRead) = failure else {
            Issue.record("another failure than a change")
            return
        }
        #expect(name == file && atOpen == Self.big.utf8.count)
        #expect(failure.description.hasPrefix("\(file): the file changed while it was read: it was \(atOpen) bytes when opened and "))
        #expect(failure.description.hasSuffix(" and \(bytesRead) bytes were read; what was read may mix two versions"))
        // What was read began with the first corpus; how much of the second it holds depends on how
        // far ahead the reader was when the copy landed (a read-ahead may have all of the first),
        // which is why the file fails whatever was read.
        #expect(read.ids.contains("a0"))
    }

    /// Another file renamed over the path mid-read (`mv`): the open descriptor still reads the
    /// one file it opened, whole, so nothing failed.
    @Test(arguments: Way.allCases)
    func aFileRenamedOverWhileReadIsReadWhole(way: Way) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("corpus.jsonl", text: Self.big)
        let other = try directory.write("other.jsonl", text: threadLines(id: "t1", messages: 10, prefix: "b"))
        let read = try Self.read(file, way, changingAfter: 100) {
            guard rename(other, file) == 0 else { throw POSIXError(.EIO) }
        }
        #expect(read.failures == [])
        #expect(read.ids == (0..<40_000).map { "a\($0)" })
    }
}
