import Confinement
import Engine
import Jobs
import Privacy
import ReplayKit

/// report.json of `replay suite run` (`replay.suite-report/1`, docs/suite.md): the suite, the
/// model, the prompt set and the device; the verdict; totals per job and per kind of
/// expectation; and each run of a case by its id, with each expectation's verdict. Ids, labels,
/// flags and counts only. `SuiteCommand` encodes it; the auditor decodes it strictly, telling it
/// from a run's report.json by its `schema`.
public struct SuiteReportDocument: ResultDocument {
    public static let schema = "replay.suite-report/1"
    public static func isFileName(_ name: String) -> Bool { name == "report.json" }

    public var schema = SchemaName<SuiteReportDocument>()
    public var tool = ToolStamp()
    public var suite: Suite
    public var run: Run
    public var model: ModelReport?
    public var device: DeviceProfile
    /// The run's confinement; null in library use.
    public var sandbox: SandboxReport?
    public var verdict: Verdict
    public var totals: Counted<SuiteReport.RunCounts, Totals>
    public var cases: [Case]

    public init(_ report: SuiteReport) {
        suite = Suite(file: ResultPath(report.file), name: TokenLabel(report.suite.name), sha256: SHA256Hex(report.suite.sha256),
                      cases: report.suite.cases.count, runs: report.results.count)
        run = Run(started: UTCTimestamp(report.started), seconds: report.seconds, modelVersion: report.modelVersion.map { ModelLabel($0) },
                  prompts: report.prompts)
        model = report.model?.report
        device = report.device
        sandbox = report.sandbox
        verdict = report.passed ? .pass : .fail
        let kinds = SuiteReport.Kind.allCases
        totals = Counted(report.runCounts, Totals(
            byJob: ResultMap(report.jobs.map { job in
                (job, Counted(report.runCounts(of: job), ByKind(byKind: ResultMap(kinds.map { ($0, report.expectationCounts($0, job: job)) }))))
            }),
            byKind: ResultMap(kinds.map { kind in
                (kind, Counted(report.expectationCounts(kind), ByName(byName: ResultMap(report.expectationNames(kind).map {
                    ($0, report.expectationCounts(kind, name: $0))
                }))))
            })))
        cases = report.results.map(Case.init)
    }

    /// The suite file: as given, its name and digest, its cases and the runs of them.
    public struct Suite: Codable, Sendable {
        public var file: ResultPath
        public var name: TokenLabel
        public var sha256: SHA256Hex
        public var cases: Int
        public var runs: Int
    }

    /// When the run started, how long it took, the model version and the prompt set.
    public struct Run: Codable, Sendable {
        public var started: UTCTimestamp
        public var seconds: Double
        public var modelVersion: ModelLabel?
        public var prompts: PromptSetIdentity

        enum CodingKeys: String, CodingKey {
            case started, seconds
            case modelVersion = "model_version"
            case prompts
        }
    }

    /// Whether every must case that ran passed.
    public enum Verdict: String, Codable, Sendable { case pass, fail }

    /// Counts and their breakdown written as one object: the counts' keys, then the breakdown's.
    public struct Counted<Counts: Codable & Sendable, Breakdown: Codable & Sendable>: Codable, Sendable {
        public var counts: Counts
        public var breakdown: Breakdown

        init(_ counts: Counts, _ breakdown: Breakdown) { (self.counts, self.breakdown) = (counts, breakdown) }

        public init(from decoder: any Decoder) throws {
            counts = try Counts(from: decoder)
            breakdown = try Breakdown(from: decoder)
        }

        public func encode(to encoder: any Encoder) throws {
            try counts.encode(to: encoder)
            try breakdown.encode(to: encoder)
        }
    }

    /// The totals' breakdown: the runs of each job, the expectations of each kind.
    public struct Totals: Codable, Sendable {
        public var byJob: ResultMap<JobKind, Counted<SuiteReport.RunCounts, ByKind>>
        public var byKind: ResultMap<SuiteReport.Kind, Counted<SuiteReport.ExpectationCounts, ByName>>

        enum CodingKeys: String, CodingKey { case byJob = "by_job", byKind = "by_kind" }
    }

    /// A job's expectations by kind.
    public struct ByKind: Codable, Sendable {
        public var byKind: ResultMap<SuiteReport.Kind, SuiteReport.ExpectationCounts>

        enum CodingKeys: String, CodingKey { case byKind = "by_kind" }
    }

    /// A kind's expectations by name.
    public struct ByName: Codable, Sendable {
        public var byName: ResultMap<SuiteExpectation.Name, SuiteReport.ExpectationCounts>

        enum CodingKeys: String, CodingKey { case byName = "by_name" }
    }

    /// One run of a case (`SuiteCaseResult`), by the suite's id.
    public struct Case: Codable, Sendable {
        public var id: TokenLabel
        public var language: LocaleLabel?
        public var job: JobKind
        public var must: Bool
        public var givenOutput: Bool
        public var status: SuiteCaseResult.Status
        public var expectations: [Expectation]

        enum CodingKeys: String, CodingKey {
            case id, language, job, must
            case givenOutput = "given_output"
            case status, expectations
        }

        init(_ result: SuiteCaseResult) {
            (id, language, job, must) = (TokenLabel(result.id), result.language.map { LocaleLabel($0) }, result.job, result.must)
            (givenOutput, status) = (result.givenOutput, result.status)
            expectations = result.expectations.map {
                Expectation(name: $0.name, kind: SuiteReport.Kind($0), pass: $0.passed, observed: $0.observed, reason: $0.reason)
            }
        }
    }

    /// One expectation's verdict (`SuiteExpectationResult`).
    public struct Expectation: Codable, Sendable {
        public var name: SuiteExpectation.Name
        public var kind: SuiteReport.Kind
        public var pass: Bool
        public var observed: SuiteExpectationResult.Observed?
        public var reason: SuiteExpectationResult.Reason?
    }
}
