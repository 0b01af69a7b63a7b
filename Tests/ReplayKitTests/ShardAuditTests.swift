import Foundation
@testable import ReplayKit
@testable import Replay
import Testing
import RunTestSupport
import TestSupport

/// `replay audit` passes the shard options through: one shard of a run audits clean, confined
/// like any run, its state.json scanned with the rest of what it wrote.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ShardAuditTests {
    @Test func oneShardAuditsClean() throws {
        let directory = try TemporaryDirectory(prefix: "shard-audit")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        var lines: [String] = []
        let code = AuditCommand.run(["--out", directory.path("audit"), "--shard", "1/2", "--limit", "2", corpus],
                                    replayExecutable: BuiltProducts.executable("replay")) { lines.append($0) }
        let summary = lines.joined(separator: "\n")
        #expect(code == .success, "\(summary)")
        let report = try StateFixtures.report(at: directory.path("audit/run/report.json"))
        #expect(report.at("shard.index") == .int(1))
        #expect(report.at("sandbox.enforced") == .bool(true))
        #expect(FileManager.default.fileExists(atPath: directory.path("audit/run/state.json")))
    }
}
