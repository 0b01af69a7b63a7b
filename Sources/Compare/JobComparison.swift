import Jobs
import Privacy
import ReplayKit

/// One job compared: how its items joined, and its metrics over all of them, by app build, by
/// model version, by locale, and by app build × model version.
public struct JobComparison: Sendable, Equatable {
    public var job: JobKind
    public var join: JoinCounts
    public var overall: SliceComparison
    /// One slice per build, per model version and per locale, in the reports' label order.
    public var byBuild: [SliceComparison]
    public var byModel: [SliceComparison]
    public var byLocale: [SliceComparison] = []
    /// One slice per (build, model version) cell, by build then model in the reports' label order.
    public var byBuildModel: [SliceComparison] = []

    /// Compares `joined`, the job's items, over `metrics`.
    public static func compare(_ job: JobKind, _ joined: JoinedJob, metrics: [MetricDefinition], bootstrap: PairedBootstrap) -> JobComparison {
        func slices(_ dimension: SliceComparison.Dimension, _ label: (ItemOutcome) -> String) -> [SliceComparison] {
            var labels = Set(joined.pairs.map { label($0.base) })
            for item in joined.baseOnly + joined.newOnly + joined.repeatedBase + joined.repeatedNew { labels.insert(label(item)) }
            return labels.sorted(by: ReportLabel.precedes).map { value in
                SliceComparison.compare(dimension, label: value, pairs: joined.pairs.filter { label($0.base) == value },
                                        eligible: joined.counts { label($0) == value }, metrics: metrics, bootstrap: bootstrap)
            }
        }
        func cells() -> [SliceComparison] {
            struct Cell: Hashable { var build: String, model: String }
            func cell(_ item: ItemOutcome) -> Cell { Cell(build: item.build, model: item.model) }
            var labels = Set(joined.pairs.map { cell($0.base) })
            for item in joined.baseOnly + joined.newOnly + joined.repeatedBase + joined.repeatedNew { labels.insert(cell(item)) }
            let ordered = labels.sorted {
                $0.build != $1.build ? ReportLabel.precedes($0.build, $1.build) : ReportLabel.precedes($0.model, $1.model)
            }
            return ordered.map { value in
                SliceComparison.compare(.cell, label: value.build, model: value.model, pairs: joined.pairs.filter { cell($0.base) == value },
                                        eligible: joined.counts { cell($0) == value }, metrics: metrics, bootstrap: bootstrap)
            }
        }
        return JobComparison(
            job: job, join: joined.counts(),
            overall: SliceComparison.compare(.overall, label: "all", pairs: joined.pairs, eligible: joined.counts(), metrics: metrics,
                                             bootstrap: bootstrap),
            byBuild: slices(.build, \.build), byModel: slices(.model, \.model), byLocale: slices(.locale, \.locale), byBuildModel: cells())
    }

    /// The overall slice, then the builds, the models, the locales and the cells.
    public var slices: [SliceComparison] { [overall] + byBuild + byModel + byLocale + byBuildModel }
}
