import Privacy
/// What the audit checks: one SARIF rule and one JUnit test case each.
public enum AuditRule: String, Sendable, CaseIterable, Comparable {
    case networkEgress = "network-egress"
    case writeOutsideOut = "write-outside-out"
    case canaryInOutput = "canary-in-output"
    case modelOutputInOutput = "model-output-in-output"
    case unsandboxed = "unsandboxed"
    case canaryNotPlanted = "canary-not-planted"
    case blockedNetworkAttempt = "blocked-network-attempt"
    case blockedWriteAttempt = "blocked-write-attempt"

    /// How a finding of this rule counts: "error" fails the audit, "note" only shows the sandbox
    /// stopped something.
    public var level: String {
        switch self {
        case .blockedNetworkAttempt, .blockedWriteAttempt: "note"
        default: "error"
        }
    }

    public var isError: Bool { level == "error" }

    /// One line for SARIF's `shortDescription`.
    public var summary: String {
        switch self {
        case .networkEgress: "The run opened a network socket or sent to a network address (anything but AF_UNIX)."
        case .writeOutsideOut: "The run created, wrote, renamed, truncated or removed a file outside its output directory."
        case .canaryInOutput: "The canary planted in the prompts appears in something the run wrote."
        case .modelOutputInOutput: "Words of a model output appear in something the run wrote."
        case .unsandboxed: "The run was not confined by the kernel sandbox."
        case .canaryNotPlanted: "The canary did not reach every prompt, so the canary scan proves less than it should."
        case .blockedNetworkAttempt: "The run tried to use the network and the kernel refused."
        case .blockedWriteAttempt: "The run tried to write outside its output directory and the kernel refused."
        }
    }

    public static func < (a: AuditRule, b: AuditRule) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
