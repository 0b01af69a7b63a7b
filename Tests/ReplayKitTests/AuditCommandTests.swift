import Audit
import Engine
import Foundation
import Testing
@testable import ReplayKit
import Privacy

/// `replay audit` as a command: its exit codes, and a clean replay over the sample corpus.
@Suite(.serialized) struct AuditCommandTests {
    /// Executables built next to the test bundle (`swift build` builds every executable target).
    static func built(_ name: String) -> String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
    }

    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// Whether the built replay takes part in audits: its usage offers `replay audit [--out DIR] …` and
    /// `--allow-unsandboxed` (the sandbox and the audit tap are wired), and a model is installed.
    static var replayTakesPartInAudits: Bool {
        guard DefaultModel.path() != nil else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: built("replay"))
        process.arguments = ["--help"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        guard (try? process.run()) != nil else { return false }
        let usage = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return usage.contains("replay audit [")
    }

    func audit(_ arguments: (String) -> [String], replay: String? = nil) -> (code: Int32, summary: String, directory: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audit-command-\(UUID().uuidString)").path
        var lines: [String] = []
        let code = AuditCommand.run(arguments(root + "/audit"), replayExecutable: replay) { lines.append($0) }
        return (code, lines.joined(separator: "\n"), root)
    }

    @Test func cleanCommandExitsZero() {
        let run = audit { ["--out", $0, "--", Self.built("LeakyFixtures"), "clean"] }
        defer { try? FileManager.default.removeItem(atPath: run.directory) }
        #expect(run.code == 0, "\(run.summary)")
        #expect(run.summary.contains("verdict: clean"))
        #expect(FileManager.default.fileExists(atPath: run.directory + "/audit/audit.sarif"))
        #expect(FileManager.default.fileExists(atPath: run.directory + "/audit/audit-junit.xml"))
    }

    @Test func leakyCommandExitsSix() {
        let run = audit { ["--out", $0, "--", Self.built("LeakyFixtures"), "unsandboxed"] }
        defer { try? FileManager.default.removeItem(atPath: run.directory) }
        #expect(run.code == 6)
        #expect(run.summary.contains("unsandboxed:"))
    }

    @Test func missingCommandExitsSeven() {
        let run = audit { ["--out", $0, "--", "/nonexistent/command"] }
        defer { try? FileManager.default.removeItem(atPath: run.directory) }
        #expect(run.code == 7)
        #expect(run.summary.contains("could not complete"))
    }

    /// A replay that fails (here: its corpus does not exist) proves nothing: 7, never 0.
    @Test func failedReplayExitsSeven() {
        let run = audit({ ["--out", $0, "/nonexistent/corpus.jsonl.zst"] }, replay: Self.built("replay"))
        defer { try? FileManager.default.removeItem(atPath: run.directory) }
        #expect(run.code == 7, "\(run.summary)")
    }

    @Test func usageErrorsExitTwo() {
        #expect(AuditCommand.run(["--out"]) { _ in } == 2)
        #expect(AuditCommand.run(["--dry-run"]) { _ in } == 2)
        #expect(AuditCommand.run(["--"]) { _ in } == 2)
        #expect(AuditCommand.run(["--limit", "1", "--", "/bin/true"]) { _ in } == 2)
    }

    /// The proof CI runs: a real replay over the sample corpus, sandboxed, with the canary in
    /// every prompt and every output fingerprinted, leaves nothing behind.
    @Test(.enabled(if: replayTakesPartInAudits, "needs replay wired with the sandbox and the audit tap, and the default model"))
    func cleanReplayOverTheSampleCorpusPasses() throws {
        let corpus = Self.packageRoot + "/corpora/sample.jsonl.zst"
        let run = audit({ ["--out", $0, "--limit", "1", corpus] }, replay: Self.built("replay"))
        defer { try? FileManager.default.removeItem(atPath: run.directory) }
        #expect(run.code == 0, "\(run.summary)")
        let sarif = try #require(FileManager.default.contents(atPath: run.directory + "/audit/audit.sarif"))
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        let first = try #require((log["runs"] as? [[String: Any]])?.first)
        let errors = (first["results"] as? [[String: Any]] ?? []).filter { $0["level"] as? String == "error" }
        #expect(errors.isEmpty)
        let properties = try #require(first["properties"] as? [String: Any])
        #expect(properties["sandbox_enforced"] as? Bool == true)
        #expect((properties["prompts"] as? Int ?? 0) > 0)
        #expect(properties["prompts_with_canary"] as? Int == properties["prompts"] as? Int)
    }
}
