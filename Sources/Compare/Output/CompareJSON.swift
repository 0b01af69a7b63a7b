import Jobs
import Privacy
import ReplayKit

/// compare.json (`replay.compare/1`, docs/compare-schema.md): the whole comparison as numbers,
/// fixed words, labels and the two run directories' paths.
public enum CompareJSON {
    public static let schema = "replay.compare/1"

    public static func render(_ report: CompareReport) -> ReportValue {
        let comparison = report.comparison
        return .object([
            ("schema", .label(schema)),
            ("tool", .object([("name", .label("replay")), ("version", .label(ArgumentParser.version))])),
            ("base", side(report.base)),
            ("new", side(report.new)),
            ("differences", .object([
                ("options", .array(report.optionDifferences.map { .label(Self.flag(of: $0)) })),
                ("model", .bool(report.modelDiffers)),
            ])),
            ("method", .object([
                ("confidence", .number(0.95)),
                ("power", .number(0.8)),
                ("alpha", .number(MetricVerdict.alpha)),
                ("clusters", .label("thread")),
                ("adjustment", .label("holm")),
                // The command takes seeds up to Int.max, so this is the seed itself.
                ("bootstrap", .object([("seed", .int(Int(clamping: comparison.seed))), ("replicates", .int(comparison.replicates))])),
            ])),
            ("sandbox", report.sandbox),
            ("join", join(comparison.join)),
            ("jobs", .object(comparison.jobs.map { job in
                (job.job.rawValue, .object([
                    ("join", join(job.join)),
                    ("overall", slice(job.overall)),
                    ("by_build", .object(job.byBuild.map { ($0.label, slice($0)) })),
                    ("by_model", .object(job.byModel.map { ($0.label, slice($0)) })),
                    ("by_locale", .object(job.byLocale.map { ($0.label, slice($0)) })),
                ]))
            })),
            ("gates", .array(report.gates.map(gate))),
        ])
    }

    static func side(_ run: RunDirectory) -> ReportValue {
        let state = run.state
        return .object([
            ("directory", .label(run.path)),
            ("mode", .label(state.options.dryRun ? "dry-run" : "replay")),
            ("jobs", .array(state.options.jobs.map { .label($0.rawValue) })),
            ("budgets_ms", .object(state.options.jobs.compactMap { job in state.options.budgets[job].map { (job.rawValue, .number($0)) } })),
            ("model_sha256", state.model.sha256.map { .label($0) } ?? .null),
            ("shards", .int(state.shard.count)),
            ("threads_replayed", .int(state.corpus.threadsReplayed)),
            ("items", .int(run.items.items.count)),
        ])
    }

    static func join(_ counts: JoinCounts) -> ReportValue {
        .object([
            ("base", .int(counts.base)), ("new", .int(counts.new)), ("paired", .int(counts.paired)),
            ("base_only", .int(counts.baseOnly)), ("new_only", .int(counts.newOnly)), ("repeated", .int(counts.repeated)),
        ])
    }

    static func slice(_ slice: SliceComparison) -> ReportValue {
        .object([
            ("eligible", join(slice.eligible)),
            ("metrics", .object(slice.metrics.map { ($0.metric.key, metric($0)) })),
        ])
    }

    /// The test of a kind of metric, as compare.json names it.
    static func test(_ kind: MetricDefinition.Kind) -> String {
        switch kind {
        case .rate: "mcnemar_exact"
        case .mean: "paired_normal"
        case .percentile: "paired_bootstrap"
        }
    }

    static func metric(_ m: MetricComparison) -> ReportValue {
        let discordant: ReportValue = m.baseOnly.flatMap { b in m.newOnly.map { c in
            .object([("base_only", .int(b)), ("new_only", .int(c))])
        } } ?? .null
        return .object([
            ("kind", .label(m.metric.kind.rawValue)),
            ("unit", .label(m.metric.unit)),
            ("direction", .label(m.metric.direction.rawValue)),
            ("test", .label(test(m.metric.kind))),
            ("pairs", .int(m.pairs)),
            ("clusters", .int(m.clusters)),
            ("base", .number(m.base)),
            ("new", .number(m.new)),
            ("difference", .number(m.difference)),
            ("lower", .number(m.lower)),
            ("upper", .number(m.upper)),
            ("standard_error", .number(m.standardError)),
            ("p", .number(m.pValue)),
            ("p_holm", .number(m.adjustedPValue)),
            ("minimum_detectable", .number(m.minimumDetectable)),
            ("discordant", discordant),
            ("verdict", .label(m.verdict.rawValue)),
        ])
    }

    static func gate(_ verdict: GateVerdict) -> ReportValue {
        .object([
            ("job", .label(verdict.gate.job.rawValue)),
            ("metric", .label(verdict.gate.metric.key)),
            ("margin", .number(verdict.gate.margin)),
            ("direction", .label(verdict.gate.metric.direction.rawValue)),
            ("bound", .label(verdict.testsUpperBound ? "upper" : "lower")),
            ("value", .number(verdict.bound)),
            ("limit", .number(verdict.limit)),
            ("passed", .bool(verdict.passed)),
            ("reason", verdict.bound == nil ? .label(verdict.noPairsReason) : .null),
        ])
    }

    /// The flag a difference names (`--prompts` of "--prompts: one ran with …"): compare.json
    /// lists flags, compare.md and compare.html the whole sentence.
    static func flag(of difference: String) -> String {
        String(difference.prefix { $0 != ":" })
    }
}
