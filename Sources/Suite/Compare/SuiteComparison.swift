import Compare
import Flywheel
import Jobs

/// Suite results compared (`replay suite compare`): for each job and model-dependent expectation,
/// each run's pass rate with a Wilson 95% interval, and each later run against the first, paired
/// over the case runs both judged: the difference with its 95% interval, an exact McNemar test,
/// Holm's adjustment across the expectations of that pair of runs, and the smallest difference
/// those pairs could detect at 80% power.
///
/// A case run is a case id with its language (a case run once per language is several), judged
/// when it ran (not skipped) and had no given output; runs of one case share a cluster, so a case
/// asked in six languages is not six independent pieces of evidence.
public struct SuiteComparison: Sendable {
    /// The Holm-adjusted significance level of the verdicts.
    public static let alpha = MetricVerdict.alpha

    /// One expectation's pass rate in one run, with its Wilson 95% bounds (nil without a check).
    /// As compare.json writes it.
    public struct Rate: Codable, Sendable, Equatable {
        public var passed: Int
        public var checked: Int
        public var rate: Double?
        public var low: Double?
        public var high: Double?

        init(passed: Int, checked: Int) {
            (self.passed, self.checked) = (passed, checked)
            rate = checked == 0 ? nil : Double(passed) / Double(checked)
            let interval = WilsonInterval(successes: passed, trials: checked)
            (low, high) = (interval?.low, interval?.high)
        }
    }

    /// One expectation in a later run against the first, as compare.json writes it.
    public struct Paired: Codable, Sendable, Equatable {
        /// The later run's index among the runs compared.
        public var run: Int
        /// Case runs both judged.
        public var pairs: Int
        /// Passed in the first run only (b), and in the later one only (c).
        public var baseOnly: Int
        public var newOnly: Int
        /// The pass rates over the pairs, and later − first with its 95% interval (clustered by case).
        public var baseRate: Double?
        public var newRate: Double?
        public var difference: Double?
        public var lower: Double?
        public var upper: Double?
        /// Exact McNemar p on (b, c); Holm-adjusted across the pair's expectations.
        public var pValue: Double?
        public var adjustedPValue: Double?
        /// The smallest true difference these pairs would detect at 80% power (two-sided 0.05).
        public var minimumDetectable: Double?
        public var verdict: MetricVerdict

        enum CodingKeys: String, CodingKey {
            case run, pairs
            case baseOnly = "base_only", newOnly = "new_only", baseRate = "base_rate", newRate = "new_rate"
            case difference, lower, upper
            case pValue = "p", adjustedPValue = "p_holm", minimumDetectable = "minimum_detectable"
            case verdict
        }
    }

    /// One job's model-dependent expectation across the runs.
    public struct Row: Sendable, Equatable {
        public var job: JobKind
        public var name: SuiteExpectation.Name
        /// Per run, in the order given.
        public var rates: [Rate]
        /// Per later run (`rates[1...]`), against the first.
        public var paired: [Paired]
    }

    public var rows: [Row]

    /// What one run judged: pass or fail per (job, expectation, case run).
    struct Judged {
        var outcomes: [Key: Bool] = [:]
        struct Key: Hashable { var job: JobKind; var name: SuiteExpectation.Name; var caseID: String; var language: String? }
    }

    /// Compares `runs` (suite reports, the first the base), model-dependent expectations only.
    public init(_ runs: [SuiteReportDocument]) {
        let judged = runs.map(Self.judged)
        var keys: [(JobKind, SuiteExpectation.Name)] = []
        for run in judged {
            for key in run.outcomes.keys where !keys.contains(where: { $0 == (key.job, key.name) }) { keys.append((key.job, key.name)) }
        }
        keys.sort { ($0.0.order, $0.1.order) < ($1.0.order, $1.1.order) }
        rows = keys.map { job, name in
            let rates = judged.map { run in
                let mine = run.outcomes.filter { $0.key.job == job && $0.key.name == name }
                return Rate(passed: mine.values.filter { $0 }.count, checked: mine.count)
            }
            let paired = judged.indices.dropFirst().map { Self.paired(base: judged[0], new: judged[$0], run: $0, job: job, name: name) }
            return Row(job: job, name: name, rates: rates, paired: paired)
        }
        // Holm across the expectations, per later run.
        for index in runs.indices.dropFirst() {
            let column = index - 1
            let adjusted = Holm.adjust(rows.map { $0.paired[column].pValue ?? .nan })
            for row in rows.indices {
                var paired = rows[row].paired[column]
                guard let difference = paired.difference, paired.pValue != nil else { continue }
                paired.adjustedPValue = adjusted[row]
                paired.verdict = adjusted[row] < Self.alpha && difference != 0 ? (difference > 0 ? .better : .worse) : .noDetectableChange
                rows[row].paired[column] = paired
            }
        }
    }

    static func judged(_ run: SuiteReportDocument) -> Judged {
        var judged = Judged()
        for result in run.cases where result.status != .skipped && !result.givenOutput {
            for expectation in result.expectations where expectation.kind == .modelDependent {
                judged.outcomes[Judged.Key(job: result.job, name: expectation.name, caseID: result.id.text,
                                           language: result.language?.text)] = expectation.pass
            }
        }
        return judged
    }

    static func paired(base: Judged, new: Judged, run: Int, job: JobKind, name: SuiteExpectation.Name) -> Paired {
        var observations: [PairedObservation] = []
        var b = 0, c = 0
        for (key, basePassed) in base.outcomes where key.job == job && key.name == name {
            guard let newPassed = new.outcomes[key] else { continue }
            if basePassed && !newPassed { b += 1 }
            if !basePassed && newPassed { c += 1 }
            observations.append(PairedObservation(base: basePassed ? 1 : 0, new: newPassed ? 1 : 0, cluster: Self.cluster(key.caseID)))
        }
        // In a fixed order, so every digit of the standard error is the same from run to run.
        observations.sort { ($0.cluster, $0.base, $0.new) < ($1.cluster, $1.base, $1.new) }
        guard let estimate = PairedDifference.estimate(observations) else {
            return Paired(run: run, pairs: 0, baseOnly: 0, newOnly: 0, verdict: .noPairs)
        }
        return Paired(run: run, pairs: observations.count, baseOnly: b, newOnly: c, baseRate: estimate.baseMean, newRate: estimate.newMean,
                      difference: estimate.difference, lower: estimate.lower, upper: estimate.upper,
                      pValue: McNemar.exactPValue(baseOnly: b, newOnly: c), adjustedPValue: nil,
                      minimumDetectable: estimate.minimumDetectable, verdict: .noDetectableChange)
    }

    /// A case's cluster: FNV-1a of its id, the same in every run.
    static func cluster(_ id: String) -> UInt64 {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return hash
    }
}

extension JobKind {
    var order: Int { JobKind.allCases.firstIndex(of: self) ?? 0 }
}

extension SuiteExpectation.Name {
    var order: Int { SuiteExpectation.Name.allCases.firstIndex(of: self) ?? 0 }
}
