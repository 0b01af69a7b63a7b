import Foundation
import Testing
@testable import ReplayKit
@testable import Replay
import TestSupport

/// Files of a corpus refused whole, through the command: another export version, a `.zst` name
/// on something else, not one record. Each is exit 3, named on stderr and in `corpus.errors`,
/// and the rest of the corpus is read and reported.
@Suite(.serialized) struct CorpusRefusalTests {
    /// `count` made-up threads of two messages each, ids `<prefix>1`, `<prefix>2`, …
    static func threads(_ count: Int, prefix: String) -> String {
        (1...count).map { n in
            #"{"type":"thread","id":"\#(prefix)\#(n)","agent":"Coach","locale":"en-US"}"# + "\n"
                + #"{"type":"message","thread":"\#(prefix)\#(n)","id":"m1","at":"2026-09-01T07:00:00Z","from":"person","text":"alpha"}"# + "\n"
                + #"{"type":"message","thread":"\#(prefix)\#(n)","id":"m2","at":"2026-09-01T07:01:00Z","from":"Coach","screen":[{"say":"beta?"}]}"# + "\n"
        }.joined()
    }

    struct Run {
        var code: ExitCode
        var said: String
        var corpus: [String: Any]
        var reportText: String
        func int(_ key: String) -> Int? { corpus[key] as? Int }
        var errors: [String] { corpus["errors"] as? [String] ?? [] }
    }

    static func replay(_ files: [String], in directory: TemporaryDirectory) throws -> Run {
        var said = ""
        let out = directory.path("out")
        let code = ReplayTool.main(["--dry-run", "--job", "chips", "--out", out] + files,
                                   diagnostics: { said += $0 + "\n" }, sandboxed: false)
        let text = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return Run(code: code, said: said, corpus: try #require(report["corpus"] as? [String: Any]), reportText: text)
    }

    /// A file of another version between two good ones: refused whole (none of its threads,
    /// messages or lines counted, no bad line), named with its version; the others are read.
    @Test(arguments: [2, 0, 99])
    func anotherExportVersionIsRefusedWholeAndExitsThree(version: Int) throws {
        let directory = try TemporaryDirectory(prefix: "refusal")
        let first = try directory.write("a.jsonl", text: Self.threads(2, prefix: "a"))
        let refused = try directory.write("b.jsonl", text: #"{"type":"export","version":\#(version)}"# + "\n"
                                          + Self.threads(5, prefix: "b") + "not json\n")
        let last = try directory.write("c.jsonl", text: Self.threads(1, prefix: "c"))
        let run = try Self.replay([first, refused, last], in: directory)
        #expect(run.code == .input)
        #expect(run.said.contains("\(refused): export version \(version) is not supported"))
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.contains(refused) == true && run.errors.first?.contains("version \(version)") == true)
        #expect(run.int("threads") == 3 && run.int("threads_replayed") == 3)
        #expect(run.int("messages") == 6)
        #expect(run.int("bad_lines") == 0)
        #expect(run.int("lines") == 9)
        #expect(run.int("files") == 3)
    }

    /// A made-up page such as a sign-in wall saves in place of a download.
    static let page = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n<body>Please sign in to download this export.</body></html>\n"

    /// A `.zst` name on something that is not zstd: exit 3, named with its first bytes in hex and a
    /// guess, nothing of it read as lines, and nothing of it quoted.
    @Test(arguments: [
        ("page", "starts with 3c 21 44 4f, text beginning with '<'"),
        ("gzip", "starts with 1f 8b 08 "),
        ("random", "starts with 9c 07 e1 00, no format this reader knows"),
        ("empty", "is empty (0 bytes)"),
        ("plain", "starts with 7b 22 74 79, text beginning with '{'"),
    ])
    func aZstNameOnSomethingElseIsAnInputError(kind: String, phrase: String) throws {
        let directory = try TemporaryDirectory(prefix: "refusal")
        let good = try directory.write("good.jsonl", text: Self.threads(2, prefix: "g"))
        let bytes: [UInt8]
        switch kind {
        case "page": bytes = Array(Self.page.utf8)
        case "gzip":
            let plain = try directory.write("plain.jsonl", text: Self.threads(4, prefix: "z"))
            bytes = Array(try Subprocess.run("/usr/bin/gzip", ["-c", plain]).standardOutput)
        case "random":
            var state: UInt64 = 0x9C07_E100
            bytes = [0x9C, 0x07, 0xE1, 0x00] + (0..<4000).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
        case "empty": bytes = []
        default: bytes = Array(Self.threads(4, prefix: "p").utf8)
        }
        let refused = try directory.write("export.jsonl.zst", bytes)
        let run = try Self.replay([refused, good], in: directory)
        #expect(run.code == .input)
        #expect(run.said.contains("\(refused): not zstd data, though the name ends in .zst: the file \(phrase)"))
        #expect(run.errors.count == 1 && run.errors.first?.contains(phrase) == true)
        #expect(run.int("bad_lines") == 0)
        #expect(run.int("threads") == 2 && run.int("messages") == 4)
        for word in ["DOCTYPE", "Sign in", "Please", "alpha", "beta"] {
            #expect(!run.said.contains(word) && !run.reportText.contains(word), "the refusal quotes the file")
        }
    }

    /// A file with lines and no record is no export: exit 3, named, its bad lines counted as read.
    @Test func aFileWithoutOneRecordIsAnInputError() throws {
        let directory = try TemporaryDirectory(prefix: "refusal")
        let good = try directory.write("good.jsonl", text: Self.threads(1, prefix: "g"))
        let page = try directory.write("page.jsonl", text: Self.page + String(repeating: "<p>x</p>\n", count: 9))
        let run = try Self.replay([page, good], in: directory)
        #expect(run.code == .input)
        #expect(run.said.contains("\(page): none of its 12 lines is a valid record"))
        #expect(run.errors.count == 1)
        #expect(run.int("bad_lines") == 12 && run.int("threads") == 1)
    }

    /// `replay flywheel` reads through the same reader: a refused file is exit 3 there too.
    @Test func theFlywheelRefusesTheSameFiles() throws {
        let directory = try TemporaryDirectory(prefix: "refusal")
        let refused = try directory.write("v2.jsonl", text: #"{"type":"export","version":2}"# + "\n" + Self.threads(1, prefix: "v"))
        var said = ""
        let code = ReplayTool.main(["flywheel", "--out", directory.path("out"), refused], diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .input)
        #expect(said.contains("flywheel over 0 threads") && said.contains("\(refused): export version 2"))
    }
}
