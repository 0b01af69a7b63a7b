import Jobs
import ReplayKit

/// Two runs over one corpus compared item by item: every job, overall and by build and model
/// version, every metric (`MetricDefinition`) with its paired difference, interval, test,
/// Holm-adjusted p-value, minimum detectable difference and verdict.
///
/// Pure computation over two item tables; `CompareCommand` reads them from run directories and
/// writes what this holds (`CompareReport`).
public struct Comparison: Sendable, Equatable {
    public var jobs: [JobComparison]
    /// The join over every job.
    public var join: JoinCounts
    /// The bootstrap of the percentiles: its seed and number of draws, stated in the outputs.
    public var seed: UInt64
    public var replicates: Int

    public init(base: ItemTable, new: ItemTable, bootstrap: PairedBootstrap = PairedBootstrap()) {
        let joined = ItemJoin(base: base, new: new)
        jobs = joined.jobKinds.map { job in
            JobComparison.compare(job, joined.jobs[job]!, metrics: Self.metrics(for: job, base: base, new: new), bootstrap: bootstrap)
        }
        join = joined.total
        seed = bootstrap.seed
        replicates = bootstrap.replicates
    }

    /// The metrics of `job`: the fixed ones, then each quality key either run scored for it.
    public static func metrics(for job: JobKind, base: ItemTable, new: ItemTable) -> [MetricDefinition] {
        var quality = Set<String>(), allAnswers = Set<String>()
        for item in base.items + new.items where item.job == job {
            quality.formUnion(item.quality.keys)
            allAnswers.formUnion(item.qualityAllAnswers.keys)
        }
        return MetricDefinition.fixed
            + MetricDefinition.violations(job)
            + quality.sorted().map { MetricDefinition.quality($0, family: "quality") }
            + allAnswers.sorted().map { MetricDefinition.quality($0, family: "quality_all_answers") }
    }

    /// The comparison of `job`, if either run has items of it.
    public func job(_ job: JobKind) -> JobComparison? { jobs.first { $0.job == job } }
}
