import Audit
import Confinement
import Foundation
import Privacy
import Testing
import TestSupport

/// One audit of a LeakyFixtures mode in fresh directories, with what the auditor concluded.
struct LeakyFixtureRun {
    let result: AuditResult
    /// The audit's directory (verdict files), deleted with `root`.
    let auditDirectory: String
    let root: String
    /// The verdict files as written.
    let sarif: [String: Any]
    let junit: String

    /// LeakyFixtures is built next to the test bundle, like SandboxProbe.
    static var executable: String { BuiltProducts.executable("LeakyFixtures") }

    static func freshRoot() -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("leaky-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        return root
    }

    /// Audits `LeakyFixtures mode arguments…`; `arguments` may use `{outside}` for a directory
    /// outside the run's. `isolated` false runs it in the host's PID namespace, as where the
    /// auditor may not make namespaces.
    static func audit(_ mode: String, _ arguments: [String] = [], strace: String? = nil, isReplay: Bool = false,
                      isolated: Bool = true) -> LeakyFixtureRun {
        let root = freshRoot()
        let outside = root + "/outside"
        try! FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let auditDirectory = root + "/audit"
        let command = [executable, mode] + arguments.map { $0.replacingOccurrences(of: "{outside}", with: outside) }
        // A fixture that hangs fails its test instead of holding the suite.
        var plan = Auditor.Plan(command: command, auditDirectory: auditDirectory, isReplay: isReplay, strace: strace,
                                timeLimit: 600)
        plan.isolated = isolated
        let result = Auditor.run(plan)
        let sarifData = FileManager.default.contents(atPath: auditDirectory + "/audit.sarif") ?? Data()
        let sarif = ((try? JSONSerialization.jsonObject(with: sarifData)) as? [String: Any]) ?? [:]
        let junit = String(decoding: FileManager.default.contents(atPath: auditDirectory + "/audit-junit.xml") ?? Data(), as: UTF8.self)
        return LeakyFixtureRun(result: result, auditDirectory: auditDirectory, root: root, sarif: sarif, junit: junit)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    var rules: Set<AuditRule> { Set(result.findings.map(\.rule)) }
    var errorRules: Set<AuditRule> { Set(result.errors.map(\.rule)) }

    /// SARIF results' rule ids.
    var sarifRuleIds: [String] {
        let runs = sarif["runs"] as? [[String: Any]] ?? []
        return (runs.first?["results"] as? [[String: Any]] ?? []).compactMap { $0["ruleId"] as? String }
    }
}
