import Confinement
import Privacy
/// What the audit checks: one SARIF rule and one JUnit test case each.
public enum AuditRule: String, Sendable, CaseIterable, Comparable {
    case networkEgress = "network-egress"
    case writeOutsideOut = "write-outside-out"
    case canaryInOutput = "canary-in-output"
    case modelOutputInOutput = "model-output-in-output"
    case unsandboxed = "unsandboxed"
    case canaryNotPlanted = "canary-not-planted"
    case metadataWrite = "metadata-write"
    case kernelObject = "kernel-object"
    case signalToOtherProcess = "signal-to-other-process"
    case programExecuted = "program-executed"
    case removedBeforeScan = "removed-before-scan"
    case changedDuringScan = "changed-during-scan"
    case unreviewedCall = "unreviewed-call"
    case survivor = "survivor"
    case unexpectedResultContent = "unexpected-result-content"
    case unscannedEntry = "unscanned-entry"
    case blockedNetworkAttempt = "blocked-network-attempt"
    case blockedWriteAttempt = "blocked-write-attempt"
    case blockedAttempt = "blocked-attempt"

    /// How a finding of this rule counts: "error" fails the audit, "note" only shows the sandbox
    /// stopped something.
    public var level: String {
        switch self {
        case .blockedNetworkAttempt, .blockedWriteAttempt, .blockedAttempt: "note"
        default: "error"
        }
    }

    public var isError: Bool { level == "error" }

    /// One line for SARIF's `shortDescription`.
    public var summary: String {
        switch self {
        case .networkEgress: "The run opened a network socket, or connected, bound or sent to an address of any family (a named or abstract UNIX socket included)."
        case .writeOutsideOut: "The run created, wrote, renamed, truncated or removed a file outside its output directory."
        case .canaryInOutput: "The canary planted in the prompts appears in something the run wrote."
        case .modelOutputInOutput: "Words of a model output appear in something the run wrote."
        case .unsandboxed: "The run was not confined by the kernel sandbox."
        case .canaryNotPlanted: "The canary did not reach every prompt, so the canary scan proves less than it should."
        case .metadataWrite: "The run changed a file's mode, owner, times or extended attributes, which no scan of contents sees."
        case .kernelObject: "The run created a kernel object that can outlive it (SysV IPC, a POSIX message queue, a key) or an io_uring, whose operations the trace cannot see."
        case .signalToOtherProcess: "The run sent a signal to a process outside its own process tree."
        case .programExecuted: "The replay run executed another program (a debugger printing a crash backtrace, for instance)."
        case .removedBeforeScan: "The run removed or renamed a file in its directory, so what it had written there could not be scanned."
        case .changedDuringScan: "An entry of the run's directory changed, went or came while the audit scanned it, so the scan may have read something else than the verdict records."
        case .unreviewedCall: "The run made a system call (or asked one for an operation) that the audit's reviewed allow-list (AuditedCalls) does not hold: a channel nobody has judged."
        case .survivor: "A process of the run's tree was still alive when the trace ended (it escaped the trace or outlived it); it was killed before the scan."
        case .unexpectedResultContent: "A file, name, key, string or byte under a replay run's output directory is not one replay writes there (checked against the result files' schemas, whatever its encoding)."
        case .unscannedEntry: "Something the run left could not be read to its end (an unreadable file or directory, one nested too deep, a compressed stream its tool could not read), so no scan could clear it."
        case .blockedNetworkAttempt: "The run tried to use the network and the kernel refused."
        case .blockedWriteAttempt: "The run tried to write outside its output directory and the kernel refused."
        case .blockedAttempt: "The run tried another channel (metadata, kernel objects, signals, programs, removals) and the kernel refused."
        }
    }

    public static func < (a: AuditRule, b: AuditRule) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
