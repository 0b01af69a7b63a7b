import Confinement
import Foundation
import Jobs
import Privacy

/// report.md: the same numbers as report.json, as tables a person reads.
///
/// Every label and key is escaped (`MarkdownText`), so none can break a table or make a link.
public enum MarkdownReport {
    public static func render(_ report: RunReport) -> String {
        var out = "# replay report\n\n"
        out += "Mode: \(md(report.run.mode.rawValue)). Model: \(report.model.map { md($0.name.text) } ?? "none (dry run)")"
        if let model = report.model { out += " (\(md(model.description.text)))" }
        out += ". Device profile: \(md(report.device.name))"
        out += ". Prompts: \(md(report.run.prompts.name)) (SHA-256 \(md(report.run.prompts.sha256)))"
        out += ".\n\n"
        if let version = report.run.profiles.asModelVersion {
            out += "**Upgrade preview**: every place replayed as model version \(md(version.text)) would run it (its context, "
            out += "languages, speed and tokens); the slices by model version keep the version each place was recorded on.\n\n"
        }

        let corpus = report.corpus
        out += "## Corpus\n\n| files | threads | messages | bad lines | unknown line types | unknown node kinds |\n|---:|---:|---:|---:|---:|---:|\n"
        out += "| \(corpus.files) | \(corpus.threads) | \(corpus.messages) "
        out += "| \(corpus.badLines) | \(corpus.unknownTypes.values.reduce(0, +)) | \(corpus.unknownNodes.values.reduce(0, +)) |\n\n"
        if !corpus.errors.isEmpty {
            out += "Input errors:\n\n" + corpus.errors.map { "- \(md($0.text))\n" }.joined() + "\n"
        }

        for (kind, job) in report.jobs.pairs {
            let m = job.overall
            out += "## Job: \(md(kind.rawValue))\n\n"
            out += "Budget \(number(job.settings.budgetMilliseconds)) ms (\(md(job.settings.budgetSource.rawValue)))."
            if let mode = job.settings.pushMode { out += " Push lines written: \(md(mode.rawValue))." }
            out += "\n\n"
            out += table(rows: [("all", m)])
            if let drawer = m.drawer {
                out += "\nDrawer (the agent switcher outside groups): \(drawer.scanned) first messages, \(drawer.eligible) eligible, "
                out += "\(drawer.asked) asked, \(drawer.answered) answered, in budget (device) \(percent(drawer.inBudget.device)).\n"
            }
            if let next = m.nextRun {
                out += "\nNext run: \(next.followed) pushes followed by a run (\(percent(next.coverage))), \(next.neverWritten) never written; "
                out += "delay p50 \(number(next.delaySeconds.p50)) s, p95 \(number(next.delaySeconds.p95)) s.\n"
            }
            let dimensions = [("By app build", job.byBuild.pairs.map { ($0.key.text, $0.value) }),
                              ("By model version", job.byModel.pairs.map { ($0.key.text, $0.value) }),
                              ("By locale", job.byLocale.pairs.map { ($0.key.text, $0.value) }),
                              ("By app build × model version", job.byBuildModel.pairs.flatMap { build in
                                  build.value.pairs.map { ("\(build.key.text) × \($0.key.text)", $0.value) }
                              })]
            for (title, slices) in dimensions where !slices.isEmpty {
                out += "\n### \(title)\n\n" + table(rows: slices)
            }
            if !m.fallbacks.isEmpty {
                out += "\nFallbacks: " + m.fallbacks.pairs.map { "\(md($0.key.rawValue)) \($0.value)" }.joined(separator: ", ") + ".\n"
            }
            // What the person saw, then every valid answer (late ones too), under their report keys:
            // prose here could repeat a phrase of a model output, which the audit rightly flags.
            for (key, quality) in [("quality", m.quality), ("quality_all_answers", m.qualityAllAnswers)] where !quality.isEmpty {
                out += "\n\(md(key)): " + qualityLine(quality) + ".\n"
            }
            if !m.counters.isEmpty {
                out += "\nCounters: " + m.counters.pairs.map { "\(md($0.key.text)) \($0.value)" }.joined(separator: ", ") + ".\n"
            }
            if !m.violations.isEmpty {
                out += "\nNever rules broken (every answer checked): "
                    + m.violations.pairs.map { "\(md($0.key.rawValue)) \($0.value)" }.joined(separator: ", ") + ".\n"
            }
            out += "\n"
        }
        return out
    }

    /// Quality measures as text: 0/1 measures are rates; a measure in characters is a plain mean.
    private static func qualityLine(_ quality: ResultMap<QualityName, RunReport.Metrics.Quality>) -> String {
        quality.pairs.map { name, value in
            let mean = name.name.hasSuffix("_chars") ? number(value.mean) : percent(value.mean)
            return "\(md(name.name)) \(mean) over \(value.compared)"
        }.joined(separator: "; ")
    }

    private static func table(rows: [(String, RunReport.Metrics)]) -> String {
        var out = "| slice | scanned | eligible | answered | in budget (host) | in budget (device) | in budget (queued) "
        out += "| p50 ms | p95 ms | device p95 ms | queued p95 ms | tokens in | tokens out |\n"
        out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for (name, m) in rows {
            out += "| \(md(name)) | \(m.scanned) | \(m.eligible) | \(m.answered) "
            out += "| \(percent(m.inBudget.host)) | \(percent(m.inBudget.device)) | \(percent(m.inBudget.queued)) "
            out += "| \(number(m.latencyMilliseconds.p50)) | \(number(m.latencyMilliseconds.p95)) | \(number(m.latencyMilliseconds.deviceP95)) "
            out += "| \(number(m.latencyMilliseconds.queuedP95)) "
            out += "| \(m.tokens.in) | \(m.tokens.out) |\n"
        }
        return out
    }

    private static func md(_ text: String) -> String { MarkdownText.escape(text) }
    private static func number(_ value: Double?) -> String {
        value.map { String(format: "%.0f", $0) } ?? "–"
    }
    private static func percent(_ value: Double?) -> String {
        value.map { String(format: "%.1f%%", $0 * 100) } ?? "–"
    }
}
