import Confinement
import Privacy
import Spawn
/// What an audit concluded: its verdict, the findings behind it and what was scanned.
///
/// The exit status `replay audit` ends with is the command layer's (ReplayKit's `ExitCode`);
/// this module gives the verdict only, so it stays below the command it serves.
public struct AuditResult: Sendable {
    /// The audit's conclusion, in order of precedence: findings beat a failure to complete.
    public enum Verdict: String, Sendable, CaseIterable {
        /// Nothing found, and the audit ran to its end.
        case clean
        /// At least one error-level finding (the verdict files say which).
        case findings
        /// The audit could not run or complete, so it proves nothing: never a pass.
        case couldNotRun = "could_not_run"
    }

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
    /// The namespaces the command's tree ran in, when the audit asked for them (`Plan.isolated`)
    /// and the command ran.
    public var isolation: Termination.Isolation? = nil
    /// Files and streams scanned, and their bytes.
    public var scannedSources = 0
    public var scannedBytes = 0
    /// Every entry beneath the run's directory at the verdict, with sizes and SHA-256 (nil when
    /// the audit did not reach its verdict).
    public var manifest: RunManifest? = nil
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

    /// Findings when anything error-level was found, else could-not-run when the audit did not
    /// complete, else clean.
    public var verdict: Verdict {
        if !errors.isEmpty { return .findings }
        if !problems.isEmpty { return .couldNotRun }
        return .clean
    }
}
