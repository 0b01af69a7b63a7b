import Compare
import Confinement
import Jobs
import Privacy
import ReplayKit

/// compare.json of `replay suite compare` (`replay.suite-compare/1`, docs/suite.md): the runs
/// compared (their directories, suites, models, versions and prompt sets), each model-dependent
/// expectation's pass rates and paired statistics against the first run, and the gates. Numbers,
/// labels, paths and fixed words only. `SuiteCompareCommand` encodes it; the auditor decodes it
/// strictly, telling it from `replay compare`'s compare.json by its `schema`.
public struct SuiteCompareDocument: ResultDocument {
    public static let schema = "replay.suite-compare/1"
    public static func isFileName(_ name: String) -> Bool { name == "compare.json" }

    public var schema = SchemaName<SuiteCompareDocument>()
    public var tool = ToolStamp()
    public var runs: [Run]
    public var method = Method()
    /// The comparing process's confinement; null in library use.
    public var sandbox: SandboxReport?
    public var expectations: [Row]
    public var gates: [Gate]

    public init(runs: [(directory: String, report: SuiteReportDocument)], comparison: SuiteComparison, gates: [SuiteGate.Verdict],
                sandbox: SandboxReport?) {
        self.runs = runs.map { Run(directory: ResultPath($0.directory), suite: $0.report.suite.name, suiteSHA256: $0.report.suite.sha256,
                                   model: $0.report.model, modelVersion: $0.report.run.modelVersion, prompts: $0.report.run.prompts) }
        self.sandbox = sandbox
        expectations = comparison.rows.map(Row.init)
        self.gates = gates.map(Gate.init)
    }

    /// One suite result compared, in the order given (the first is the base).
    public struct Run: Codable, Sendable {
        public var directory: ResultPath
        public var suite: TokenLabel
        public var suiteSHA256: SHA256Hex
        public var model: ModelReport?
        public var modelVersion: ModelLabel?
        public var prompts: PromptSetIdentity

        enum CodingKeys: String, CodingKey {
            case directory, suite
            case suiteSHA256 = "suite_sha256"
            case model
            case modelVersion = "model_version"
            case prompts
        }
    }

    /// How the numbers were made.
    public struct Method: Codable, Sendable {
        public var confidence = 0.95
        public var power = 0.8
        public var alpha = SuiteComparison.alpha
        public var interval = Interval.wilson
        public var test = Test.mcnemarExact
        public var adjustment = Adjustment.holm
        public var clusters = Clusters.suiteCase

        public enum Interval: String, Codable, Sendable { case wilson }
        public enum Test: String, Codable, Sendable { case mcnemarExact = "mcnemar_exact" }
        public enum Adjustment: String, Codable, Sendable { case holm }
        public enum Clusters: String, Codable, Sendable { case suiteCase = "case" }
    }

    /// One job's model-dependent expectation.
    public struct Row: Codable, Sendable {
        public var job: JobKind
        public var expectation: SuiteExpectation.Name
        /// Per run, in the order of `runs`.
        public var rates: [SuiteComparison.Rate]
        /// Per run after the first, against the first.
        public var paired: [SuiteComparison.Paired]

        init(_ row: SuiteComparison.Row) {
            (job, expectation, rates, paired) = (row.job, row.name, row.rates, row.paired)
        }
    }

    /// A `--fail-under` gate on one run: the lower Wilson bound of a pass rate against its minimum.
    public struct Gate: Codable, Sendable {
        public var job: JobKind
        public var expectation: SuiteExpectation.Name
        public var run: Int
        public var minimum: Double
        public var low: Double?
        public var met: Bool

        init(_ verdict: SuiteGate.Verdict) {
            (job, expectation, run, minimum) = (verdict.job, verdict.gate.name, verdict.run, verdict.gate.minimum)
            (low, met) = (verdict.low, verdict.met)
        }
    }
}
