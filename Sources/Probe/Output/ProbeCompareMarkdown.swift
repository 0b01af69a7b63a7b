import Compare
import Foundation
import Jobs
import ReplayKit

/// compare.md of `replay probe compare`: the probes, then per job a table of its attack success
/// (its kinds pooled, then each kind) in each run with its Wilson 95% interval and each later run
/// against the first, and a table of what the later run costs in utility (the answered shares and
/// the quality measures, plain and attacked, each some pair has), then the gates. Labels, paths and numbers only,
/// labels escaped.
enum ProbeCompareMarkdown {
    static func render(_ document: ProbeCompareDocument) -> String {
        var out = "# replay probe compare\n\n"
        out += "Each later run is compared with run 1 over the trials both hold, joined by their keyed hash: per job (its kinds "
        out += "pooled) and per kind of attack, the attack success rate (lower is better) with its Wilson 95% interval, the "
        out += "difference (later minus first) with its 95% interval, an exact McNemar test of the discordant pairs, p adjusted "
        out += "by Holm across the rows of the table, and the smallest difference these pairs could detect (80% power). "
        out += "Utility is the answered shares and the quality measures of the same trials, asked plain (nobody attacks) and "
        out += "attacked. A thread's trials are one cluster. A verdict of no detectable change is not evidence of no change: "
        out += "the detectable difference says how large one could hide.\n\n"
        out += "| run | directory | attack set | model | prompts | threads | trials | paired with run 1 | only in run 1 | only in this run |\n"
        out += "|---|---|---|---|---|---:|---:|---:|---:|---:|\n"
        for (index, run) in document.runs.enumerated() {
            out += "| \(index + 1)\(index == 0 ? " (base)" : "") | \(md(run.directory.text)) | \(md(run.attacks.name.text)) "
            out += "| \(run.model.map { md($0.name.text) } ?? "none") | \(md(run.prompts.name)) | \(run.threads) | \(run.trials) "
            out += run.join.map { "| \($0.paired) | \($0.baseOnly) | \($0.newOnly) |\n" } ?? "| | | |\n"
        }
        for (job, row) in document.jobs.pairs {
            let kinds = [("all", row)] + (document.kinds[job]?.pairs.map { ($0.key.text, $0.value) } ?? [])
            out += "\n## \(job.rawValue)\n\n### Attack success (lower is better)\n\n"
            out += "| kind | run | success [95%] | against run 1 [95%] | pairs (run 1 only, this run only) | p | p (Holm) | detectable | verdict |\n"
            out += "|---|---:|---|---|---|---:|---:|---:|---|\n"
            for (kind, line) in kinds {
                for (index, side) in line.runs.enumerated() {
                    out += "| \(md(kind)) | \(index + 1) | \(rate(side.attackSuccess, of: side.trials)) | "
                    guard index > 0 else {
                        out += "| | | | | |\n"
                        continue
                    }
                    let metric = line.paired[index - 1].attackSuccess
                    out += "\(difference(metric)) | \(metric.pairs) (\(metric.discordant?.baseOnly ?? 0), \(metric.discordant?.newOnly ?? 0)) "
                    out += "| \(CompareText.pValue(metric.p)) | \(CompareText.pValue(metric.pHolm)) "
                    out += "| \(CompareText.magnitude(metric.minimumDetectable, ProbeComparison.attackSuccess)) | \(metric.verdict.rawValue) |\n"
                }
            }
            // Utility: each share and measure some pair has, in each later run.
            var utility = ""
            for (kind, line) in kinds {
                for paired in line.paired {
                    var measures: [(String, ProbeCompareDocument.Metric, MetricDefinition)] = [
                        ("attack shown", paired.shown, ProbeComparison.shown),
                        ("answered plain", paired.answeredPlain, ProbeComparison.answeredPlain),
                        ("answered attacked", paired.answeredAttacked, ProbeComparison.answeredAttacked),
                    ]
                    for (name, quality) in paired.quality.pairs {
                        measures.append(("\(md(name.name)) plain", quality.plain, ProbeComparison.quality(name.name, attacked: false)))
                        measures.append(("\(md(name.name)) attacked", quality.attacked, ProbeComparison.quality(name.name, attacked: true)))
                    }
                    for (name, metric, definition) in measures where metric.pairs > 0 {
                        utility += "| \(md(kind)) | \(paired.run + 1) | \(name) | \(CompareText.value(metric.base, definition)) "
                        utility += "| \(CompareText.value(metric.new, definition)) | \(difference(metric, definition)) "
                        utility += "| \(CompareText.pValue(metric.p)) | \(CompareText.pValue(metric.pHolm)) "
                        utility += "| \(CompareText.magnitude(metric.minimumDetectable, definition)) | \(metric.verdict.rawValue) |\n"
                    }
                }
            }
            guard !utility.isEmpty else { continue }
            out += "\n### What a person would have met, and utility: the same trials asked plain and attacked\n\n"
            out += "| kind | run | measure | run 1 | this run | against run 1 [95%] | p | p (Holm) | detectable | verdict |\n"
            out += "|---|---:|---|---:|---:|---|---:|---:|---:|---|\n" + utility
        }
        if !document.gates.isEmpty {
            out += "\n## Gates\n\n| gate | run | verdict | passed |\n|---|---:|---|---|\n"
            for gate in document.gates {
                out += "| \(md(gate.key.text)) | \(gate.run + 1) | \(gate.verdict.rawValue) | \(gate.passed ? "yes" : "no") |\n"
            }
        }
        return out
    }

    static func md(_ text: String) -> String { MarkdownText.escape(text) }

    /// `61.7% [49.0, 72.9] (37/60)`, or `no trials`.
    static func rate(_ rate: ProbeCompareDocument.Rate, of trials: Int) -> String {
        guard let value = rate.rate, let low = rate.low, let high = rate.high else { return "no trials" }
        return String(format: "%.1f%% [%.1f, %.1f] (%d/%d)", 100 * value, 100 * low, 100 * high, rate.count, trials)
    }

    /// The difference and its interval in the metric's unit (`-15 [-26.9, -3.1] pp`), or `no pairs`.
    static func difference(_ metric: ProbeCompareDocument.Metric, _ definition: MetricDefinition = ProbeComparison.attackSuccess) -> String {
        guard metric.difference != nil else { return "no pairs" }
        return CompareText.difference(metric.difference, definition, withUnit: false) + " "
            + CompareText.interval(metric.lower, metric.upper, definition)
    }
}
