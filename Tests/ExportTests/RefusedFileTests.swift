import Foundation
import Testing
@testable import Export
import TestSupport

/// Files the reader refuses, or fails, as a whole: another export version, a `.zst` name on
/// something that is not zstd, lines without a single record. Each is a `fileFailed` event that
/// names the file, and the next file is still read.
@Suite struct RefusedFileTests {
    /// A file whose `export` line declares another version: one failure naming the file and the
    /// version, and nothing of it counted (no line, record, thread, message or bad line).
    @Test(arguments: [
        (#"{"type":"export","version":2}"#, 2),
        (#"{"type":"export","version":0,"created":"2026-10-02T00:00:00Z"}"#, 0),
        (#"{"type":"export","version":-1}"#, -1),
        // A version-2 header's other fields need not be version 1's.
        (#"{"type":"export","version":37,"created":5,"anonymised":"yes"}"#, 37),
    ])
    func anotherExportVersionRefusesTheWholeFile(header: String, version: Int) throws {
        let directory = try TemporaryDirectory()
        let refused = try directory.write("v.jsonl", text: header + "\n" + threadLines(id: "t1", messages: 2)
                                          + "not json\n" + #"{"type":"reaction"}"# + "\n")
        let later = try directory.write("later.jsonl", text: threadLines(id: "t2", messages: 1, prefix: "z"))
        let (events, stats) = try readEvents([refused, later])
        let failure = try #require(events.first?.failure)
        #expect(failure == .exportVersionIsNotSupported(file: refused, version: version))
        #expect(failure.description.contains(refused) && failure.description.contains("version \(version)"))
        #expect(events.compactMap(\.failure).count == 1)
        #expect(events.compactMap(\.badLine).isEmpty)
        #expect(messageIDs(events) == ["z0"])
        #expect(stats.files == 2)
        #expect(stats.threads == 1 && stats.messages == 1 && stats.badLines == 0)
        #expect(stats.lines == 2 && stats.records == 2 && stats.unknownTypes.isEmpty)
        #expect(stats.compressedBytes == threadLines(id: "t2", messages: 1, prefix: "z").utf8.count)
    }

    /// The same inside zstd: the version is read from the decompressed first line.
    @Test func anotherExportVersionInAZstdFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("v2.jsonl.zst", try zstdFrame(#"{"type":"export","version":2}"# + "\n" + threadLines(id: "t1", messages: 3)))
        let (events, stats) = try readEvents([file])
        #expect(events.compactMap(\.failure) == [.exportVersionIsNotSupported(file: file, version: 2)])
        #expect(events.count == 1)
        #expect(stats.threads == 0 && stats.messages == 0 && stats.badLines == 0 && stats.lines == 0)
    }

    /// An `export` line anywhere but first is a bad line, whatever its version: it declares nothing
    /// for the lines before it.
    @Test func aLaterExportLineIsABadLineWhateverItsVersion() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("late.jsonl", text: threadLines(id: "t1", messages: 1) + #"{"type":"export","version":2}"# + "\n")
        let (events, stats) = try readEvents([file])
        #expect(events.compactMap(\.failure).isEmpty)
        #expect(events.last?.badLine?.reason == "an export line must be the first line of its file")
        #expect(stats.threads == 1 && stats.messages == 1 && stats.badLines == 1)
    }

    /// A `.zst` name on something that is not zstd: refused before a line is read, named with the
    /// hex of its first four bytes and a guess, never quoting it.
    @Test(arguments: [
        (Array("<!DOCTYPE html><html><body>Sign in to continue</body></html>\n".utf8), LeadingBytes.Kind.markup, "3c 21 44 4f"),
        (Array("  <html><head><title>404 Not Found</title></head></html>\n".utf8), .markup, "20 20 3c 68"),
        ([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4B, 0x4C], .gzip, "1f 8b 08 00"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04], .xz, "fd 37 7a 58"),
        (Array("BZh91AY&SY".utf8), .bzip2, "42 5a 68 39"),
        ([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00], .zip, "50 4b 03 04"),
        (Array(#"{"type":"thread","id":"t1","agent":"Coach"}"#.utf8) + [0x0A], .json, "7b 22 74 79"),
        (Array("Sorry, the export is not ready yet\n".utf8), .text, "53 6f 72 72"),
        ([0x00, 0x13, 0xC7, 0x9A, 0xFE, 0x41, 0x0B, 0x77, 0x21, 0x88, 0x5D, 0x02], .unknown, "00 13 c7 9a"),
        ([0x28, 0xB5, 0x2F], .unknown, "28 b5 2f"),
        ([], .empty, ""),
    ])
    func aZstdNameOnSomethingElseIsRefused(bytes: [UInt8], kind: LeadingBytes.Kind, hex: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("export.jsonl.zst", bytes)
        let later = try directory.write("later.jsonl", text: threadLines(id: "t2", messages: 1, prefix: "z"))
        let (events, stats) = try readEvents([file, later])
        let failure = try #require(events.first?.failure)
        let leading = LeadingBytes(bytes)
        #expect(failure == .compressedFileIsNotZstd(file: file, leadingBytes: leading))
        #expect(leading.kind == kind)
        #expect(leading.hex == hex)
        let said = failure.description
        #expect(said.hasPrefix(file + ": not zstd data"))
        #expect(said.contains(kind == .empty ? "is empty (0 bytes)" : "starts with \(hex), "))
        for word in ["DOCTYPE", "html", "Sign", "Found", "type", "thread", "Coach", "Sorry", "export is"] {
            #expect(!said.dropFirst(file.count).contains(word), "the description quotes the file")
        }
        #expect(events.compactMap(\.badLine).isEmpty)
        #expect(messageIDs(events) == ["z0"])
        #expect(stats.files == 2 && stats.threads == 1 && stats.badLines == 0 && stats.lines == 2)
    }

    @Test(arguments: [
        (LeadingBytes([0x1F, 0x8B, 0x08, 0x00]), "starts with 1f 8b 08 00, gzip's magic (a gzip file?)"),
        (LeadingBytes(Array("<!DOCTYPE".utf8)), "starts with 3c 21 44 4f, text beginning with '<' (an HTML or XML page, such as an error page saved in its place?)"),
        (LeadingBytes([0xEF, 0xBB, 0xBF, 0x3C]), "starts with ef bb bf 3c, text beginning with '<' (an HTML or XML page, such as an error page saved in its place?)"),
        (LeadingBytes([]), "is empty (0 bytes)"),
        (LeadingBytes([0x00, 0x01, 0x02, 0x03, 0x04, 0x05]), "starts with 00 01 02 03, no format this reader knows"),
    ])
    func leadingBytesReadAsSentences(leading: LeadingBytes, sentence: String) {
        #expect(leading.description == sentence)
    }

    /// A real gzip file named `.jsonl.zst` (as a web server's compressed download might be saved).
    @Test func aGzipFileNamedZstIsRefused() throws {
        let directory = try TemporaryDirectory()
        let plain = try directory.write("t.jsonl", text: threadLines(id: "t1", messages: 12))
        let gzip = try Subprocess.run("/usr/bin/gzip", ["-c", plain])
        #expect(gzip.status == 0)
        let file = try directory.write("t.jsonl.zst", Array(gzip.standardOutput))
        let (events, stats) = try readEvents([file])
        #expect(events.count == 1)
        #expect(events.first?.failure?.description.contains("gzip's magic") == true)
        #expect(stats.badLines == 0 && stats.threads == 0)
    }

    /// A name without `.zst` is told by its magic: zstd data named `.jsonl` is still read.
    @Test func aPlainNameIsToldByItsMagic() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("really-zstd.jsonl", try zstdFrame(threadLines(id: "t1", messages: 1)))
        #expect(messageIDs(try readEvents([file]).events) == ["m0"])
    }

    /// A file whose every line is bad or of an unknown type is not an export: its bad lines are
    /// counted as read, then a failure at its end names it; the next file is still read.
    @Test(arguments: [
        String(repeating: "<p>not an export</p>\n", count: 12),
        String(repeating: #"{"type":"log","level":"info"}"# + "\n", count: 3) + "not json\n",
        "\n\n" + #"{"type":"message","thread":"t1","id":"m1","from":"person","text":"x"}"# + "\n",
        // Whole JSON, not a record: a bad line, not the input ending inside a record.
        "[1, 2]",
    ])
    func aFileWithoutOneRecordFailsAtItsEnd(text: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("none.jsonl", text: text)
        let later = try directory.write("later.jsonl", text: threadLines(id: "t2", messages: 1, prefix: "z"))
        let (events, stats) = try readEvents([file, later])
        let lines = text.split(separator: "\n").count
        let failureIndex = try #require(events.firstIndex { $0.failure != nil })
        #expect(events[failureIndex].failure == .fileHoldsNoRecord(file: file, lines: lines))
        #expect(events[..<failureIndex].allSatisfy { $0.badLine != nil })
        #expect(messageIDs(events) == ["z0"])
        #expect(events.compactMap(\.failure).count == 1)
        #expect(stats.threads == 1 && stats.lines == lines + 2)
        let said = events[failureIndex].failure!.description
        #expect(said.hasPrefix(file + ": ") && said.contains("valid record"))
    }

    /// One record is enough, and a file without lines is no error (an empty shard).
    @Test(arguments: [
        #"{"type":"export","version":1}"# + "\n" + "not json\n",
        "not json\n" + threadLines(id: "t1", messages: 0),
        "",
        "\n\n\r\n",
    ])
    func aFileWithARecordOrWithoutLinesIsNoFailure(text: String) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("some.jsonl", text: text)
        let (events, _) = try readEvents([file])
        #expect(events.compactMap(\.failure).isEmpty)
    }
}
