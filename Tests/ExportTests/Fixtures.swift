import Foundation
import Testing
@testable import Export
import TestSupport

/// One zstd frame of `text`, made by the zstd command-line tool (with its default checksum).
func zstdFrame(_ text: String, level: Int = 3) throws -> [UInt8] {
    let directory = try TemporaryDirectory(prefix: "export-tests")
    let input = try directory.write("frame.jsonl", text: text)
    let zstd = try Subprocess.run("/usr/bin/zstd", ["-q", "-\(level)", "-c", input])
    guard zstd.status == 0 else { throw FixtureError.zstdFailed }
    return Array(zstd.standardOutput)
}

/// A skippable zstd frame (magic 0x184D2A50 + `nibble`, little-endian) holding `payload`.
func skippableFrame(_ payload: [UInt8], nibble: UInt8 = 0) -> [UInt8] {
    let size = UInt32(payload.count)
    return [0x50 | nibble, 0x2A, 0x4D, 0x18,
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)] + payload
}

enum FixtureError: Error { case zstdFailed }

/// Reads every event of a corpus.
func readEvents(_ paths: [String]) throws -> (events: [ReaderEvent], stats: CorpusStats) {
    let reader = try CorpusReader(paths: paths)
    let events = reader.readAll()
    return (events, reader.stats)
}

extension ReaderEvent {
    var record: ExportRecord? {
        if case .record(let record, _) = self { return record }
        return nil
    }
    var location: Export.SourceLocation? {
        switch self {
        case .record(_, let location): return location
        case .badLine(let bad): return bad.location
        case .fileFailed: return nil
        }
    }
    var badLine: BadLine? {
        if case .badLine(let bad) = self { return bad }
        return nil
    }
    var failure: ExportError? {
        if case .fileFailed(let error) = self { return error }
        return nil
    }
    var message: MessageRecord? {
        if case .record(.message(let message), _) = self { return message }
        return nil
    }
    var thread: ThreadRecord? {
        if case .record(.thread(let thread), _) = self { return thread }
        return nil
    }
    var header: ExportHeader? {
        if case .record(.header(let header), _) = self { return header }
        return nil
    }
}

/// The message ids delivered, in order (ids are not words, so they may be compared and shown).
func messageIDs(_ events: [ReaderEvent]) -> [String] {
    events.compactMap { $0.message?.id }
}

/// A thread line and `count` person messages for it, ids `prefix0`, `prefix1`, …
func threadLines(id: String, messages count: Int, prefix: String = "m") -> String {
    var text = #"{"type":"thread","id":"\#(id)","agent":"Coach","about":"runs","locale":"en-US"}"# + "\n"
    for index in 0..<count {
        text += #"{"type":"message","thread":"\#(id)","id":"\#(prefix)\#(index)","at":"2026-09-01T07:00:00Z","from":"person","text":"hello there \#(index)"}"# + "\n"
    }
    return text
}

/// Parses a single line in its own file and returns the one event it produced (after a thread
/// line for `t1` so messages are accepted).
func singleEvent(_ line: String, afterThread: Bool = true) throws -> ReaderEvent? {
    let directory = try TemporaryDirectory()
    var text = afterThread ? #"{"type":"thread","id":"t1","agent":"Coach"}"# + "\n" : ""
    text += line + "\n"
    let file = try directory.write("one.jsonl", text: text)
    let events = try readEvents([file]).events
    return afterThread ? events.dropFirst().first : events.first
}
