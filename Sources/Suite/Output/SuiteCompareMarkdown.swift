import Compare
import Foundation
import Jobs
import ReplayKit

/// compare.md of `replay suite compare`: the runs, then per job a table of its model-dependent
/// expectations, each run's pass rate with its Wilson 95% interval and each later run against the
/// first (difference with its 95% interval, McNemar p, Holm p, the smallest detectable
/// difference, the verdict), then the gates. Labels, paths and numbers only, labels escaped.
public enum SuiteCompareMarkdown {
    public static func render(_ document: SuiteCompareDocument) -> String {
        var out = "# replay suite compare\n\n"
        out += "Each later run is compared with run 1 over the case runs both judged: the difference in pass rate (later minus first) "
        out += "with its 95% interval (clustered by case), an exact McNemar test, p adjusted by Holm across the expectations of that "
        out += "run, and the smallest difference these pairs could detect (80% power). Pass rates carry Wilson 95% intervals. "
        out += "A verdict of no detectable change is not evidence of no change: the detectable difference says how large one could hide.\n\n"
        out += "| run | directory | suite | model | model version | prompts |\n|---|---|---|---|---|---|\n"
        for (index, run) in document.runs.enumerated() {
            out += "| \(index + 1)\(index == 0 ? " (base)" : "") | \(md(run.directory.text)) | \(md(run.suite.text)) "
            out += "| \(run.model.map { md($0.name.text) } ?? "none") | \(run.modelVersion.map { md($0.text) } ?? "none given") "
            out += "| \(md(run.prompts.name)) |\n"
        }
        for job in JobKind.allCases {
            let rows = document.expectations.filter { $0.job == job }
            guard !rows.isEmpty else { continue }
            out += "\n## \(job.rawValue)\n\n"
            out += "| expectation | run | pass rate [95%] | against run 1 [95%] | pairs (lost, gained) | p | p (Holm) | detectable | verdict |\n"
            out += "|---|---:|---|---|---|---:|---:|---:|---|\n"
            for row in rows {
                for (index, rate) in row.rates.enumerated() {
                    out += "| \(row.expectation.rawValue) | \(index + 1) | \(SuiteCompareText.rate(rate)) | "
                    if index == 0 {
                        out += "| | | | | |\n"
                        continue
                    }
                    let paired = row.paired[index - 1]
                    out += "\(SuiteCompareText.difference(paired)) | \(paired.pairs) (\(paired.baseOnly), \(paired.newOnly)) "
                    out += "| \(SuiteCompareText.p(paired.pValue)) | \(SuiteCompareText.p(paired.adjustedPValue)) "
                    out += "| \(SuiteCompareText.points(paired.minimumDetectable)) | \(paired.verdict.rawValue) |\n"
                }
            }
        }
        if !document.gates.isEmpty {
            out += "\n## Gates\n\n| gate | run | lower bound | minimum | met |\n|---|---:|---:|---:|---|\n"
            for gate in document.gates {
                out += "| \(gate.job.rawValue).\(gate.expectation.rawValue) | \(gate.run + 1) | \(gate.low.map { String(format: "%.3f", $0) } ?? "no data") "
                out += "| \(gate.minimum) | \(gate.met ? "yes" : "no") |\n"
            }
        }
        return out
    }

    static func md(_ text: String) -> String { MarkdownText.escape(text) }
}

/// The numbers of a suite comparison as compare.md and compare.html show them.
enum SuiteCompareText {
    /// `61.7% [49.0, 72.9] (37/60)`, or `no checks`.
    static func rate(_ rate: SuiteComparison.Rate) -> String {
        guard let value = rate.rate, let low = rate.low, let high = rate.high else { return "no checks" }
        return String(format: "%.1f%% [%.1f, %.1f] (%d/%d)", 100 * value, 100 * low, 100 * high, rate.passed, rate.checked)
    }

    /// `+15.0 [+3.1, +26.9] points`, or `no pairs`.
    static func difference(_ paired: SuiteComparison.Paired) -> String {
        guard let difference = paired.difference, let lower = paired.lower, let upper = paired.upper else { return "no pairs" }
        return String(format: "%+.1f [%+.1f, %+.1f] points", 100 * difference, 100 * lower, 100 * upper)
    }

    static func p(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return value < 0.001 ? "< 0.001" : String(format: "%.3f", value)
    }

    static func points(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        return String(format: "%.1f points", 100 * value)
    }
}
