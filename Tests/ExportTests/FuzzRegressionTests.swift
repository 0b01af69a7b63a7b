import Foundation
import Testing
@testable import Export

/// Replays the inputs in FuzzCorpus/ through the fuzz harness (FuzzHarness.swift, a link to
/// Fuzz/FuzzHarness.swift, the same code scripts/fuzz builds): the line splitter under the input's
/// chunk plan against a reference splitter, the JSON parser and the record decoder on every line,
/// then the whole reader on the payload as a file. Each input must break no invariant and every
/// non-empty line must be counted, as a record, a bad line or an unknown type.
///
/// FuzzCorpus/ holds hand-written edge cases and any input the fuzzer found (named as libFuzzer
/// saved it); an input is a 4-byte plan header, then JSON Lines (see `FuzzPlan`). The bytes are
/// synthetic, never words from a real export.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzCorpus").path

    /// The inputs, by name, in byte order.
    static let inputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
    }

    /// What the reader makes of each hand-written input: records, bad lines, unknown types.
    /// Found inputs are not listed; for them, being counted without breaking an invariant is the test.
    static let expected: [String: (records: Int, badLines: Int, unknown: Int)] = [
        "chunks-4-2-7-crlf": (4, 0, 0),
        "chunks-group-thread": (4, 0, 1),
        "chunks-line-too-long": (2, 4, 0),
        "chunks-one-byte": (4, 0, 0),
        "chunks-read-failure": (32, 0, 0),
        "crlf": (4, 2, 0),
        "deep-nesting": (2, 4, 0),
        "huge-numbers": (4, 8, 0),
        "invalid-utf8": (2, 10, 0),
        "lone-surrogates": (6, 10, 0),
        "nul-bytes": (3, 5, 1),
    ]

    /// Hand-written inputs whose last line, without a line end, is not JSON: read as a file, the
    /// input ends inside a record there (a failure), and that line is counted nowhere.
    static let endInsideARecord: Set<String> = ["chunks-line-too-long"]

    @Test func everyHandWrittenInputIsThere() {
        #expect(Set(Self.expected.keys).isSubset(of: Set(Self.inputs)))
    }

    @Test(arguments: inputs)
    func replaysAndCountsEveryLine(name: String) throws {
        let input = try Self.bytes(name)
        let report = input.withUnsafeBytes { FuzzHarness().run($0) }
        #expect(report.violations == [])
        // The splitter pass: each line handed out was exactly one of these.
        #expect(report.lines == report.records + report.unknownTypes + report.invalidJSON + report.notRecords)
        // The reader pass: something was read and counted.
        let stats = report.reader
        #expect(stats.lines >= 1)
        #expect(stats.lines == stats.records + stats.badLines + stats.unknownTypes.values.reduce(0, +))
        if let expected = Self.expected[name] {
            #expect(stats.records == expected.records)
            #expect(stats.badLines == expected.badLines)
            #expect(stats.unknownTypes.values.reduce(0, +) == expected.unknown)
            #expect(report.readerFileFailed == Self.endInsideARecord.contains(name))
        }
    }

    /// Plan headers: one chunk, single bytes, 3/5/7 bytes, 1021/1/13 bytes, a read failure after
    /// five chunks, and a small maximum line length (3 * 32 + 5 + 1 = 102 bytes).
    static let plans: [[UInt8]] = [[0, 0, 0, 0], [3, 0, 0, 0], [1, 2, 4, 6], [2, 255, 0, 3], [1 | 4, 0, 1, 5], [0x39, 5, 3, 9]]

    /// Every input's payload under every plan, since a bug at a chunk boundary shows only under
    /// some chunkings: the splitter must agree with the reference each time.
    @Test(arguments: inputs)
    func replaysUnderEveryChunking(name: String) throws {
        let payload = try Self.bytes(name).dropFirst(FuzzPlan.headerSize)
        let harness = FuzzHarness()
        for plan in Self.plans {
            let report = (plan + payload).withUnsafeBytes { harness.run($0) }
            #expect(report.violations == [], "plan \(plan)")
        }
    }

    /// A 1 MiB line (larger than the fuzzer's inputs, so written here rather than stored), whole,
    /// across chunks, and over a small maximum, between two ordinary lines.
    @Test(arguments: [[0, 0, 0, 0], [2, 255, 254, 253], [1, 15, 14, 13], [0x39, 5, 3, 9]] as [[UInt8]])
    func oneMebibyteLine(plan: [UInt8]) {
        let thread = #"{"type":"thread","id":"t1","agent":"A"}"#
        let long = #"{"type":"message","thread":"t1","id":"m1","from":"person","text":""#
            + String(repeating: "x", count: 1 << 20) + #""}"#
        let after = #"{"type":"message","thread":"t1","id":"m2","from":"person"}"#
        let input = plan + Array((thread + "\n" + long + "\r\n" + after + "\n").utf8)
        let report = input.withUnsafeBytes { FuzzHarness().run($0) }
        #expect(report.violations == [])
        #expect(report.reader.records == 3)
        #expect(report.reader.badLines == 0)
        // Under the small maximum (102 bytes) the splitter reports the long line and hands out the others.
        let small = plan[0] & 0x08 != 0
        #expect(report.records == (small ? 2 : 3))
        #expect(report.tooLong == (small ? 1 : 0))
    }

    /// The reference splitter itself, on a case worked by hand.
    @Test func referenceSplitterOnAKnownCase() {
        let payload = Array("a\r\n\nbb\r\r\n\r\nccc".utf8)
        let steps = payload.withUnsafeBytes { FuzzHarness.referenceSteps($0, plan: FuzzPlan(header: [0x08 | 0x10, 1, 0, 0])) }
        // Maximum line length 1 * 32 + 1 + 1 = 34: nothing is too long.
        // The last line, "ccc" without a line end, is not JSON: the input ended inside a record.
        #expect(steps == [.line(number: 1, bytes: Array("a".utf8)), .line(number: 3, bytes: Array("bb\r".utf8)),
                          .failed, .end])
        // A last line without a line end that is whole JSON, or blank, is handed out as ever.
        for (last, line) in [("[7]\r", "[7]"), (" \t", " \t")] {
            let whole = Array(("a\r\n\nbb\r\r\n\r\n" + last).utf8)
            let wholeSteps = whole.withUnsafeBytes { FuzzHarness.referenceSteps($0, plan: FuzzPlan(header: [0x08 | 0x10, 1, 0, 0])) }
            #expect(wholeSteps == [.line(number: 1, bytes: Array("a".utf8)), .line(number: 3, bytes: Array("bb\r".utf8)),
                                   .line(number: 5, bytes: Array(line.utf8)), .end])
        }
        let failing = payload.withUnsafeBytes { FuzzHarness.referenceSteps($0, plan: FuzzPlan(header: [1 | 4, 2, 2, 2])) }
        // Chunks of 3 bytes, failing after two: "a\r\n\nbb" is delivered, "bb" is an unfinished line.
        #expect(failing == [.line(number: 1, bytes: Array("a".utf8)), .failed, .end])
    }
}
