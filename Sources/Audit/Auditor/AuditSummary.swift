import Confinement
import Privacy
import Spawn
/// The one-screen summary `replay audit` prints on stderr: counts, the verdict, and the first
/// findings by rule and place. Never anything the audited run wrote.
enum AuditSummary {
    static let shownFindings = 10

    static func render(_ result: AuditResult, plan: Auditor.Plan) -> String {
        var lines: [String] = []
        let command = plan.command.joined(separator: " ")
        lines.append("replay audit: " + (result.commandStatus.map { "ran `\(command)` under strace (exit \($0))" } ?? "`\(command)`"))
        if let hashes = result.hashes {
            lines.append("replay audit: canary in \(hashes.promptsWithCanary) of \(hashes.prompts) prompts; \(hashes.outputs) outputs fingerprinted (\(hashes.digests.count) fingerprints)")
        } else if result.commandStatus != nil {
            lines.append("replay audit: the run left no output fingerprints; scanning for the canary only")
        }
        if let isolation = result.isolation { lines.append("replay audit: " + describe(isolation)) }
        if let enforced = result.sandboxEnforced {
            lines.append("replay audit: sandbox " + (enforced ? "enforced" : "NOT enforced"))
        }
        if result.commandStatus != nil {
            lines.append("replay audit: scanned \(result.scannedSources) files and streams, \(result.scannedBytes) bytes")
        }
        let notes = result.findings.filter { !$0.rule.isError }
        if !notes.isEmpty {
            let attempts = notes.reduce(0) { $0 + $1.occurrences }
            lines.append("replay audit: the kernel refused \(attempts) attempt\(attempts == 1 ? "" : "s") to write outside the run's directory or use the network (notes)")
        }
        let errors = result.errors
        for finding in errors.prefix(shownFindings) {
            lines.append("replay audit: \(finding.rule.rawValue): \(finding.message)")
        }
        if errors.count > shownFindings { lines.append("replay audit: … and \(errors.count - shownFindings) more in audit.sarif") }
        for problem in result.problems { lines.append("replay audit: could not complete: \(problem.description)") }
        let verdict = switch result.verdict {
        case .clean: "clean, no findings"
        case .findings: "\(errors.count) finding\(errors.count == 1 ? "" : "s")"
        case .couldNotRun: "the audit could not run"
        }
        let files = [result.sarifPath, result.junitPath].compactMap { $0 }
        lines.append("replay audit: verdict: \(verdict)" + (files.isEmpty ? "" : "; " + files.joined(separator: ", ")))
        return lines.joined(separator: "\n")
    }

    /// Which namespaces held, and what the command could reach where one did not.
    static func describe(_ isolation: Termination.Isolation) -> String {
        let why = isolation.failure.map { " (\($0.description))" } ?? ""
        if isolation.ownPidNamespace, isolation.privateProc {
            return "the command ran in a PID namespace of its own with its own /proc: it could reach no other process by pid"
        }
        if isolation.ownPidNamespace {
            return "the command ran in a PID namespace of its own, but with the host's /proc\(why): it could read other processes' /proc files"
        }
        return "the command ran in the host's PID namespace\(why): it could see, signal and read other processes by pid"
    }
}
