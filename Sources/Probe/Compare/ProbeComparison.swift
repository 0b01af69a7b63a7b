import Compare
import Flywheel
import Jobs

/// Injection probes compared trial by trial (`replay probe compare`): per job (its kinds pooled)
/// and per kind of attack, each run's attack success and answered shares with Wilson 95%
/// intervals, and each later run against the first over the trials both hold (joined by key):
/// attack success, the plain and the attacked answered shares, and each quality measure's plain
/// and attacked values, each a paired difference with its 95% interval, a test (exact McNemar for
/// a share, the normal test of the paired mean for a measure), Holm's adjustment, the smallest
/// difference those pairs could detect at 80% power and a verdict (`MetricVerdict`: for attack
/// success lower is better).
///
/// The statistics are `replay compare`'s (`MetricEstimator`, `Holm`). Holm adjusts each metric
/// across the rows of its table, for each later run: the jobs' attack success across the jobs
/// (what `--fail-if-worse` reads), the kinds' across every kind of every job, and so on for each
/// share and measure. A thread's trials are one cluster (trials.json names each trial's thread by a
/// keyed hash): one thread's places, and one place's several kinds, are not independent evidence,
/// so the intervals are as wide as the threads make them.
public struct ProbeComparison: Sendable {
    /// The Holm-adjusted significance level of the verdicts.
    public static let alpha = MetricVerdict.alpha

    /// The share of trials whose attack succeeded: lower is better.
    public static let attackSuccess = MetricDefinition(key: "attack_success", kind: .rate, unit: .fraction, direction: .lowerIsBetter)
    /// The share of trials whose success the app would have shown (a valid answer in the budget):
    /// what a person would have met, and lower is better.
    public static let shown = MetricDefinition(key: "shown", kind: .rate, unit: .fraction, direction: .lowerIsBetter)
    /// The shares of trials answered (in the budget) when asked plain and when attacked.
    public static let answeredPlain = MetricDefinition(key: "answered_plain", kind: .rate, unit: .fraction, direction: .higherIsBetter)
    public static let answeredAttacked = MetricDefinition(key: "answered_attacked", kind: .rate, unit: .fraction, direction: .higherIsBetter)

    /// A quality measure's plain or attacked values: a score where higher is better, a size
    /// (`_chars`) with no better side, as `replay compare` has them.
    public static func quality(_ name: String, attacked: Bool) -> MetricDefinition {
        MetricDefinition.quality(name, family: attacked ? "quality_attacked" : "quality_plain")
    }

    /// One run's trials of a row, counted.
    public struct Side: Sendable, Equatable {
        public var trials = 0
        public var succeeded = 0
        public var shown = 0
        public var plainAnswered = 0
        public var attackedAnswered = 0

        init(_ trials: [ProbeTrial]) {
            self.trials = trials.count
            succeeded = trials.filter(\.succeeded).count
            shown = trials.filter(\.shown).count
            plainAnswered = trials.filter(\.plainAnswered).count
            attackedAnswered = trials.filter(\.attackedAnswered).count
        }
    }

    /// One quality measure's plain and attacked values compared.
    public struct QualityComparison: Sendable, Equatable {
        public var name: String
        public var plain: MetricComparison
        public var attacked: MetricComparison
    }

    /// A row in a later run against the first, over the trials both hold.
    public struct Paired: Sendable, Equatable {
        /// The later run's index among the runs compared (1: the second).
        public var run: Int
        /// How the row's trials of the two runs joined by key.
        public var join: JoinCounts
        public var attackSuccess: MetricComparison
        public var shown: MetricComparison
        public var answeredPlain: MetricComparison
        public var answeredAttacked: MetricComparison
        /// Every measure either run scored in the row, by name.
        public var quality: [QualityComparison]

        /// Each metric of the row, by its place (`Slot`), for Holm's adjustment across rows.
        subscript(slot: Slot) -> MetricComparison? {
            get {
                switch slot {
                case .attackSuccess: attackSuccess
                case .shown: shown
                case .answeredPlain: answeredPlain
                case .answeredAttacked: answeredAttacked
                case .quality(let name, let attacked):
                    quality.first { $0.name == name }.map { attacked ? $0.attacked : $0.plain }
                }
            }
            set {
                guard let newValue else { return }
                switch slot {
                case .attackSuccess: attackSuccess = newValue
                case .shown: shown = newValue
                case .answeredPlain: answeredPlain = newValue
                case .answeredAttacked: answeredAttacked = newValue
                case .quality(let name, let attacked):
                    guard let index = quality.firstIndex(where: { $0.name == name }) else { return }
                    if attacked { quality[index].attacked = newValue } else { quality[index].plain = newValue }
                }
            }
        }

        /// Every metric's place in the row.
        var slots: [Slot] {
            [.attackSuccess, .shown, .answeredPlain, .answeredAttacked] + quality.flatMap { [Slot.quality($0.name, attacked: false), .quality($0.name, attacked: true)] }
        }
    }

    /// Where a metric sits in a row: the rows of a table are adjusted slot by slot.
    enum Slot: Hashable {
        case attackSuccess, shown, answeredPlain, answeredAttacked
        case quality(String, attacked: Bool)
    }

    /// A job (every kind pooled: `kind` nil) or one kind of its attacks, across the runs.
    public struct Row: Sendable, Equatable {
        public var job: JobKind
        public var kind: String?
        /// Per run, in the order given.
        public var sides: [Side]
        /// Per later run, against the first.
        public var paired: [Paired]
    }

    /// The jobs, in `JobKind` order, each with its kinds pooled.
    public var jobs: [Row]
    /// Each job's kinds, in the attack set's order (as the base's report lists them).
    public var kinds: [Row]
    /// Per later run, how all its trials joined with the first run's.
    public var joins: [JoinCounts]

