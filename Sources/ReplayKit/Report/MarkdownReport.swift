import Confinement
import Foundation
import Privacy

/// report.md: the same numbers as report.json, as tables a person reads.
///
/// Every label and key is escaped (`MarkdownText`), so none can break a table or make a link.
public enum MarkdownReport {
    public static func render(_ report: ReportValue) -> String {
        var out = "# replay report\n\n"
        let mode = report.at("run.mode").flatMap(label) ?? "?"
        out += "Mode: \(mode). Model: \(report.at("model.name").flatMap(label) ?? "none (dry run)")"
        if let description = report.at("model.description").flatMap(label) { out += " (\(description))" }
        out += ". Device profile: \(report.at("device.profile").flatMap(label) ?? "?")"
        if let name = report.at("run.prompts.name").flatMap(label), let digest = report.at("run.prompts.sha256").flatMap(label) {
            out += ". Prompts: \(md(name)) (SHA-256 \(md(digest)))"
        }
        out += ".\n\n"

        out += "## Corpus\n\n| files | threads | messages | bad lines | unknown line types | unknown node kinds |\n|---:|---:|---:|---:|---:|---:|\n"
        out += "| \(int(report.at("corpus.files"))) | \(int(report.at("corpus.threads"))) | \(int(report.at("corpus.messages"))) "
        out += "| \(int(report.at("corpus.bad_lines"))) | \(sum(report.at("corpus.unknown_types"))) | \(sum(report.at("corpus.unknown_nodes"))) |\n\n"
        if case .array(let errors)? = report.at("corpus.errors"), !errors.isEmpty {
            out += "Input errors:\n\n" + errors.compactMap(label).map { "- \($0)\n" }.joined() + "\n"
        }

        guard case .object(let jobs)? = report["jobs"] else { return out }
        for (name, job) in jobs {
            out += "## Job: \(md(name))\n\n"
            out += "Budget \(number(job["budget_ms"])) ms (\(job["budget_source"].flatMap(label) ?? "–")).\n\n"
            out += table(rows: [("all", job)])
            for (dimension, title) in [("by_build", "By app build"), ("by_model", "By model version"), ("by_locale", "By locale")] {
                if case .object(let slices)? = job[dimension], !slices.isEmpty {
                    out += "\n### \(title)\n\n" + table(rows: slices)
                }
            }
            if case .object(let fallbacks)? = job["fallbacks"], !fallbacks.isEmpty {
                out += "\nFallbacks: " + fallbacks.map { "\(md($0.0)) \(int($0.1))" }.joined(separator: ", ") + ".\n"
            }
            // What the person saw, then every valid answer (late ones too), under their report keys:
            // prose here could repeat a phrase of a model output, which the audit rightly flags.
            for key in ["quality", "quality_all_answers"] {
                if case .object(let quality)? = job[key], !quality.isEmpty {
                    out += "\n\(md(key)): " + qualityLine(quality) + ".\n"
                }
            }
            if case .object(let counters)? = job["counters"], !counters.isEmpty {
                out += "\nCounters: " + counters.map { "\(md($0.0)) \(int($0.1))" }.joined(separator: ", ") + ".\n"
            }
            if case .object(let violations)? = job["violations"], !violations.isEmpty {
                out += "\nNever rules broken (every answer checked): "
                    + violations.map { "\(md($0.0)) \(int($0.1))" }.joined(separator: ", ") + ".\n"
            }
            out += "\n"
        }
        return out
    }

    /// Quality measures as text: 0/1 measures are rates; a measure in characters is a plain mean.
    private static func qualityLine(_ quality: [(String, ReportValue)]) -> String {
        quality.map { name, value in
            let mean = name.hasSuffix("_chars") ? number(value["mean"]) : percent(value["mean"])
            return "\(md(name)) \(mean) over \(int(value["compared"]))"
        }.joined(separator: "; ")
    }

    private static func table(rows: [(String, ReportValue)]) -> String {
        var out = "| slice | scanned | eligible | answered | in budget (host) | in budget (device) | p50 ms | p95 ms | device p95 ms | tokens in | tokens out |\n"
        out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for (name, m) in rows {
            out += "| \(md(name)) | \(int(m["scanned"])) | \(int(m["eligible"])) | \(int(m["answered"])) "
            out += "| \(percent(m.at("in_budget.host"))) | \(percent(m.at("in_budget.device"))) "
            out += "| \(number(m.at("latency_ms.p50"))) | \(number(m.at("latency_ms.p95"))) | \(number(m.at("latency_ms.device_p95"))) "
            out += "| \(int(m.at("tokens.in"))) | \(int(m.at("tokens.out"))) |\n"
        }
        return out
    }

    /// A label's text, escaped.
    private static func label(_ value: ReportValue) -> String? {
        if case .label(let s) = value { md(s) } else { nil }
    }
    private static func md(_ text: String) -> String { MarkdownText.escape(text) }
    private static func int(_ value: ReportValue?) -> String {
        value?.doubleValue.map { String(Int($0)) } ?? "–"
    }
    private static func number(_ value: ReportValue?) -> String {
        value?.doubleValue.map { String(format: "%.0f", $0) } ?? "–"
    }
    private static func percent(_ value: ReportValue?) -> String {
        value?.doubleValue.map { String(format: "%.1f%%", $0 * 100) } ?? "–"
    }
    private static func sum(_ value: ReportValue?) -> Int {
        guard case .object(let fields)? = value else { return 0 }
        return fields.reduce(0) { $0 + Int($1.1.doubleValue ?? 0) }
    }
}
