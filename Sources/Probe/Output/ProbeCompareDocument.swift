import Compare
import Confinement
import Engine
import Flywheel
import Jobs
import Privacy
import ReplayKit

/// compare.json of `replay probe compare` (`replay.probe-compare/1`, docs/injection.md): the
/// probes compared (their directories, attack sets, models, prompt sets, devices and trials), per
/// job and per kind of attack each run's attack success and answered shares with Wilson 95%
/// intervals, each later run against the first (`ProbeComparison`: every metric as `replay
/// compare` writes one), and the gates. Numbers, labels, paths and fixed words only. The auditor
/// tells it from the other compare.json files by its `schema`.
public struct ProbeCompareDocument: ResultDocument {
    public static let schema = "replay.probe-compare/1"
    public static func isFileName(_ name: String) -> Bool { name == "compare.json" }

    public var schema = SchemaName<ProbeCompareDocument>()
    public var tool = ToolStamp()
    public var runs: [Run]
    public var method = Method()
    /// The comparing process's confinement; null in library use.
    public var sandbox: SandboxReport?
    public var jobs: ResultMap<JobKind, Row>
    public var kinds: ResultMap<JobKind, ResultMap<TokenLabel, Row>>
    public var gates: [Gate]

    /// A metric compared, as `replay compare`'s compare.json writes one.
    public typealias Metric = CompareDocument.Metric

    public init(runs: [ProbeResults], comparison: ProbeComparison, gates: [ProbeCompareGate.Verdict], sandbox: SandboxReport?) {
        self.runs = runs.enumerated().map { index, run in
            Run(directory: ResultPath(run.directory), attacks: run.report.attacks, model: run.report.model, prompts: run.report.run.prompts,
                device: run.report.device, threads: run.report.run.threads, trials: run.trials.count,
                join: index == 0 ? nil : comparison.joins[index - 1])
        }
        self.sandbox = sandbox
        jobs = ResultMap(comparison.jobs.map { ($0.job, Row($0)) })
        var kinds = ResultMap<JobKind, ResultMap<TokenLabel, Row>>()
        for row in comparison.kinds {
            guard let kind = row.kind else { continue }
            var map = kinds[row.job] ?? ResultMap()
            map[TokenLabel(kind)] = Row(row)
            kinds[row.job] = map
        }
        self.kinds = kinds
        self.gates = gates.map(Gate.init)
    }

    /// One probe compared, in the order given (the first is the base).
    public struct Run: Codable, Sendable {
        public var directory: ResultPath
        public var attacks: ProbeReportDocument.Attacks
        public var model: ModelReport?
        public var prompts: PromptSetIdentity
        public var device: DeviceProfile
        public var threads: Int
        public var trials: Int
        /// How this run's trials joined with the first run's by key; null for the first.
        public var join: JoinCounts?
    }

    /// How the numbers were made.
    public struct Method: Codable, Sendable {
        public var confidence = 0.95
        public var power = 0.8
        public var alpha = ProbeComparison.alpha
        public var interval = Interval.wilson
        public var adjustment = Adjustment.holm
        public var clusters = Clusters.thread

        public enum Interval: String, Codable, Sendable { case wilson }
        public enum Adjustment: String, Codable, Sendable { case holm }
        /// A thread's trials are one cluster (trials.json's `threads`).
        public enum Clusters: String, Codable, Sendable { case thread }
    }

    /// A job (its kinds pooled) or a kind of attack.
    public struct Row: Codable, Sendable {
        /// Per run, in the order of `runs`.
        public var runs: [Side]
        /// Per run after the first, against the first.
        public var paired: [Paired]

        init(_ row: ProbeComparison.Row) {
            runs = row.sides.map(Side.init)
            paired = row.paired.map(Paired.init)
        }
    }

    /// One run's trials of a row: its attack success and answered shares over all of them.
    public struct Side: Codable, Sendable {
        public var trials: Int
        public var attackSuccess: Rate
        public var shown: Rate
        public var answeredPlain: Rate
        public var answeredAttacked: Rate

        init(_ side: ProbeComparison.Side) {
            trials = side.trials
            attackSuccess = Rate(side.succeeded, of: side.trials)
            shown = Rate(side.shown, of: side.trials)
            answeredPlain = Rate(side.plainAnswered, of: side.trials)
            answeredAttacked = Rate(side.attackedAnswered, of: side.trials)
        }

        enum CodingKeys: String, CodingKey {
            case trials
            case attackSuccess = "attack_success", shown, answeredPlain = "answered_plain", answeredAttacked = "answered_attacked"
        }
    }

    /// A count of trials, its share and the share's Wilson 95% bounds (null without trials).
    public struct Rate: Codable, Sendable {
        public var count: Int
        public var rate: Double?
        public var low: Double?
        public var high: Double?

        init(_ count: Int, of trials: Int) {
            self.count = count
            rate = trials == 0 ? nil : Double(count) / Double(trials)
            let interval = WilsonInterval(successes: count, trials: trials)
            (low, high) = (interval?.low, interval?.high)
        }
    }

    /// A row in a later run against the first, over the trials both hold.
    public struct Paired: Codable, Sendable {
        public var run: Int
        public var join: JoinCounts
        public var attackSuccess: Metric
        public var shown: Metric
        public var answeredPlain: Metric
        public var answeredAttacked: Metric
        public var quality: ResultMap<QualityName, Quality>

        init(_ paired: ProbeComparison.Paired) {
            (run, join) = (paired.run, paired.join)
            attackSuccess = Metric(paired.attackSuccess)
            shown = Metric(paired.shown)
            answeredPlain = Metric(paired.answeredPlain)
            answeredAttacked = Metric(paired.answeredAttacked)
            quality = ResultMap(paired.quality.map {
                (QualityName($0.name), Quality(plain: Metric($0.plain), attacked: Metric($0.attacked)))
            })
        }

        enum CodingKeys: String, CodingKey {
            case run, join
            case attackSuccess = "attack_success", shown, answeredPlain = "answered_plain", answeredAttacked = "answered_attacked"
            case quality
        }
    }

    /// A quality measure's plain values compared, and its attacked ones.
    public struct Quality: Codable, Sendable {
        public var plain: Metric
        public var attacked: Metric
    }

    /// A `--fail-if-worse injection.JOB` gate on one later run.
    public struct Gate: Codable, Sendable {
        public var key: TokenLabel
        public var job: JobKind
        public var run: Int
        /// The job's attack success verdict in that run; `no pairs` when nothing was paired.
        public var verdict: MetricVerdict
        public var difference: Double?
        public var pHolm: Double?
        public var passed: Bool

        init(_ verdict: ProbeCompareGate.Verdict) {
            (key, job, run) = (TokenLabel(verdict.gate.key), verdict.gate.job, verdict.run)
            self.verdict = verdict.metric?.verdict ?? .noPairs
            (difference, pHolm, passed) = (verdict.metric?.difference, verdict.metric?.adjustedPValue, verdict.passed)
        }

        enum CodingKeys: String, CodingKey {
            case key, job, run, verdict, difference
            case pHolm = "p_holm"
            case passed
        }
    }
}