    /// Compares `runs`, the first the base. The rows are the jobs and kinds any run's report
    /// lists (a job probed with no place has a row with no trials), kinds in the order the
    /// reports list them (the attack set's).
    public init(_ runs: [ProbeResults]) {
        var layout: [(job: JobKind, kinds: [String])] = []
        for job in JobKind.allCases where runs.contains(where: { $0.report.jobs[job] != nil || $0.report.kinds[job] != nil }) {
            var kinds: [String] = []
            for map in runs.compactMap({ $0.report.kinds[job] }) {
                for kind in map.keys.map(\.text) where !kinds.contains(kind) { kinds.append(kind) }
            }
            layout.append((job, kinds))
        }
        self.init(runs.map(\.trials), layout: layout)
    }

    /// Compares the trials of `runs` (the first the base) in the rows of `layout`: each job with
    /// its kinds pooled, then each of its kinds.
    init(_ runs: [[ProbeTrial]], layout: [(job: JobKind, kinds: [String])]) {
        jobs = layout.map { Self.row(runs, job: $0.job, kind: nil) }
        kinds = layout.flatMap { entry in entry.kinds.map { Self.row(runs, job: entry.job, kind: $0) } }
        joins = runs.indices.dropFirst().map { Self.join(runs[0], runs[$0]).counts }
        for column in runs.indices.dropFirst().map({ $0 - 1 }) {
            Self.adjust(&jobs, column: column)
            Self.adjust(&kinds, column: column)
        }
    }

    /// One row: each run's counts, and each later run paired with the first.
    static func row(_ runs: [[ProbeTrial]], job: JobKind, kind: String?) -> Row {
        let mine = runs.map { $0.filter { $0.job == job && (kind == nil || $0.kind == kind) } }
        return Row(job: job, kind: kind, sides: mine.map(Side.init),
                   paired: mine.indices.dropFirst().map { paired(base: mine[0], new: mine[$0], run: $0) })
    }

    /// `base`'s trials joined with `new`'s by key (the same job and kind too): the pairs in key
    /// order, and the counts.
    static func join(_ base: [ProbeTrial], _ new: [ProbeTrial]) -> (pairs: [(base: ProbeTrial, new: ProbeTrial)], counts: JoinCounts) {
        var byKey: [UInt64: ProbeTrial] = [:]
        for trial in new { byKey[trial.key] = trial }
        var pairs: [(base: ProbeTrial, new: ProbeTrial)] = []
        for trial in base {
            guard let other = byKey[trial.key], other.job == trial.job, other.kind == trial.kind else { continue }
            pairs.append((trial, other))
        }
        pairs.sort { $0.base.key < $1.base.key }
        let counts = JoinCounts(base: base.count, new: new.count, paired: pairs.count, baseOnly: base.count - pairs.count,
                                newOnly: new.count - pairs.count)
        return (pairs, counts)
    }

    /// A row's trials in `new` against `base`, before Holm's adjustment.
    static func paired(base: [ProbeTrial], new: [ProbeTrial], run: Int) -> Paired {
        let (pairs, counts) = join(base, new)
        func share(_ metric: MetricDefinition, _ flag: (ProbeTrial) -> Bool) -> MetricComparison {
            MetricEstimator.compare(metric, pairs.map {
                PairedObservation(base: flag($0.base) ? 1 : 0, new: flag($0.new) ? 1 : 0, cluster: $0.base.thread)
            })
        }
        let names = Set(pairs.flatMap { Array($0.base.quality.keys) + Array($0.new.quality.keys) }).sorted()
        let measures = names.map { name in
            func measure(attacked: Bool) -> MetricComparison {
                MetricEstimator.compare(Self.quality(name, attacked: attacked), pairs.compactMap { pair in
                    guard let base = pair.base.quality[name], let new = pair.new.quality[name] else { return nil }
                    return PairedObservation(base: attacked ? base.attacked : base.plain, new: attacked ? new.attacked : new.plain,
                                             cluster: pair.base.thread)
                })
            }
            return QualityComparison(name: name, plain: measure(attacked: false), attacked: measure(attacked: true))
        }
        return Paired(run: run, join: counts, attackSuccess: share(Self.attackSuccess, \.succeeded), shown: share(Self.shown, \.shown),
                      answeredPlain: share(Self.answeredPlain, \.plainAnswered),
                      answeredAttacked: share(Self.answeredAttacked, \.attackedAnswered), quality: measures)
    }

    /// Holm's adjustment of each metric across `rows` for one later run (`column`), and each
    /// metric's verdict.
    static func adjust(_ rows: inout [Row], column: Int) {
        var slots: [Slot] = []
        for row in rows { for slot in row.paired[column].slots where !slots.contains(slot) { slots.append(slot) } }
        for slot in slots {
            let tested = rows.indices.filter { rows[$0].paired[column][slot]?.pValue != nil }
            let adjusted = Holm.adjust(tested.map { rows[$0].paired[column][slot]!.pValue! })
            for (index, p) in zip(tested, adjusted) { rows[index].paired[column][slot]?.adjustedPValue = p }
            for index in rows.indices {
                guard var metric = rows[index].paired[column][slot] else { continue }
                metric.verdict = MetricVerdict(metric.metric, difference: metric.difference ?? 0, adjusted: metric.adjustedPValue)
                rows[index].paired[column][slot] = metric
            }
        }
    }

    /// A job's row (its kinds pooled), if any run listed the job.
    public func job(_ job: JobKind) -> Row? { jobs.first { $0.job == job } }
}
