import Compare
import Confinement
import Foundation
import Privacy
import ReplayKit

/// `replay suite compare --out DIR BASE_DIR DIR...`: finished `replay suite run` results (other
/// models, model versions, prompt sets or endpoints) compared expectation by expectation, with
/// each run's pass rates and each later run paired with the first (`SuiteComparison`), and gated
/// with `--fail-under` on a pass rate's lower 95% bound.
///
/// Each directory must be finished (its manifest verifies) and hold a suite's report.json; else
/// exit 3, naming the directory. Runs of different suites compare over the case runs they
/// share. Confined to writing under DIR, as `replay compare` is; writes compare.json
/// (`replay.suite-compare/1`), compare.md, compare.html, junit.xml and, last, manifest.json.
public enum SuiteCompareCommand {
    public static let usage = """
        usage: replay suite compare [--out DIR] [--fail-under [JOB.]NAME=MIN]... [--allow-unsandboxed] [--force]
                                    BASE_DIR DIR...

        Compares finished suite results (each a replay suite run's --out): for every job and
        model-dependent expectation, each run's pass rate with its Wilson 95% interval, and each
        later run against the first over the case runs both judged: the difference with its 95%
        interval (clustered by case), an exact McNemar test, p adjusted by Holm across the
        expectations, the smallest difference those pairs could detect (80% power), and a
        verdict. Writes compare.json, compare.md, compare.html, junit.xml and manifest.json into
        DIR (default ./suite-compare).

        --fail-under [JOB.]NAME=MIN  fails (exit 1) unless the lower 95% bound of the pass rate of
                      NAME (route_to, draft_kind, no_draft, chips_count_range, no_violations,
                      accepted, in_budget) is at least MIN in every run; JOB narrows it to one job.
                      Repeatable; one junit.xml test case per job and run.
        --allow-unsandboxed  run even where the kernel cannot confine writes to DIR
        --force       replace the finished results DIR holds

        \(ExitCode.usageSection(ExitCode.suiteCompareCodes) { $0.suiteCompareMeaning })
        """

    /// `replay suite compare`'s command line.
    struct Options {
        var outputDirectory = "suite-compare"
        var gates: [SuiteGate] = []
        var directories: [String] = []
        var allowUnsandboxed = false
        var force = false

        static func parse(_ arguments: [String]) throws(SuiteError) -> Options? {
            var options = Options()
            var rest = arguments[...]
            var optionsEnded = false
            while let argument = rest.popFirst() {
                if optionsEnded || !argument.hasPrefix("-") {
                    options.directories.append(argument)
                    continue
                }
                switch argument {
                case "-h", "--help": return nil
                case "--": optionsEnded = true
                case "--out":
                    guard let value = rest.popFirst() else { throw .usage("--out needs a value") }
                    options.outputDirectory = value
                case "--fail-under":
                    guard let value = rest.popFirst() else { throw .usage("--fail-under needs a value") }
                    guard let gate = SuiteGate(parsing: value) else {
                        throw .usage("--fail-under takes [JOB.]NAME=MIN with a model-dependent expectation "
                                     + "(\(SuiteGate.gateable.map(\.rawValue).joined(separator: ", "))) and MIN from 0 to 1, not '\(value)'")
                    }
                    options.gates.append(gate)
                case "--allow-unsandboxed": options.allowUnsandboxed = true
                case "--force": options.force = true
                default: throw .usage("unknown option '\(argument)'")
                }
            }
            guard options.directories.count >= 2 else { throw .usage("replay suite compare needs two suite results or more: BASE_DIR DIR...") }
            return options
        }
    }

    /// Runs `arguments` (after `suite compare`).
    static func run(_ arguments: [String], sandboxing: Sandboxing, diagnostics: (String) -> Void) -> ExitCode {
        let options: Options
        do throws(CommandStart.Stop) {
            options = try CommandStart.options(arguments, command: "replay suite compare", usage: usage, diagnostics: diagnostics,
                                               parse: Options.parse)
        } catch {
            return error.exitCode
        }
        if let refusal = CommandStart.outIsRead(options.outputDirectory, of: options.directories, noun: "results") {
            diagnostics("replay suite compare: " + refusal)
            return .usage
        }
        let workingDirectory = FileManager.default.currentDirectoryPath
        let confined: CommandStart.Confined
        do throws(CommandStart.Stop) {
            confined = try CommandStart.confine(options.outputDirectory, sandboxing: sandboxing, allowUnsandboxed: options.allowUnsandboxed,
                                                force: options.force, diagnostics: diagnostics)
        } catch {
            return error.exitCode
        }
        defer { confined.claim?.release() }
        var runs: [(directory: String, report: SuiteReportDocument)] = []
        for directory in options.directories {
            do throws(SuiteError) {
                runs.append((OutputDirectory.resolve(directory, from: workingDirectory), try read(directory)))
            } catch {
                diagnostics("replay suite compare: \(error.description)")
                return error.exitCode
            }
        }
        let comparison = SuiteComparison(runs.map(\.report))
        let verdicts = options.gates.flatMap { $0.judge(comparison) }
        let document = SuiteCompareDocument(runs: runs, comparison: comparison, gates: verdicts, sandbox: confined.sandbox)
        let junit = JUnitReport.render(verdicts.map { Threshold.Verdict(threshold: Threshold(key: GateKey(job: $0.job, path: $0.gate.name.rawValue), minimum: $0.gate.minimum), value: $0.low) })
        do throws(OutputDirectory.Failure) {
            try OutputDirectory(options.outputDirectory).saveComparison(
                json: document.json(), markdown: SuiteCompareMarkdown.render(document), html: SuiteCompareHTML.render(document), junit: junit)
        } catch {
            diagnostics("replay suite compare: \(error.description)")
            return .output
        }
        for row in comparison.rows {
            let rates = row.rates.map { $0.rate.map { String(format: "%.1f%%", 100 * $0) } ?? "none" }.joined(separator: " / ")
            let verdicts = row.paired.map(\.verdict.rawValue).joined(separator: ", ")
            diagnostics("replay suite compare: \(row.job.rawValue).\(row.name.rawValue): \(rates)" + (verdicts.isEmpty ? "" : "; against run 1: \(verdicts)"))
        }
        diagnostics("replay suite compare: results in \(options.outputDirectory)/compare.json, compare.md and compare.html")
        guard !verdicts.isEmpty else { return .success }
        for verdict in verdicts { diagnostics("replay suite compare: gate \(verdict.line)") }
        let failed = verdicts.filter { !$0.met }.count
        diagnostics(failed == 0 ? "replay suite compare: verdict: all \(verdicts.count) gates passed"
                                : "replay suite compare: verdict: \(failed) of \(verdicts.count) gates failed (exit 1)")
        return failed == 0 ? .success : .thresholdsNotMet
    }

    /// A finished suite result: its manifest verifies and its report.json is a suite's.
    static func read(_ directory: String) throws(SuiteError) -> SuiteReportDocument {
        func refuse(_ because: String) -> SuiteError { .notSuiteResults(directory: directory, because: because) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw refuse("there is no such directory")
        }
        if let problem = FinishedRun.problem(in: directory) { throw refuse(problem) }
        guard let text = try? String(contentsOfFile: directory + "/report.json", encoding: .utf8) else {
            throw refuse("it has no report.json that can be read as UTF-8 text")
        }
        do {
            return try ReportValueDecoder().decode(SuiteReportDocument.self, from: try ReportValue(parsingExactJSON: text))
        } catch {
            throw refuse("its report.json is not a replay suite run's (\(SuiteReportDocument.schema)): \(error.description)")
        }
    }
}
