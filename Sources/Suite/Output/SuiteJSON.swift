import Jobs
import Privacy
import ReplayKit

/// report.json of `replay suite run` (`replay.suite-report/1`, docs/suite.md): the suite, the
/// model, the prompt set and the device; the verdict; totals per job and per kind of
/// expectation; and each run of a case by its id, with each expectation's verdict. Ids, labels,
/// flags and counts only.
public enum SuiteJSON {
    public static let schema = "replay.suite-report/1"

    public static func render(_ report: SuiteReport) -> ReportValue {
        .object([
            ("schema", .label(schema)),
            ("tool", .object([("name", .label("replay")), ("version", .label(ArgumentParser.version))])),
            ("suite", .object([
                ("file", .label(report.file)),
                ("name", .label(report.suite.name)),
                ("sha256", .label(report.suite.sha256)),
                ("cases", .int(report.suite.cases.count)),
                ("runs", .int(report.results.count)),
            ])),
            ("run", .object([
                ("started", .label(report.started)),
                ("seconds", .number(report.seconds)),
                ("model_version", report.modelVersion.map { .label($0) } ?? .null),
                ("prompts", .object([("name", .label(report.prompts.name)), ("sha256", .label(report.prompts.sha256))])),
            ])),
            ("model", report.model.map { ReportBuilder.value($0.report) } ?? .null),
            ("device", .object([
                ("profile", .label(report.device.name)),
                ("prefill_ms_per_token", .number(report.device.prefillMillisecondsPerToken)),
                ("decode_tokens_per_s", .number(report.device.decodeTokensPerSecond)),
                ("source", .label(report.device.source)),
            ])),
            ("sandbox", report.sandbox),
            ("verdict", .label(report.passed ? "pass" : "fail")),
            ("totals", totals(report)),
            ("cases", .array(report.results.map(caseValue))),
        ])
    }

    static func runs(_ counts: SuiteReport.RunCounts) -> [(String, ReportValue)] {
        [("runs", .int(counts.runs)), ("passed", .int(counts.passed)), ("failed", .int(counts.failed)),
         ("skipped", .int(counts.skipped)), ("must", .int(counts.must)), ("must_failed", .int(counts.mustFailed))]
    }

    static func expectations(_ counts: SuiteReport.ExpectationCounts) -> [(String, ReportValue)] {
        [("checked", .int(counts.checked)), ("passed", .int(counts.passed)), ("failed", .int(counts.failed)),
         ("pass_rate", .number(counts.passRate))]
    }

    static func totals(_ report: SuiteReport) -> ReportValue {
        let byJob = report.jobs.map { job -> (String, ReportValue) in
            let kinds = SuiteReport.Kind.allCases.map { kind in (kind.rawValue, ReportValue.object(expectations(report.expectationCounts(kind, job: job)))) }
            return (job.rawValue, .object(runs(report.runCounts(of: job)) + [("by_kind", .object(kinds))]))
        }
        let byKind = SuiteReport.Kind.allCases.map { kind -> (String, ReportValue) in
            let names = report.expectationNames(kind).map { name in
                (name, ReportValue.object(expectations(report.expectationCounts(kind, name: name))))
            }
            return (kind.rawValue, .object(expectations(report.expectationCounts(kind)) + [("by_name", .object(names))]))
        }
        return .object(runs(report.runCounts) + [("by_job", .object(byJob)), ("by_kind", .object(byKind))])
    }

    static func caseValue(_ result: SuiteCaseResult) -> ReportValue {
        .object([
            ("id", .label(result.id)),
            ("language", result.language.map { .label($0) } ?? .null),
            ("job", .label(result.job.rawValue)),
            ("must", .bool(result.must)),
            ("given_output", .bool(result.givenOutput)),
            ("status", .label(status(result))),
            ("expectations", .array(result.expectations.map { expectation in
                .object([
                    ("name", .label(expectation.name)),
                    ("kind", .label(SuiteReport.Kind(expectation).rawValue)),
                    ("pass", .bool(expectation.passed)),
                    ("observed", expectation.observed ?? .null),
                    ("reason", expectation.reason.map { .label($0) } ?? .null),
                ])
            })),
        ])
    }

    /// `pass`, `fail` or `skipped`.
    static func status(_ result: SuiteCaseResult) -> String {
        result.skipped ? "skipped" : result.passed ? "pass" : "fail"
    }
}
