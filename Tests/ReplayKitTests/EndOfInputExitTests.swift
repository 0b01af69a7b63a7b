import Foundation
import Testing
@testable import ReplayKit
@testable import Replay
import TestSupport

/// Input that ends inside a record, through the built binary: a plain file, standard input from
/// a writer killed mid-line, and a `.jsonl.zst` are each exit 3, named with the line and the byte
/// where the data ended, on stderr and in `corpus.errors`, the rest of the corpus read; a whole
/// last record without its line end is exit 0. No message quotes the cut line.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct EndOfInputExitTests {
    /// Two made-up threads of two messages each.
    static let corpus = CorpusRefusalTests.threads(2, prefix: "t")

    /// A made-up message line; its words are looked for in everything the run says and writes.
    static let lastLine = #"{"type":"message","thread":"t2","id":"m3","at":"2026-09-01T07:02:00Z","from":"person","text":"zeta eta theta"}"#
    static let words = ["zeta", "eta theta", "alpha", "beta"]

    struct Run {
        var status: Int32
        var said: String
        var corpus: [String: Any]
        var reportText: String
        var errors: [String] { corpus["errors"] as? [String] ?? [] }
        func int(_ key: String) -> Int? { corpus[key] as? Int }
    }

    /// Runs the built `replay` (sandboxed, as a person runs it) through `/bin/sh -c script`, with
    /// `$REPLAY` the binary and `$OUT` the output directory; its key kept inside `directory`.
    static func replay(_ script: String, in directory: TemporaryDirectory) throws -> Run {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory.path("state")
        environment["REPLAY_RUN_KEY"] = nil
        environment["REPLAY"] = BuiltProducts.executable("replay")
        environment["OUT"] = directory.path("out")
        let run = try Subprocess.run("/bin/sh", ["-c", script], environment: environment, directory: directory.path)
        let text = try String(contentsOfFile: directory.path("out/report.json"), encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return Run(status: run.status, said: run.errors, corpus: try #require(report["corpus"] as? [String: Any]), reportText: text)
    }

    static func expectNoWords(_ run: Run, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in words {
            #expect(!run.said.contains(word) && !run.reportText.contains(word), "a word of the corpus was shown", sourceLocation: sourceLocation)
        }
    }

    /// A plain file cut inside its last record, before a whole file: exit 3, the cut file named
    /// with line 7 and its size, the whole file still read.
    @Test func aPlainFileCutInsideARecordIsExitThree() throws {
        let directory = try TemporaryDirectory(prefix: "end-of-input")
        let cutText = Self.corpus + String(Self.lastLine.prefix(70))
        try directory.write("cut.jsonl", text: cutText)
        try directory.write("whole.jsonl", text: CorpusRefusalTests.threads(1, prefix: "w"))
        let run = try Self.replay(#"exec "$REPLAY" --dry-run --job chips --out "$OUT" cut.jsonl whole.jsonl"#, in: directory)
        let message = "cut.jsonl: the input ends inside a record: line 7 has no line end and is not valid JSON, and the data ends at byte \(cutText.utf8.count) (cut short?)"
        #expect(run.status == ExitCode.input.rawValue, "\(run.said)")
        #expect(run.said.contains("replay: " + message))
        #expect(run.errors == [message])
        #expect(run.int("threads") == 3 && run.int("messages") == 6 && run.int("bad_lines") == 0 && run.int("lines") == 9)
        Self.expectNoWords(run)
    }

    /// Standard input from a writer killed (SIGKILL) in the middle of a line: exit 3, `<stdin>`
    /// named with the line and the byte the stream ended at.
    @Test func standardInputFromAWriterKilledMidLineIsExitThree() throws {
        let directory = try TemporaryDirectory(prefix: "end-of-input")
        try directory.write("whole.jsonl", text: Self.corpus)
        try directory.write("last.jsonl", text: Self.lastLine + "\n")
        let run = try Self.replay(#"sh -c 'cat whole.jsonl; head -c 50 last.jsonl; kill -KILL $$; cat last.jsonl' | "$REPLAY" --dry-run --job chips --out "$OUT" -"#,
                                  in: directory)
        let message = "<stdin>: the input ends inside a record: line 7 has no line end and is not valid JSON, and the data ends at byte \(Self.corpus.utf8.count + 50) (cut short?)"
        #expect(run.status == ExitCode.input.rawValue, "\(run.said)")
        #expect(run.said.contains("replay: " + message))
        #expect(run.errors == [message])
        #expect(run.int("threads") == 2 && run.int("messages") == 4 && run.int("bad_lines") == 0)
        Self.expectNoWords(run)
    }

    /// A `.jsonl.zst` of whole frames whose lines stop inside a record: exit 3, the byte of the
    /// decompressed data named.
    @Test func aCompressedFileWhoseLinesAreCutIsExitThree() throws {
        let directory = try TemporaryDirectory(prefix: "end-of-input")
        let cutText = Self.corpus + String(Self.lastLine.prefix(90))
        let plain = try directory.write("cut.jsonl", text: cutText)
        let packed = try Subprocess.run("/usr/bin/zstd", ["-q", "-c", plain])
        #expect(packed.status == 0)
        try directory.write("cut.jsonl.zst", Array(packed.standardOutput))
        let run = try Self.replay(#"exec "$REPLAY" --dry-run --job chips --out "$OUT" cut.jsonl.zst"#, in: directory)
        let message = "cut.jsonl.zst: the input ends inside a record: line 7 has no line end and is not valid JSON, and the decompressed data ends at byte \(cutText.utf8.count) (cut short?)"
        #expect(run.status == ExitCode.input.rawValue, "\(run.said)")
        #expect(run.said.contains("replay: " + message))
        #expect(run.errors == [message])
        Self.expectNoWords(run)
    }

    /// `replay flywheel` reads through the same reader (outlines, read ahead): a cut file is exit 3 there too.
    @Test func theFlywheelFailsACutFileToo() throws {
        let directory = try TemporaryDirectory(prefix: "end-of-input")
        let cutText = Self.corpus + String(Self.lastLine.prefix(70))
        let cut = try directory.write("cut.jsonl", text: cutText)
        var said = ""
        let code = ReplayTool.main(["flywheel", "--out", directory.path("out"), cut], diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .input)
        #expect(said.contains("replay: \(cut): the input ends inside a record: line 7 has no line end and is not valid JSON, and the data ends at byte \(cutText.utf8.count) (cut short?)"))
        #expect(said.contains("flywheel over 2 threads, 4 messages, 0 bad lines"))
    }

    /// A whole last record without its line end, plain and on standard input: exit 0, every
    /// message read, nothing failed and nothing bad.
    @Test(arguments: [false, true])
    func aWholeLastRecordWithoutALineEndIsExitZero(standardInput: Bool) throws {
        let directory = try TemporaryDirectory(prefix: "end-of-input")
        try directory.write("c.jsonl", text: Self.corpus + Self.lastLine)
        let run = try Self.replay(standardInput
                                  ? #"cat c.jsonl | "$REPLAY" --dry-run --job chips --out "$OUT" -"#
                                  : #"exec "$REPLAY" --dry-run --job chips --out "$OUT" c.jsonl"#, in: directory)
        #expect(run.status == ExitCode.success.rawValue, "\(run.said)")
        #expect(run.errors == [])
        #expect(run.int("threads") == 2 && run.int("messages") == 5 && run.int("bad_lines") == 0 && run.int("lines") == 7)
    }
}
