import Audit
import ReplayKit

extension ExitCode {
    /// The codes `replay audit` ends with, in the order its usage and the README list them.
    public static let auditCodes: [ExitCode] = [.success, .auditFindings, .auditCouldNotRun, .usage]

    /// What the code means after `replay audit`; nil for a code the audit never ends with.
    public var auditMeaning: String? {
        switch self {
        case .success:
            "clean: no finding"
        case .auditFindings:
            "findings: " + AuditRule.allCases.filter(\.isError).map(\.rawValue).joined(separator: ", ") + " (see audit.sarif)"
        case .auditCouldNotRun:
            "the audit could not run (strace missing, the command failed or left no fingerprints, its process tree could not be emptied, …); never a pass"
        case .usage:
            "usage error"
        default:
            nil
        }
    }

    /// The exit status for an audit's verdict.
    public init(_ verdict: AuditResult.Verdict) {
        switch verdict {
        case .clean: self = .success
        case .findings: self = .auditFindings
        case .couldNotRun: self = .auditCouldNotRun
        }
    }
}
