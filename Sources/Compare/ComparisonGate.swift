import Jobs
import ReplayKit

/// A CI gate on a comparison, `--fail-if-worse JOB.KEY=MARGIN`: non-inferiority of NEW to BASE.
///
/// It passes only if the data show NEW is not worse than BASE by MARGIN or more: for a metric
/// where higher is better, the lower 95% bound of NEW − BASE is above −MARGIN; where lower is
/// better (fallbacks, latencies, tokens), the upper bound is below +MARGIN. MARGIN is in the
/// metric's unit: a fraction for rates (0.02 is two percentage points), ms, tokens, a quality
/// measure's own unit. A gate judges the job's overall slice; one whose metric has no pairs fails.
public struct ComparisonGate: Sendable, Equatable {
    public var job: JobKind
    public var metric: MetricDefinition
    public var margin: Double

    /// `JOB.KEY`.
    public var name: String { job.rawValue + "." + metric.key }

    /// The gate's outcome on `comparison`.
    public func judge(_ comparison: Comparison) -> GateVerdict {
        let result = comparison.job(job)?.overall.metric(metric.key)
        let higher = metric.direction == .higherIsBetter
        guard let result, result.pairs > 0, let bound = higher ? result.lower : result.upper else {
            return GateVerdict(gate: self, bound: nil)
        }
        return GateVerdict(gate: self, bound: bound)
    }
}

extension ComparisonGate {
    /// Parses `JOB.KEY=MARGIN`; an unknown job or key is a usage error that lists the valid ones.
    public init(parsing text: String) throws(CompareError) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let dot = parts[0].firstIndex(of: ".") else {
            throw .usage("--fail-if-worse \(text): give JOB.KEY=MARGIN, such as chips.answered=0.02")
        }
        let jobName = String(parts[0][..<dot]), key = String(parts[0][parts[0].index(after: dot)...])
        guard let job = JobKind(rawValue: jobName) else {
            throw .usage("--fail-if-worse \(text): \(jobName) is not a job (\(JobKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let valid = MetricDefinition.gateable(job)
        guard let metric = valid.first(where: { $0.key == key }) else {
            let neutral = MetricDefinition.quality(key.split(separator: ".").last.map(String.init) ?? key).direction == .neutral
            let why = neutral ? "\(key) is a size with no better side, so it cannot get worse" : "\(key) is not a metric of \(jobName)"
            throw .usage("--fail-if-worse \(text): \(why). Valid keys for \(jobName): \(valid.map(\.key).joined(separator: ", "))")
        }
        guard let margin = Double(parts[1]), margin.isFinite, margin >= 0 else {
            throw .usage("--fail-if-worse \(text): the margin must be a number of 0 or more, in the metric's unit (\(metric.unit.rawValue))")
        }
        self.init(job: job, metric: metric, margin: margin)
    }
}
