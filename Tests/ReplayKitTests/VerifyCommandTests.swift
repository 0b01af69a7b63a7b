import Audit
import Confinement
import Foundation
import Privacy
@testable import ReplayKit
@testable import Replay
import Testing
import TestSupport

/// `replay verify DIR`: an audit's directory, as the verdict left it, verifies; a change made to
/// it after the verdict (the issue's survivor appending to run/report.json) is caught and named.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct VerifyCommandTests {
    static func verify(_ directory: String) -> (code: ExitCode, said: String) {
        var said: [String] = []
        let code = VerifyCommand.run([directory]) { said.append($0) }
        return (code, said.joined(separator: "\n"))
    }

    static func audit(_ arguments: [String]) -> ExitCode {
        AuditCommand.run(arguments, replayExecutable: BuiltProducts.executable("replay")) { _ in }
    }

    /// The issue's "Done means": a real, sandboxed replay audited clean verifies; the same
    /// directory with run/report.json appended to after the verdict does not, and says which file.
    @Test func aReplayAuditVerifiesUntilItsReportIsChangedAfterTheVerdict() throws {
        let directory = try TemporaryDirectory(prefix: "verify")
        let out = directory.path("audit")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        #expect(Self.audit(["--out", out, "--dry-run", "--limit", "3", corpus]) == .success)
        let sarif = try #require(FileManager.default.contents(atPath: out + "/audit.sarif"))
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let artifacts = try #require(run["artifacts"] as? [[String: Any]])
        let report = try #require(artifacts.first { ($0["location"] as? [String: Any])?["uri"] as? String == "report.json" })
        #expect((report["hashes"] as? [String: Any])?["sha-256"] as? String
                == SHA256.hex([UInt8](try #require(FileManager.default.contents(atPath: out + "/run/report.json")))))
        #expect(report["length"] as? Int == (try FileManager.default.attributesOfItem(atPath: out + "/run/report.json")[.size] as? Int))
        let clean = Self.verify(out)
        #expect(clean.code == .success, "\(clean.said)")

        let handle = try #require(FileHandle(forWritingAtPath: out + "/run/report.json"))
        handle.seekToEndOfFile()
        handle.write(Data(" ".utf8))
        try handle.close()
        let changed = Self.verify(out)
        #expect(changed.code == .verifyMismatch)
        #expect(changed.said.contains("changed: report.json"))
    }

    @Test func aRemovedFileIsMissingAndAnAddedOneExtra() throws {
        let directory = try TemporaryDirectory(prefix: "verify")
        let out = directory.path("audit")
        #expect(Self.audit(["--out", out, "--", BuiltProducts.executable("LeakyFixtures"), "clean"]) == .success)
        #expect(Self.verify(out).code == .success)
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/run").sorted()
        let victim = try #require(names.first { !$0.hasPrefix(".") })
        try FileManager.default.removeItem(atPath: out + "/run/" + victim)
        try directory.write("audit/run/new", text: "x")
        let found = Self.verify(out)
        #expect(found.code == .verifyMismatch)
        #expect(found.said.contains("missing: \(victim)"))
        #expect(found.said.contains("extra: a file, 1 bytes, at the top"))
    }

    /// A finished run (the built binary, sandboxed) ends by writing manifest.json, after every
    /// other result: its directory verifies, and stops verifying when a result is edited.
    @Test func aFinishedRunWritesItsManifestLast() throws {
        let directory = try TemporaryDirectory(prefix: "verify")
        let out = directory.path("out")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let run = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--limit", "3", "--resume", "--checkpoint-every", "1",
                                                                          "--out", out, corpus])
        #expect(run.status == 0, "\(run.errors)")
        let manifest = try RunManifest.read(manifestAt: out + "/" + RunManifest.fileName)
        let listed = Set(manifest.entries.compactMap(\.encodedPath))
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: out)).subtracting([RunManifest.fileName])
        #expect(listed == present, "every file but the manifest is listed")
        #expect(listed.contains("report.json") && listed.contains("state.json") && listed.contains("checkpoint-000001.json"))
        #expect(Self.verify(out).code == .success)
        try directory.write("out/report.md", text: "edited")
        let found = Self.verify(out)
        #expect(found.code == .verifyMismatch && found.said.contains("changed: report.md"))
    }

    /// A run's directory with manifest.json (issue 18's completion manifest) verifies the same way;
    /// the manifest file is not listed in itself.
    @Test func aRunDirectoryWithItsManifestVerifies() throws {
        let directory = try TemporaryDirectory(prefix: "verify")
        try directory.write("report.json", text: "{}\n")
        try directory.write("state.json", text: "{\"complete\": true}\n")
        let manifest = try RunManifest.take(directory.path)
        try ReportFile.create(directory.path(RunManifest.fileName), text: manifest.json())
        #expect(Self.verify(directory.path).code == .success)
        try directory.write("state.json", text: "{\"complete\": false}\n")
        let found = Self.verify(directory.path)
        #expect(found.code == .verifyMismatch && found.said.contains("state.json"))
    }

    /// No manifest, or one that is not a manifest, is an input error naming the file, never a pass.
    @Test func noUsableManifestIsAnInputError() throws {
        let directory = try TemporaryDirectory(prefix: "verify")
        #expect(Self.verify(directory.path).code == .input)
        try directory.write("audit.sarif", text: #"{"version":"2.1.0","runs":[{"results":[]}]}"#)
        let old = Self.verify(directory.path)
        #expect(old.code == .input && old.said.contains("audit.sarif"))
        try directory.write("audit.sarif", text: "{\"runs\": [")
        let broken = Self.verify(directory.path)
        #expect(broken.code == .input && broken.said.contains("not JSON"))
        #expect(VerifyCommand.run([]) { _ in } == .usage)
        #expect(VerifyCommand.run(["a", "b"]) { _ in } == .usage)
    }
}
