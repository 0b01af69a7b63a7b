import Privacy
import ReplayKit

/// compare.md: the comparison as tables a person reads, per job the whole job first, then each
/// app build, model version and locale. Only numbers, labels and the writer's words; every label and
/// path escaped (`MarkdownText`).
public enum CompareMarkdown {
    public static func render(_ report: CompareReport) -> String {
        let comparison = report.comparison
        var out = "# replay compare\n\n"
        out += "BASE: \(run(report.base)).\n\nNEW: \(run(report.new)).\n\n"
        let options = report.optionDifferences
        out += "Options that differ: \(options.isEmpty ? "none" : options.map(md).joined(separator: ", ")). "
        out += "Model file: \(report.modelDiffers ? "differs" : "the same").\n\n"
        out += "Rates are shares of the eligible items both runs have, shown in %, and their differences in percentage points (pp); "
        out += "a gate's margin for a rate is a fraction (0.02 is 2 pp). Intervals are 95%, with standard errors clustered by thread. "
        out += "p: exact McNemar test of the discordant pairs (rates), normal test (means), paired bootstrap over threads "
        out += "(percentiles; seed \(comparison.seed), \(comparison.replicates) draws). Holm p: adjusted across the metrics of a job in a slice. "
        out += "MDD: the smallest difference these pairs could detect at 80% power. "
        out += "No detectable change is not evidence of no change: see MDD.\n\n"
        if !report.gates.isEmpty {
            out += "## Gates\n\n| gate | margin | bound | value | limit | result |\n|---|---:|---|---:|---:|---|\n"
            for verdict in report.gates {
                out += "| \(md(verdict.gate.name)) | \(CompareText.number(verdict.gate.margin)) | \(verdict.testsUpperBound ? "upper" : "lower") "
                out += "| \(verdict.bound.map(CompareText.number) ?? "no pairs") | \(CompareText.number(verdict.limit)) "
                out += "| \(verdict.passed ? "passed" : "failed") |\n"
            }
            out += "\n"
        }
        out += "## Items joined\n\n| job | BASE | NEW | paired | BASE only | NEW only | repeated keys |\n|---|---:|---:|---:|---:|---:|---:|\n"
        for job in comparison.jobs { out += "| \(md(job.job.rawValue)) | " + counts(job.join) + " |\n" }
        out += "| all | " + counts(comparison.join) + " |\n\n"
        for job in comparison.jobs {
            out += "## Job: \(md(job.job.rawValue))\n\n"
            out += "### All items\n\n" + table(job.overall)
            for (title, slices) in [("App build", job.byBuild), ("Model version", job.byModel), ("Locale", job.byLocale),
                                    ("App build × model version", job.byBuildModel)] {
                let shown = CompareMarkdown.shown(slices)
                for slice in shown { out += "### \(title) \(md(CompareMarkdown.name(slice)))\n\n" + table(slice) }
                if shown.count < slices.count { out += "\(slices.count - shown.count) more of \(title.lowercased()) in compare.json.\n\n" }
            }
        }
        return out
    }

    /// At most `ReportLabel.maximumDistinct` slices of a dimension, those with the most items,
    /// in label order (a cell's build, then its model version).
    static func shown(_ slices: [SliceComparison]) -> [SliceComparison] {
        let weights = Dictionary(slices.map { (name($0), $0.eligible.base + $0.eligible.new) }) { a, _ in a }
        let kept = ReportLabel.shown(weights, order: ReportLabel.precedes)
        return slices.filter { kept.contains(name($0)) }
    }

    /// A slice's name as a heading shows it: its label, or a cell's `build × model`.
    static func name(_ slice: SliceComparison) -> String {
        slice.model.map { "\(slice.label) × \($0)" } ?? slice.label
    }

    static func run(_ run: RunDirectory) -> String {
        let facts = runFacts(run)
        return md(facts[0]) + " (" + facts.dropFirst().joined(separator: ", ") + ")"
    }

    /// A run's directory, then its mode, threads, items and shards, unescaped.
    static func runFacts(_ run: RunDirectory) -> [String] {
        let state = run.state
        let preview = state.options.profiles.asModelVersion.map { ["upgrade preview as model version \($0.text)"] } ?? []
        return [run.path, state.options.dryRun ? "dry run" : "replay"] + preview + ["\(state.corpus.threadsReplayed) threads replayed",
                "\(run.items.items.count) items", "\(state.shard.count) shard\(state.shard.count == 1 ? "" : "s")"]
    }

    static func counts(_ c: JoinCounts) -> String {
        [c.base, c.new, c.paired, c.baseOnly, c.newOnly, c.repeated].map(String.init).joined(separator: " | ")
    }

    static func table(_ slice: SliceComparison) -> String {
        let e = slice.eligible
        var out = "Eligible: BASE \(e.base), NEW \(e.new), paired \(e.paired), BASE only \(e.baseOnly), NEW only \(e.newOnly)"
        out += (e.repeated > 0 ? ", repeated keys \(e.repeated)" : "") + ".\n\n"
        out += "| metric | unit | BASE | NEW | NEW - BASE | 95% interval | p | Holm p | MDD | pairs | clusters | verdict |\n"
        out += "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|\n"
        for m in slice.metrics {
            let metric = m.metric
            out += "| \(md(metric.key)) | \(CompareText.unit(metric)) | \(CompareText.value(m.base, metric)) | \(CompareText.value(m.new, metric)) "
            out += "| \(CompareText.difference(m.difference, metric)) | \(CompareText.interval(m.lower, m.upper, metric)) "
            out += "| \(CompareText.pValue(m.pValue)) | \(CompareText.pValue(m.adjustedPValue)) "
            out += "| \(CompareText.magnitude(m.minimumDetectable, metric)) "
            out += "| \(m.pairs) | \(m.clusters) | \(m.verdict.rawValue) |\n"
        }
        return out + "\n"
    }

    static func md(_ text: String) -> String { MarkdownText.escape(text) }
}
