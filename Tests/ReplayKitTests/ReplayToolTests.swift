import Audit
import Confinement
import Engine
import Foundation
import Llama
import Testing
@testable import ReplayKit
@testable import Replay
import Privacy
import TestSupport

/// The command as a user runs it: real files, the real default model, exit codes.
@Suite(.serialized) struct ReplayToolTests {
    static let sample: String = {
        // #filePath is Tests/ReplayKitTests/ReplayToolTests.swift; the sample is at the top.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("corpora/sample.jsonl.zst").path
    }()

    @Test func realModelOverTheBundledSample() throws {
        let outOwner = try! TemporaryDirectory(prefix: "replay-test")
        let out = outOwner.path
        defer { withExtendedLifetime(outOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: out) }
        var said = ""
        let code = ReplayTool.main(["--job", "chips", "--limit", "2", "--batch", "4", "--flywheel", "--out", out, Self.sample],
                                   diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .success)
        let json = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(report["schema"] as? String == "replay.report/1")
        let model = try #require(report["model"] as? [String: Any])
        // The model file's SHA-256, every byte of it, as coreutils' sha256sum computes it.
        let modelPath = try #require(DefaultModel.path())
        let sum = try Subprocess.run(tool: "sha256sum", [modelPath])
        let expected = try #require(sum.output.split(separator: " ").first.map(String.init))
        #expect(model["sha256"] as? String == expected)
        let chips = try #require((report["jobs"] as? [String: Any])?["chips"] as? [String: Any])
        let eligible = try #require(chips["eligible"] as? Int)
        let asked = try #require(chips["asked"] as? Int)
        #expect(eligible > 0 && asked == eligible)
        let tokens = try #require(chips["tokens"] as? [String: Any])
        #expect((tokens["in"] as? Int ?? 0) > 50 * asked)
        #expect(FileManager.default.fileExists(atPath: out + "/report.md"))
        #expect(FileManager.default.fileExists(atPath: out + "/dashboard.html"))
        #expect(said.contains("chips: \(eligible) eligible"))
    }

    @Test func aTruncatedCorpusIsAnInputErrorAfterCountingWhatCameBefore() throws {
        let directoryOwner = try! TemporaryDirectory(prefix: "replay-test")
        let directory = directoryOwner.path
        defer { withExtendedLifetime(directoryOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        let cut = directory + "/cut.jsonl.zst"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        var said = ""
        let code = ReplayTool.main(["--dry-run", "--out", directory + "/out", cut], diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(code == .input)
        #expect(said.contains(cut) && said.contains("truncated") && said.contains("byte"))
        let json = try String(contentsOfFile: directory + "/out/report.json", encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let corpus = try #require(report["corpus"] as? [String: Any])
        #expect((corpus["threads"] as? Int ?? 0) > 10)
        #expect((corpus["errors"] as? [String])?.count == 1)
    }

    /// A dry run checks the model file's metadata and loads nothing: a file that is not a model
    /// is named as the run's problem, and the model's own file passes as before.
    @Test func aDryRunChecksTheModelFileWithoutLoadingIt() throws {
        let directoryOwner = try TemporaryDirectory(prefix: "replay-test")
        let directory = directoryOwner.path
        let notModel = directory + "/not-a-model.gguf"
        FileManager.default.createFile(atPath: notModel, contents: Data("{}\n".utf8))
        var said = ""
        _ = ReplayTool.main(["--dry-run", "--limit", "5", "--model", notModel, "--out", directory + "/bad", Self.sample],
                            diagnostics: { said += $0 + "\n" }, sandboxed: false)
        #expect(said.contains(notModel) && said.contains("not a GGUF file"), "\(said)")
        let bad = try String(contentsOfFile: directory + "/bad/report.json", encoding: .utf8)
        let badRun = try #require((try JSONSerialization.jsonObject(with: Data(bad.utf8)) as? [String: Any])?["run"] as? [String: Any])
        #expect((badRun["model_unavailable"] as? String)?.contains(notModel) == true)
        guard let model = DefaultModel.path() else { return }
        said = ""
        #expect(ReplayTool.main(["--dry-run", "--limit", "5", "--model", model, "--out", directory + "/good", Self.sample],
                                diagnostics: { said += $0 + "\n" }, sandboxed: false) == .success)
        #expect(!said.contains("model_unavailable"))
    }

    @Test func missingInputsAndModelsHaveTheirOwnExitCodes() {
        var said = ""
        #expect(ReplayTool.main(["--dry-run", "/nonexistent/corpus.jsonl.zst"], diagnostics: { said += $0 }, sandboxed: false) == .input)
        #expect(said.contains("/nonexistent/corpus.jsonl.zst"))
        said = ""
        let outOwner = try! TemporaryDirectory(prefix: "replay-test")
        let out = outOwner.path
        defer { withExtendedLifetime(outOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(ReplayTool.main(["--model", "/nonexistent/model.gguf", "--out", out, Self.sample], diagnostics: { said += $0 }, sandboxed: false) == .model)
        #expect(said.contains("/nonexistent/model.gguf"))
    }

    @Test func withoutAModelTheRunCompletesAndEveryJobFallsBack() throws {
        let outOwner = try! TemporaryDirectory(prefix: "replay-test")
        let out = outOwner.path
        defer { withExtendedLifetime(outOwner) {} }
        defer { try? FileManager.default.removeItem(atPath: out) }
        let code = ReplayTool.main(["--model", "/nonexistent/model.gguf", "--limit", "20", "--out", out, Self.sample],
                                   diagnostics: { _ in }, sandboxed: false)
        #expect(code == .model)
        let json = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let run = try #require(report["run"] as? [String: Any])
        #expect((run["model_unavailable"] as? String)?.contains("/nonexistent/model.gguf") == true)
        // Sizes are the phone's, whatever model answers or fails to load.
        #expect((run["token_sizes"] as? String)?.hasPrefix("phone tokens") == true)
        let chips = try #require((report["jobs"] as? [String: Any])?["chips"] as? [String: Any])
        let eligible = try #require(chips["eligible"] as? Int)
        #expect(eligible > 0)
        #expect((chips["fallbacks"] as? [String: Int])?["model_unavailable"] == eligible)
        #expect(chips["answered"] as? Int == 0 && chips["asked"] as? Int == 0)
    }
}
