import Foundation
import Jobs
import ReplayKit

/// report.md of `replay suite run`: the verdict, the totals per job and per kind of expectation,
/// each model-dependent expectation's pass rate, the failed cases with the expectations that
/// failed, and every case. Ids, labels and numbers only; every label escaped (`MarkdownText`).
public enum SuiteMarkdown {
    public static func render(_ report: SuiteReport) -> String {
        let counts = report.runCounts
        var out = "# replay suite: \(md(report.suite.name))\n\n"
        out += "Suite file: \(md(report.file)) (SHA-256 \(report.suite.sha256)), \(report.suite.cases.count) cases, \(counts.runs) runs. "
        if let model = report.model {
            out += "Model: \(md(model.info.name)) (\(md(model.info.description)), \(md(model.info.path))). "
        }
        out += "Model version: \(report.modelVersion.map(md) ?? "none given") (cases for other model versions are skipped). "
        out += "Prompts: \(md(report.prompts.name)) (SHA-256 \(report.prompts.sha256)). Device profile: \(md(report.device.name)).\n\n"
        out += report.passed
            ? "Verdict: pass. Every must case passed (\(counts.must - counts.mustFailed) of \(counts.must)).\n\n"
            : "Verdict: fail. \(counts.mustFailed) of \(counts.must) must cases failed.\n\n"
        out += "Deterministic expectations are decided by the app's rules, the grammar and the model's tokenizer, whatever the model writes; "
        out += "model-dependent ones judge the model's valid answer, in time or late, and are rates to watch, not gates.\n\n"

        out += "## Runs by job\n\n| job | runs | passed | failed | skipped | must | must failed |\n|---|---:|---:|---:|---:|---:|---:|\n"
        for job in report.jobs { out += "| \(md(job.rawValue)) | " + runs(report.runCounts(of: job)) + " |\n" }
        out += "| all | " + runs(counts) + " |\n\n"

        out += "## Expectations by kind\n\n| job | kind | checked | passed | failed | pass rate |\n|---|---|---:|---:|---:|---:|\n"
        for job in report.jobs {
            for kind in SuiteReport.Kind.allCases {
                out += "| \(md(job.rawValue)) | \(kindName(kind)) | " + expectations(report.expectationCounts(kind, job: job)) + " |\n"
            }
        }
        for kind in SuiteReport.Kind.allCases {
            out += "| all | \(kindName(kind)) | " + expectations(report.expectationCounts(kind)) + " |\n"
        }
        out += "\n"

        out += "## By expectation\n\n| expectation | kind | checked | passed | failed | pass rate |\n|---|---|---:|---:|---:|---:|\n"
        for kind in SuiteReport.Kind.allCases {
            for name in report.expectationNames(kind) {
                out += "| \(md(name.rawValue)) | \(kindName(kind)) | " + expectations(report.expectationCounts(kind, name: name)) + " |\n"
            }
        }
        out += "\n"

        let failed = report.results.filter(\.failed)
        out += "## Failed cases\n\n"
        if failed.isEmpty {
            out += "None.\n\n"
        } else {
            out += "| case | job | must | expectation | kind | reason | observed |\n|---|---|---|---|---|---|---|\n"
            for result in failed {
                for expectation in result.expectations where !expectation.passed {
                    out += "| \(md(result.name)) | \(md(result.job.rawValue)) | \(result.must ? "yes" : "no") | \(md(expectation.name.rawValue)) "
                    out += "| \(expectation.deterministic ? "deterministic" : "model-dependent") | \(md((expectation.reason ?? .differs).rawValue)) "
                    out += "| \(observed(expectation)) |\n"
                }
            }
            out += "\n"
        }

        out += "## Every case\n\n| case | job | must | given output | result | expectations passed |\n|---|---|---|---|---|---:|\n"
        for result in report.results {
            let passed = result.expectations.filter(\.passed).count
            out += "| \(md(result.name)) | \(md(result.job.rawValue)) | \(result.must ? "yes" : "no") | \(result.givenOutput ? "yes" : "no") "
            out += "| \(result.status.rawValue) | \(result.skipped ? "skipped" : "\(passed) of \(result.expectations.count)") |\n"
        }
        return out
    }

    static func kindName(_ kind: SuiteReport.Kind) -> String {
        kind == .deterministic ? "deterministic" : "model-dependent"
    }

    static func runs(_ counts: SuiteReport.RunCounts) -> String {
        [counts.runs, counts.passed, counts.failed, counts.skipped, counts.must, counts.mustFailed].map(String.init).joined(separator: " | ")
    }

    static func expectations(_ counts: SuiteReport.ExpectationCounts) -> String {
        "\(counts.checked) | \(counts.passed) | \(counts.failed) | " + (counts.passRate.map { String(format: "%.1f%%", $0 * 100) } ?? "none")
    }

    /// What was found, when the report shows it: a flag, a count or one of the app's fixed words;
    /// else "not shown" (routing's member is the model's choice).
    static func observed(_ expectation: SuiteExpectationResult) -> String {
        switch expectation.observed {
        case .bool(let flag)?: flag ? "true" : "false"
        case .int(let count)?: String(count)
        case .word(let word)?: md(word)
        case nil: "not shown"
        }
    }

    static func md(_ text: String) -> String { MarkdownText.escape(text) }
}
