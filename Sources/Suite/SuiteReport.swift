import Confinement
import Engine
import Jobs
import Privacy
import ReplayKit

/// Everything `replay suite run` writes about a run: the suite (its file and digest), the model,
/// the prompt set, the device profile, the sandbox, and each case's result; with the totals the
/// outputs show (`SuiteReportDocument`, `SuiteMarkdown`, `SuiteJUnit`).
public struct SuiteReport: Sendable {
    /// The suite file as given on the command line.
    public var file: String
    public var suite: SuiteFile
    public var results: [SuiteCaseResult]
    public var model: ModelDescription?
    public var modelVersion: String?
    public var prompts: PromptSetIdentity
    public var device: DeviceProfile
    /// The run's confinement; nil in library use.
    public var sandbox: SandboxReport?
    /// ISO 8601, UTC.
    public var started: String
    public var seconds: Double

    /// Every must case that ran passed.
    public var passed: Bool { !results.contains { $0.must && $0.failed } }

    /// Counts of runs: all, passed, failed, skipped, must, must failed.
    public struct RunCounts: Sendable, Equatable, Codable {
        public var runs = 0, passed = 0, failed = 0, skipped = 0, must = 0, mustFailed = 0

        enum CodingKeys: String, CodingKey {
            case runs, passed, failed, skipped, must
            case mustFailed = "must_failed"
        }

        mutating func add(_ result: SuiteCaseResult) {
            runs += 1
            if result.skipped { skipped += 1 } else if result.passed { passed += 1 } else { failed += 1 }
            if result.must && !result.skipped {
                must += 1
                if result.failed { mustFailed += 1 }
            }
        }
    }

    /// Counts of expectations checked: all, passed, failed, and the share passed.
    /// Written with the two numbers that follow from them, which are read back only when they do.
    public struct ExpectationCounts: Sendable, Equatable, Codable {
        public var checked = 0, passed = 0
        public var failed: Int { checked - passed }
        public var passRate: Double? { checked == 0 ? nil : Double(passed) / Double(checked) }

        enum CodingKeys: String, CodingKey {
            case checked, passed, failed
            case passRate = "pass_rate"
        }

        init(checked: Int = 0, passed: Int = 0) { (self.checked, self.passed) = (checked, passed) }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(checked: try container.decode(Int.self, forKey: .checked), passed: try container.decode(Int.self, forKey: .passed))
            let rate = try container.decodeIfPresent(Double.self, forKey: .passRate)
            guard try container.decode(Int.self, forKey: .failed) == failed, (rate == nil) == (passRate == nil) else {
                throw StateFormatError(at: container.codingPath, "counts that do not add up")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(checked, forKey: .checked)
            try container.encode(passed, forKey: .passed)
            try container.encode(failed, forKey: .failed)
            try container.encode(passRate, forKey: .passRate)
        }

        mutating func add(_ result: SuiteExpectationResult) {
            checked += 1
            if result.passed { passed += 1 }
        }
    }

    /// The two kinds of expectation, as the results name them.
    public enum Kind: String, Sendable, CaseIterable, Codable, ResultMapKey {
        case deterministic
        case modelDependent = "model_dependent"

        init(_ result: SuiteExpectationResult) { self = result.deterministic ? .deterministic : .modelDependent }
    }

    public var runCounts: RunCounts { results.reduce(into: RunCounts()) { $0.add($1) } }

    public func runCounts(of job: JobKind) -> RunCounts {
        results.filter { $0.job == job }.reduce(into: RunCounts()) { $0.add($1) }
    }

    /// The expectations checked (in runs that were not skipped) of `kind`, of `job` when given,
    /// named `name` when given.
    public func expectationCounts(_ kind: Kind, job: JobKind? = nil, name: SuiteExpectation.Name? = nil) -> ExpectationCounts {
        var counts = ExpectationCounts()
        for result in results where !result.skipped && (job == nil || result.job == job) {
            for expectation in result.expectations where Kind(expectation) == kind && (name == nil || expectation.name == name) {
                counts.add(expectation)
            }
        }
        return counts
    }

    /// The names of the expectations of `kind` that were checked, in the order docs/suite.md lists them.
    public func expectationNames(_ kind: Kind) -> [SuiteExpectation.Name] {
        let checked = Set(results.filter { !$0.skipped }.flatMap { $0.expectations.filter { Kind($0) == kind }.map(\.name) })
        return SuiteExpectation.Name.allCases.filter(checked.contains)
    }

    /// The jobs the suite has cases of, in the jobs' order.
    public var jobs: [JobKind] { JobKind.allCases.filter { job in results.contains { $0.job == job } } }
}
