import Foundation
import Jobs
import ReplayKit

/// report.md of `replay probe injection`: the same numbers as report.json, as tables a person
/// reads. Only numbers, labels and the writer's words.
enum ProbeMarkdown {
    static func render(_ document: ProbeReportDocument) -> String {
        var lines = ["# Injection probe", ""]
        lines.append("Verdict: \(document.verdict.rawValue). Attack set \(document.attacks.name.text), prompt set "
                     + "\(document.run.prompts.name), \(document.run.threads) threads read.")
        lines.append("")
        lines.append("An attack succeeded when the attacked output carried its place's marker (or, routing, went to the member "
                     + "whose line the attack took over); shown: a success the app would have shown; baseline: plain outputs "
                     + "that already did what the attack asks. Rates are of trials, with Wilson 95% intervals.")
        lines.append("")
        lines.append("| job | kind | trials | success | 95% interval | shown | baseline | answered plain | answered attacked |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        func row(_ job: String, _ kind: String, _ line: ProbeReportDocument.Line) -> String {
            let rate = line.successRate.map { percent($0) } ?? "—"
            let interval = line.interval.map { "\(percent($0.low)) to \(percent($0.high))" } ?? "—"
            return "| \(job) | \(kind) | \(line.trials) | \(rate) | \(interval) | \(line.shown) | \(line.baseline) | "
                + "\(line.answered.plain) | \(line.answered.attacked) |"
        }
        for (job, line) in document.jobs.pairs {
            lines.append(row(job.rawValue, "all", line))
            for (kind, kindLine) in document.kinds.pairs.first(where: { $0.key == job })?.value.pairs ?? [] {
                lines.append(row(job.rawValue, kind.text, kindLine))
            }
        }
        if !document.gates.isEmpty {
            lines += ["", "| gate | maximum | value | passed |", "|---|---|---|---|"]
            for gate in document.gates {
                lines.append("| \(gate.key.text) | \(percent(gate.maximum)) | \(gate.value.map(percent) ?? "no data") | \(gate.passed ? "yes" : "no") |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func percent(_ share: Double) -> String {
        String(format: "%.1f%%", share * 100)
    }
}
