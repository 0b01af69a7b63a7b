import Jobs
import Privacy
import ReplayKit

/// A CI gate on a comparison, `--fail-if-worse JOB.KEY=MARGIN`: non-inferiority of NEW to BASE,
/// over the job's every item or over a slice of them (`JOB[SLICE].KEY=MARGIN`, `GateKey`).
///
/// It passes only if the data show NEW is not worse than BASE by MARGIN or more: for a metric
/// where higher is better, the lower 95% bound of NEW − BASE is above −MARGIN; where lower is
/// better (fallbacks, latencies, tokens), the upper bound is below +MARGIN. MARGIN is in the
/// metric's unit: a fraction for rates (0.02 is two percentage points), ms, tokens, a quality
/// measure's own unit. A slice with `*` (`chips[build=*].answered=0.02`) is one gate per label,
/// every one of which must pass: the gate as a whole is then an intersection-union test (Berger
/// 1982), whose level is each gate's own, so no correction for the number of slices is needed
/// (more slices only make passing harder). A gate whose slice has no pairs fails.
public struct ComparisonGate: Sendable, Equatable {
    /// The job, the slice and the metric's key as its path.
    public var key: GateKey
    public var metric: MetricDefinition
    public var margin: Double

    public var job: JobKind { key.job }

    /// `JOB.KEY` or `JOB[SLICE].KEY`.
    public var name: String { key.description }

    /// The gate's outcome on `comparison`: one verdict per slice it names.
    public func judge(_ comparison: Comparison) -> [GateVerdict] {
        let higher = metric.direction == .higherIsBetter
        func verdict(_ slice: SliceComparison?, _ key: GateKey) -> GateVerdict {
            var gate = self
            gate.key = key
            guard let result = slice?.metric(metric.key), result.pairs > 0, let bound = higher ? result.lower : result.upper else {
                return GateVerdict(gate: gate, bound: nil)
            }
            return GateVerdict(gate: gate, bound: bound)
        }
        guard let job = comparison.job(self.job) else { return [verdict(nil, key)] }
        func pick(_ slices: [SliceComparison], _ label: GateKey.Label, _ value: (SliceComparison) -> String,
                  _ key: (String) -> GateKey.Slice) -> [GateVerdict] {
            switch label {
            case .every:
                let found = slices.map { verdict($0, GateKey(job: self.job, slice: key(value($0)), path: self.key.path)) }
                return found.isEmpty ? [verdict(nil, self.key)] : found
            case .named(let name):
                return [verdict(slices.first { value($0) == name }, GateKey(job: self.job, slice: key(name), path: self.key.path))]
            }
        }
        switch key.slice {
        case .overall: return [verdict(job.overall, key)]
        case .build(let label): return pick(job.byBuild, label, \.label) { .build(.named($0)) }
        case .model(let label): return pick(job.byModel, label, \.label) { .model(.named($0)) }
        case .locale(let label): return pick(job.byLocale, label, \.label) { .locale(.named($0)) }
        case .cell(let build, let model):
            let builds: [String] = switch build {
            case .every: Array(Set(job.byBuildModel.map(\.label))).sorted { ReportLabel.precedes($0, $1) }
            case .named(let name): [name]
            }
            let verdicts = builds.flatMap { buildLabel in
                let cells = job.byBuildModel.filter { $0.label == buildLabel }
                if case .every = model, cells.isEmpty {
                    return [verdict(nil, GateKey(job: self.job, slice: .cell(build: .named(buildLabel), model: .every), path: key.path))]
                }
                return pick(cells, model, { $0.model ?? "" }) { .cell(build: .named(buildLabel), model: .named($0)) }
            }
            return verdicts.isEmpty ? [verdict(nil, key)] : verdicts
        }
    }
}

extension ComparisonGate {
    /// Parses `JOB.KEY=MARGIN` or `JOB[SLICE].KEY=MARGIN`; an unknown job or key is a usage
    /// error that lists the valid ones.
    public init(parsing text: String) throws(CompareError) {
        guard let equals = text.lastIndex(of: "=") else {
            throw .usage("--fail-if-worse \(text): give JOB.KEY=MARGIN or JOB[SLICE].KEY=MARGIN, such as chips.answered=0.02 or "
                + "chips[build=2.4.1 (534),model=27.0].answered=0.02")
        }
        let key: GateKey
        do throws(GateKey.Problem) {
            key = try GateKey(parsing: String(text[..<equals]))
        } catch {
            throw .usage("--fail-if-worse \(text): \(error)")
        }
        let jobName = key.job.rawValue
        let valid = MetricDefinition.gateable(key.job)
        guard let metric = valid.first(where: { $0.key == key.path }) else {
            let neutral = MetricDefinition.quality(key.path.split(separator: ".").last.map(String.init) ?? key.path).direction == .neutral
            let why = neutral ? "\(key.path) is a size with no better side, so it cannot get worse" : "\(key.path) is not a metric of \(jobName)"
            throw .usage("--fail-if-worse \(text): \(why). Valid keys for \(jobName): \(valid.map(\.key).joined(separator: ", "))")
        }
        guard let margin = Double(text[text.index(after: equals)...]), margin.isFinite, margin >= 0 else {
            throw .usage("--fail-if-worse \(text): the margin must be a number of 0 or more, in the metric's unit (\(metric.unit.rawValue))")
        }
        self.init(key: key, metric: metric, margin: margin)
    }
}
