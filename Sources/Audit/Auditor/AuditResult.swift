import Privacy
/// What an audit concluded, with the exit code `replay audit` ends with.
public struct AuditResult: Sendable {
    /// Exit code: nothing found.
    public static let clean: Int32 = 0
    /// Exit code: at least one error-level finding (the verdict files say which).
    public static let findingsExitCode: Int32 = 6
    /// Exit code: the audit could not run or complete, so it proves nothing (never 0).
    public static let couldNotRunExitCode: Int32 = 7

    /// Everything found, errors and notes, in rule order.
    public var findings: [AuditFinding] = []
    /// Why the audit could not run or complete; empty when it did.
    public var problems: [AuditError] = []
    /// The audited command's exit status (nil when it never ran).
    public var commandStatus: Int32? = nil
    /// The counts and fingerprints the run left, when it left them.
    public var hashes: AuditHashes? = nil
    /// `sandbox.enforced` from the run's report.json, when there is one.
    public var sandboxEnforced: Bool? = nil
    /// Files and streams scanned, and their bytes.
    public var scannedSources = 0
    public var scannedBytes = 0
    /// Where the verdict files went (nil when they could not be written).
    public var sarifPath: String? = nil
    public var junitPath: String? = nil
    /// How this verdict names the places the run chose (salted hashes); nil before the run.
    public var places: PlaceNames? = nil
    /// The one-screen summary printed on stderr.
    public var summary = ""

    public init() {}

    /// The error-level findings: any of these fails the audit.
    public var errors: [AuditFinding] { findings.filter { $0.rule.isError } }

    /// Findings of one rule.
    public func findings(_ rule: AuditRule) -> [AuditFinding] { findings.filter { $0.rule == rule } }

    /// 6 when anything error-level was found, else 7 when the audit could not run, else 0.
    public var exitCode: Int32 {
        if !errors.isEmpty { return Self.findingsExitCode }
        if !problems.isEmpty { return Self.couldNotRunExitCode }
        return Self.clean
    }
}
