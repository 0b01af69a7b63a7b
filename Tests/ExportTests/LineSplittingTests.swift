import Foundation
import Testing
@testable import Export
import TestSupport

@Suite struct LineSplittingTests {
    @Test func crlfEmptyLinesAndAMissingLastNewline() throws {
        let directory = try TemporaryDirectory()
        let text = "\n" + #"{"type":"thread","id":"t1"}"# + "\r\n"
            + "\r\n\n"
            + #"{"type":"message","thread":"t1","id":"m1","from":"person","text":"a\r"}"# + "\r\n"
            + #"{"type":"message","thread":"t1","id":"m2","from":"person"}"#
        let file = try directory.write("crlf.jsonl", text: text)
        let (events, stats) = try readEvents([file])
        #expect(events.compactMap(\.location).map(\.line) == [2, 5, 6])
        #expect(messageIDs(events) == ["m1", "m2"])
        #expect(events.allSatisfy { $0.badLine == nil })
        #expect(stats.lines == 3)
        #expect(stats.records == 3)
    }

    @Test func lineNumbersRestartPerFile() throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("a.jsonl", text: threadLines(id: "t1", messages: 1))
        let b = try directory.write("b.jsonl", text: "\n" + threadLines(id: "t2", messages: 1))
        let (events, _) = try readEvents([a, b])
        #expect(events.compactMap(\.location) == [
            Export.SourceLocation(file: a, line: 1), Export.SourceLocation(file: a, line: 2),
            Export.SourceLocation(file: b, line: 2), Export.SourceLocation(file: b, line: 3),
        ])
        #expect(Export.SourceLocation(file: a, line: 2).description == a + ":2")
    }

    @Test func whitespaceOnlyLineIsBad() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("ws.jsonl", text: threadLines(id: "t1", messages: 1) + "   \t\n")
        let (events, _) = try readEvents([file])
        #expect(events.last?.badLine?.location.line == 3)
    }

    @Test func linesLongerThanAChunkAreJoined() throws {
        let directory = try TemporaryDirectory()
        let long = String(repeating: "word ", count: 100_000)  // 500 KB, several chunks
        let text = threadLines(id: "t1", messages: 1)
            + #"{"type":"message","thread":"t1","id":"long","from":"person","text":"\#(long)"}"# + "\n"
            + #"{"type":"message","thread":"t1","id":"after","from":"person"}"# + "\n"
        let file = try directory.write("long.jsonl", text: text)
        let zst = try directory.write("long.jsonl.zst", try zstdFrame(text))
        for path in [file, zst] {
            let (events, stats) = try readEvents([path])
            #expect(messageIDs(events) == ["m0", "long", "after"])
            #expect(events.compactMap(\.message).first { $0.id == "long" }?.text?.utf8Count == long.utf8.count)
            #expect(stats.badLines == 0)
        }
    }

    /// Over-long lines, with a small limit so the test stays fast: in one chunk, across chunks, and last.
    @Test(arguments: [false, true])
    func overlongLinesAreBadAndReadingGoesOn(newlineAtEnd: Bool) throws {
        let directory = try TemporaryDirectory()
        let ok = #"{"type":"thread","id":"t1"}"#
        let text = ok + "\n" + String(repeating: "x", count: 300) + "\n" + ok + "\n"
            + String(repeating: "y", count: 400_000) + "\n" + ok + "\n"
            + String(repeating: "z", count: 400_000) + (newlineAtEnd ? "\n" : "")
        let file = try directory.write("big.jsonl", text: text)
        let input = try InputFile(path: file, chunkSize: 128 << 10)
        let splitter = LineSplitter(source: PlainChunkSource(file: input), maximumLineLength: 200)
        var seen: [String] = []
        loop: while true {
            switch splitter.nextLine({ bytes, number in "\(number):\(bytes.count)" }) {
            case .line(let text): seen.append(text)
            case .tooLong(let number): seen.append("\(number):too long")
            case .failed: seen.append("failed")
            case .end: break loop
            }
        }
        #expect(seen == ["1:\(ok.utf8.count)", "2:too long", "3:\(ok.utf8.count)", "4:too long", "5:\(ok.utf8.count)", "6:too long"])
    }

    @Test func sixteenMebibyteLimitThroughTheReader() throws {
        let directory = try TemporaryDirectory()
        var bytes = Array(threadLines(id: "t1", messages: 1).utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: LineSplitter.maximumLineLength + 10)
        bytes += Array(("\n" + #"{"type":"message","thread":"t1","id":"after","from":"person"}"# + "\n").utf8)
        let file = try directory.write("huge.jsonl", bytes)
        let (events, stats) = try readEvents([file])
        let bad = try #require(events.compactMap(\.badLine).first)
        #expect(bad.location.line == 3)
        #expect(bad.reason == "the line is longer than 16 MiB")
        #expect(messageIDs(events) == ["m0", "after"])
        #expect(stats.lines == 4)
    }
}
