import Audit
import Confinement
import Foundation
import Llama
import Testing
@testable import ReplayKit
@testable import Replay
import Privacy
import TestSupport

/// `replay audit` as a command: its exit codes, and a clean replay over the sample corpus.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct AuditCommandTests {
    static func built(_ name: String) -> String { BuiltProducts.executable(name) }
    static var packageRoot: String { BuiltProducts.packageRoot }

    func audit(_ arguments: (String) -> [String], replay: String? = nil) -> (code: Int32, summary: String, directory: String) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audit-command-\(UUID().uuidString)").path
        var lines: [String] = []
        let code = AuditCommand.run(arguments(root + "/audit"), replayExecutable: replay) { lines.append($0) }
        return (code.rawValue, lines.joined(separator: "\n"), root)
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
        #expect(AuditCommand.run(["--out"]) { _ in } == .usage)
        #expect(AuditCommand.run(["--dry-run"]) { _ in } == .usage)
        #expect(AuditCommand.run(["--"]) { _ in } == .usage)
        #expect(AuditCommand.run(["--limit", "1", "--", "/bin/true"]) { _ in } == .usage)
    }

    /// The proof CI runs, and the gate that must never cry wolf: a real replay over the sample
    /// corpus, every job, sandboxed, with a fresh canary in every prompt text and every output
    /// fingerprinted, audited with 4 different canaries (over one thread and over two), leaves
    /// nothing behind: 4 verdicts of exit 0. It fails, never skips, when the audit cannot run (no
    /// strace, no model). Other clean audits with fresh canaries in the same test run:
    /// ResultSchemaCheckTests, ShardAuditTests, the README's.
    @Test func cleanReplayOverTheSampleCorpusPassesWithFourCanaries() throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = Self.packageRoot + "/corpora/sample.jsonl.zst"
        var prompts = 0
        for attempt in 0..<4 {
            let limit = attempt % 2 == 0 ? "1" : "2"
            let run = audit({ ["--out", $0, "--limit", limit, corpus] }, replay: Self.built("replay"))
            defer { try? FileManager.default.removeItem(atPath: run.directory) }
            #expect(run.code == 0, "audit \(attempt + 1) of 4 (--limit \(limit)): \(run.summary)")
            let sarif = try #require(FileManager.default.contents(atPath: run.directory + "/audit/audit.sarif"))
            let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
            let first = try #require((log["runs"] as? [[String: Any]])?.first)
            let errors = (first["results"] as? [[String: Any]] ?? []).filter { $0["level"] as? String == "error" }
            #expect(errors.isEmpty)
            let properties = try #require(first["properties"] as? [String: Any])
            #expect(properties["sandbox_enforced"] as? Bool == true)
            #expect((properties["prompts"] as? Int ?? 0) > 0)
            #expect(properties["prompts_with_canary"] as? Int == properties["prompts"] as? Int)
            prompts += properties["prompts"] as? Int ?? 0
            if run.code != 0 { break }
        }
        #expect(prompts >= 4)
    }

    /// The injection probe audited as a run is (`replay audit probe injection ...`): the real
    /// model over the sample's chips places, the canary planted in every thread before the
    /// attacks, so every prompt (plain and attacked) carries it and every output is fingerprinted;
    /// the probe's files pass the schema check, and the verdict is clean. Also the slow set's one
    /// run of the probe with the default model.
    @Test func theInjectionProbeIsAuditedAsARunIsAndIsClean() throws {
        #expect(DefaultModel.path() != nil, "the default model is missing: run scripts/setup")
        let corpus = Self.packageRoot + "/corpora/sample.jsonl.zst"
        let run = audit({ ["--out", $0, "probe", "injection", "--limit", "2", "--job", "chips", corpus] }, replay: Self.built("replay"))
        defer { try? FileManager.default.removeItem(atPath: run.directory) }
        #expect(run.code == 0, "\(run.summary)")
        let data = try #require(FileManager.default.contents(atPath: run.directory + "/audit/run/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(report["schema"] as? String == "replay.probe-report/1")
        let counts = try #require(report["audit"] as? [String: Int])
        let trials = try #require(((report["jobs"] as? [String: Any])?["chips"] as? [String: Any])?["trials"] as? Int)
        #expect(trials > 0 && counts["prompts"] == 2 * trials, "each trial asks twice: \(counts)")
        #expect(counts["prompts_with_canary"] == counts["prompts"] && (1...2 * trials).contains(counts["outputs"] ?? 0))
        #expect(FileManager.default.fileExists(atPath: run.directory + "/audit/run/trials.json"))
        #expect(run.summary.contains("verdict: clean"))
    }
}
