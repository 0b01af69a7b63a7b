import Foundation
import Testing
@testable import Corpus
import TestSupport

/// Runs a program and returns its standard output and exit status.
func run(_ executable: String, _ arguments: [String]) throws -> (output: Data, status: Int32) {
    let result = try Subprocess.run(executable, arguments)
    return (result.standardOutput, result.status)
}

@Suite("zstd writer")
struct ZstdWriterTests {
    @Test("a .zst corpus decompresses with zstd -dc to exactly the lines forEachLine gives")
    func decompressesToSameLines() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("corpus.jsonl.zst")
        let generator = CorpusGenerator(threads: 300, seed: 31)
        let summary = try generator.write(to: path)
        let (output, status) = try run("/usr/bin/zstd", ["-dc", path])
        #expect(status == 0)
        var expected: [String] = []
        generator.forEachLine { expected.append($0) }
        var decoded = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let endsWithNewline = output.last == 0x0A
        #expect(endsWithNewline)
        decoded.removeLast()
        #expect(decoded.count == expected.count)
        #expect(summary.lines == expected.count)
        let same = decoded == expected
        #expect(same)
        let compressed = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(compressed.prefix(4) == Data([0x28, 0xB5, 0x2F, 0xFD]))
        #expect(compressed.count < output.count / 3)
    }

    @Test("a plain path gets the lines as they are, newline-terminated")
    func plainOutput() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("corpus.jsonl")
        let generator = CorpusGenerator(threads: 60, seed: 4)
        _ = try generator.write(to: path)
        var expected = ""
        generator.forEachLine { expected += $0 + "\n" }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        let same = written == expected
        #expect(same)
    }

    @Test("the writer handles writes larger than its buffer and several frames' worth of data")
    func largeWrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("blob.zst")
        let writer = try ZstdWriter(path: path, level: 1)
        var expected = Data()
        for round in 0 ..< 5 {
            let chunk = Data((0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) })
            let written = chunk.withUnsafeBytes { bytes in Result { () throws(CorpusError) in try writer.write(bytes) } }
            try written.get()
            expected.append(chunk)
        }
        try writer.finish()
        let (output, status) = try run("/usr/bin/zstd", ["-dc", path])
        #expect(status == 0)
        #expect(output == expected)
    }

    @Test("errors read as sentences: unwritable path, writing after finish")
    func errors() throws {
        #expect(throws: CorpusError.self) { try ZstdWriter(path: "/nonexistent-dir/x.zst") }
        do {
            _ = try ZstdWriter(path: "/nonexistent-dir/x.zst")
        } catch {
            #expect(error.description.hasPrefix("Cannot open /nonexistent-dir/x.zst for writing: "))
        }
        let directory = try TemporaryDirectory()
        let writer = try ZstdWriter(path: directory.path("done.zst"))
        try writer.write(line: "{}")
        try writer.finish()
        #expect(throws: CorpusError.writerAlreadyFinished(path: directory.path("done.zst"))) { try writer.write(line: "{}") }
        #expect(throws: CorpusError.self) { try writer.finish() }
    }

    @Test("a 20,000-thread corpus streams to .zst and its summary matches the lines in the file")
    func largeCorpus() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("large.jsonl.zst")
        let summary = try CorpusGenerator(threads: 20_000, seed: 99).write(to: path)
        #expect(summary.threads == 20_000)
        #expect(summary.messages == summary.agentMessages + summary.personMessages)
        #expect(summary.lines == 1 + summary.threads + summary.messages + summary.unknownLines)
        // Count line types with the system's tools, so the whole corpus is never held here either.
        let script = "/usr/bin/zstd -dc '\(path)' | awk -F'\"' '{ n[$4]++ } END { for (type in n) print n[type], type }'"
        let (output, status) = try run("/bin/sh", ["-c", script])
        #expect(status == 0)
        var counts: [String: Int] = [:]
        for row in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = row.split(separator: " ")
            if parts.count == 2, let count = Int(parts[0]) { counts[String(parts[1])] = count }
        }
        #expect(counts["export"] == 1)
        #expect(counts["thread"] == summary.threads)
        #expect(counts["message"] == summary.messages)
        #expect(counts.values.reduce(0, +) == summary.lines)
    }
}

@Suite("Building blocks")
struct BuildingBlockTests {
    @Test("JSON strings are escaped so JSONSerialization reads them back exactly")
    func escaping() throws {
        let tricky = "quote \" backslash \\ newline \n tab \t bell \u{07} nul \u{00} é 日本 👍 \u{2028}"
        var json = JSONBuilder()
        json.beginObject()
        json.field("s", tricky)
        json.field("n", -3)
        json.field("b", false)
        json.field("a", strings: ["x", "y"])
        json.endObject()
        let object = try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any]
        #expect(object?["s"] as? String == tricky)
        #expect(object?["n"] as? Int == -3)
        #expect(object?["a"] as? [String] == ["x", "y"])
        #expect(json.text.hasPrefix(#"{"s":"#))
        #expect(json.text.hasSuffix(#","n":-3,"b":false,"a":["x","y"]}"#))
    }

    @Test("timestamps are ISO 8601 UTC", arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"), (1_788_304_931, "2026-09-01T23:22:11Z"), (951_782_400, "2000-02-29T00:00:00Z"),
    ])
    func timestamps(seconds: Int64, expected: String) {
        #expect(UTCTime(seconds: seconds).iso8601 == expected)
        #expect(UTCTime(year: 2026, month: 10, day: 2).iso8601 == "2026-10-02T00:00:00Z")
    }

    @Test("the generator is fixed: the same seed gives the same first draws on every platform")
    func generatorIsFixed() {
        var a = Xoshiro256(seed: 1)
        var b = Xoshiro256(seed: 1)
        let first = (0 ..< 4).map { _ in a.next() }
        #expect(first == (0 ..< 4).map { _ in b.next() })
        var c = Xoshiro256(seed: 2)
        #expect(first[0] != c.next())
        var d = Xoshiro256(seed: 3)
        let draws = (0 ..< 10_000).map { _ in d.below(6) }
        #expect(Set(draws) == Set(0 ..< 6))
    }

    @Test("thread ids are unique across many indices")
    func identifiers() {
        let ids = (0 ..< 100_000).map { ThreadComposer.identifier(index: $0, seed: 12_345) }
        #expect(Set(ids).count == ids.count)
    }
}
