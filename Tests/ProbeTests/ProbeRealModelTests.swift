import Audit
import Foundation
import Llama
import Testing
import TestSupport
@testable import Probe

/// `replay probe injection` as a user runs it (the built binary, sandboxed) with a second model
/// family: Qwen2.5-Coder-0.5B, which `scripts/test` installs (`scripts/setup --model
/// qwen2.5-coder-0.5b`). Over the sample's first chips places: the probe answers with Qwen (its
/// name in the report), every trial asked both ways is in trials.json, and the files pass the
/// auditor's schema check. The default model's run is `AuditCommandTests`' audited probe.
/// Fails, never skips, when Qwen is not installed.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out"))
struct ProbeRealModelTests {
    @Test func theProbeRunsWithQwenOnTheSample() throws {
        let model = try #require(try? DefaultModel.file(forModelArgument: "qwen2.5-coder-0.5b"),
                                 "Qwen2.5-Coder-0.5B is missing: scripts/setup --deps-only --model qwen2.5-coder-0.5b")
        let directory = try TemporaryDirectory(prefix: "probe-qwen")
        let out = directory.path("out")
        let corpus = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let run = try Subprocess.run(BuiltProducts.executable("replay"),
                                     ["probe", "injection", "--out", out, "--model", "qwen2.5-coder-0.5b", "--limit", "2", "--job", "chips", corpus])
        #expect(run.status == 0, "\(run.errors)")
        let data = try #require(FileManager.default.contents(atPath: out + "/report.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let name = (report["model"] as? [String: Any])?["name"] as? String ?? ""
        #expect(name.contains("Qwen2.5"), "the report names \(name)")
        let chips = try #require((report["jobs"] as? [String: Any])?["chips"] as? [String: Any])
        let trials = chips["trials"] as? Int ?? 0
        // Qwen answered, plainly or attacked: which of its answers on two threads' few places
        // are valid and shown is the model's (with the exact engine, plain answered none of 15).
        let answered = (chips["answered"] as? [String: Int]).map { ($0["plain"] ?? 0) + ($0["attacked"] ?? 0) } ?? 0
        #expect(trials > 0 && answered > 0, "\(chips)")
        let trialsData = try #require(FileManager.default.contents(atPath: out + "/trials.json"))
        let trialsFile = try #require(try JSONSerialization.jsonObject(with: trialsData) as? [String: Any])
        #expect(trialsFile["count"] as? Int == trials)
        let findings = ResultSchemaCheck.check(directory: out, knownPaths: [model, corpus], documents: ProbeCommand.documents)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }
}
