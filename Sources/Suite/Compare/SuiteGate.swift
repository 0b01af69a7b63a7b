import Jobs

/// A `replay suite compare --fail-under` gate: a model-dependent expectation whose pass rate must
/// be at least `minimum` with 95% confidence in every run compared, that is, whose lower Wilson
/// bound is at least `minimum`. `route_to=0.6` gates the expectation in every job that has it;
/// `route.route_to=0.6` in that job only.
public struct SuiteGate: Sendable, Equatable {
    public var job: JobKind?
    public var name: SuiteExpectation.Name
    public var minimum: Double

    /// The model-dependent expectations: a deterministic one passes or fails whole, which the
    /// suite's must cases already gate.
    public static let gateable: [SuiteExpectation.Name] = [.accepted, .inBudget, .routeTo, .draftKind, .noDraft, .chipsCountRange, .noViolations]

    /// Parses `[JOB.]NAME=MIN` with MIN from 0 to 1; nil when it is not one.
    public init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let minimum = Double(parts[1]), minimum >= 0, minimum <= 1 else { return nil }
        let key = parts[0].split(separator: ".", maxSplits: 1).map(String.init)
        if key.count == 2 {
            guard let job = JobKind(rawValue: key[0]) else { return nil }
            self.job = job
        }
        guard let name = SuiteExpectation.Name(rawValue: key.last ?? ""), Self.gateable.contains(name) else { return nil }
        (self.name, self.minimum) = (name, minimum)
    }

    /// One gate on one job's expectation in one run.
    public struct Verdict: Sendable, Equatable {
        public var gate: SuiteGate
        public var job: JobKind
        /// The run's index among those compared (0: the first).
        public var run: Int
        /// The lower Wilson bound of the pass rate; nil when the run judged none (not met).
        public var low: Double?
        public var met: Bool { low.map { $0 >= gate.minimum } ?? false }

        /// The gate's key, as junit.xml names it: `route.route_to`.
        public var key: String { "\(job.rawValue).\(gate.name.rawValue)" }

        /// One line for people: `route.route_to in run 2: lower bound 0.412 < 0.6 (not met)`.
        public var line: String {
            guard let low else { return "\(key) in run \(run + 1): no data (not met; needs \(gate.minimum))" }
            let shown = (low * 1000).rounded() / 1000
            return met ? "\(key) in run \(run + 1): lower bound \(shown) >= \(gate.minimum) (met)"
                       : "\(key) in run \(run + 1): lower bound \(shown) < \(gate.minimum) (not met)"
        }
    }

    /// The gate judged in every run of `comparison`, for each job it names that the runs judged.
    public func judge(_ comparison: SuiteComparison) -> [Verdict] {
        let rows = comparison.rows.filter { $0.name == name && (job == nil || $0.job == job) }
        if rows.isEmpty, let job { return [Verdict(gate: self, job: job, run: 0, low: nil)] }
        return rows.flatMap { row in
            row.rates.enumerated().map { Verdict(gate: self, job: row.job, run: $0, low: $1.low) }
        }
    }
}
