import Confinement
import Engine
import Jobs
import Privacy
import ReplayKit

/// report.json of `replay probe injection` (`replay.probe-report/1`, docs/injection.md): the attack
/// set, the model, the prompt set and the device; per job and per kind of attack, how many places
/// were attacked, how often the attack succeeded (with its Wilson 95% interval), how often the
/// app would have shown it, the plain asks' baseline, and the utility of the same places asked
/// plain and attacked; the gates and the verdict. Counts, rates and labels only.
public struct ProbeReportDocument: ResultDocument {
    public static let schema = "replay.probe-report/1"
    public static func isFileName(_ name: String) -> Bool { name == "report.json" }

    public var schema = SchemaName<ProbeReportDocument>()
    public var tool = ToolStamp()
    public var attacks: Attacks
    public var run: Run
    public var model: ModelReport?
    public var device: DeviceProfile
    /// The run's confinement; null in library use.
    public var sandbox: SandboxReport?
    /// Under `replay audit`: the prompts asked, those that carried the canary, the outputs
    /// fingerprinted; null otherwise.
    public var audit: AuditCounts?
    public var verdict: Verdict
    public var jobs: ResultMap<JobKind, Line>
    public var kinds: ResultMap<JobKind, ResultMap<TokenLabel, Line>>
    public var gates: [Gate]

    public enum Verdict: String, Codable, Sendable { case pass, fail }

    /// The attack set: its name and digest.
    public struct Attacks: Codable, Sendable {
        public var name: TokenLabel
        public var sha256: SHA256Hex
    }

    /// When the probe started, how long it took, what it read and the prompt set it asked with.
    public struct Run: Codable, Sendable {
        public var started: UTCTimestamp
        public var seconds: Double
        public var threads: Int
        public var badLines: Int
        public var prompts: PromptSetIdentity

        enum CodingKeys: String, CodingKey {
            case started, seconds, threads
            case badLines = "bad_lines"
            case prompts
        }
    }

    /// One job's or one kind's counts.
    public struct Line: Codable, Sendable {
        public var trials: Int
        public var succeeded: Int
        public var successRate: Double?
        public var interval: Interval?
        public var shown: Int
        public var baseline: Int
        public var answered: Pair<Int>
        public var quality: ResultMap<TokenLabel, QualityLine>

        init(_ tally: ProbeTally) {
            trials = tally.trials
            succeeded = tally.succeeded
            successRate = tally.successRate
            interval = tally.successInterval.map { Interval(low: $0.low, high: $0.high) }
            shown = tally.shown
            baseline = tally.baseline
            answered = Pair(plain: tally.plainAnswered, attacked: tally.attackedAnswered)
            quality = ResultMap(tally.quality.sorted { $0.key < $1.key }.map {
                (TokenLabel(ReportLabel(token: $0.key).text), QualityLine(compared: $0.value.count, plain: $0.value.plainMean,
                                                                          attacked: $0.value.attackedMean))
            })
        }

        enum CodingKeys: String, CodingKey {
            case trials, succeeded
            case successRate = "success_rate"
            case interval, shown, baseline, answered, quality
        }
    }

    /// A Wilson 95% interval.
    public struct Interval: Codable, Sendable {
        public var low: Double
        public var high: Double
    }

    /// The same count or mean of the plain and the attacked asks.
    public struct Pair<Value: Codable & Sendable>: Codable, Sendable {
        public var plain: Value
        public var attacked: Value
    }

    /// A quality measure over the places scored both ways.
    public struct QualityLine: Codable, Sendable {
        public var compared: Int
        public var plain: Double?
        public var attacked: Double?
    }

    /// A `--fail-over injection.JOB=MAX` gate and its outcome.
    public struct Gate: Codable, Sendable {
        public var key: TokenLabel
        public var maximum: Double
        public var value: Double?
        public var passed: Bool
    }

    init(report: ProbeReport) {
        attacks = Attacks(name: TokenLabel(report.attacks.name), sha256: SHA256Hex(report.attacks.sha256))
        run = Run(started: UTCTimestamp(report.started), seconds: report.seconds, threads: report.threads, badLines: report.badLines,
                  prompts: report.prompts)
        model = report.model?.report
        device = report.device
        sandbox = report.sandbox
        audit = report.audit
        verdict = report.passed ? .pass : .fail
        jobs = ResultMap(report.jobs.map { ($0, Line(report.tally(of: $0))) })
        kinds = ResultMap(report.jobs.map { job in
            (job, ResultMap(report.kinds(of: job).map { (TokenLabel($0.kind), Line($0.tally)) }))
        })
        gates = report.gates.map {
            Gate(key: TokenLabel($0.key), maximum: $0.maximum, value: report.tally(of: $0.job).successRate, passed: $0.passes(report.tally(of: $0.job)))
        }
    }
}

/// What a probe found, before it is written.
public struct ProbeReport: Sendable {
    public var attacks: AttackSet
    public var tallies: [InjectionProbe.Key: ProbeTally]
    public var jobs: [JobKind]
    public var gates: [ProbeGate]
    public var model: ModelDescription?
    public var prompts: PromptSetIdentity
    public var device: DeviceProfile
    public var sandbox: SandboxReport?
    public var started: String
    public var seconds: Double
    public var threads: Int
    public var badLines: Int
    public var audit: AuditCounts? = nil

    /// A job's kinds pooled.
    public func tally(of job: JobKind) -> ProbeTally {
        tallies.filter { $0.key.job == job }.values.reduce(ProbeTally()) { $0.adding($1) }
    }

    /// A job's kinds in the attack set's order, each with its tally (empty when never tried).
    public func kinds(of job: JobKind) -> [(kind: String, tally: ProbeTally)] {
        attacks.attacks(of: job).map { ($0.kind, tallies[InjectionProbe.Key(job: job, kind: $0.kind)] ?? ProbeTally()) }
    }

    /// Whether every gate passes.
    public var passed: Bool { gates.allSatisfy { $0.passes(tally(of: $0.job)) } }
}
