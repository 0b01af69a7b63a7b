import Confinement
import Endpoint
import Engine
import Foundation
import Jobs
import Llama
import Privacy
import ReplayKit

/// `replay suite run SUITE`: a prompt suite (`replay.suite/1`, docs/suite.md) run through the
/// jobs with a real model, each case's expectations checked, and the results written as ids,
/// flags and counts: report.json (`replay.suite-report/1`), report.md, junit.xml and, last,
/// manifest.json (so `replay verify DIR` checks it as it checks a run).
///
/// The suite file and the prompt set are read first (a bad suite file exits 3 naming the case
/// and key; a bad prompt set is a usage error, exit 2); then the process is confined to writing
/// under `--out` with no network, as a run is, before the model loads (exit 4 when it cannot).
/// With `--endpoint URL` the model is a Chat Completions server on this machine's loopback
/// (`EndpointModel`): its one connection is made before confinement (exit 4 when nothing
/// answers), and is the only socket the sandbox lets the process keep.
/// Exit 0 when every must case passed, 1 when one failed.
public enum SuiteCommand: Subcommand {
    public static var documents: [any ResultDocument.Type] { [SuiteReportDocument.self, SuiteCompareDocument.self, RunManifest.self] }

    public static let name = "suite"

    public static let usage = """
        usage: replay suite run [--out DIR] [--model PATH|NAME] [--prompts FILE.json] [--device PROFILE]
                                [--profiles FILE.json] [--model-version V] [--batch N] [--allow-unsandboxed]
                                [--endpoint URL [--endpoint-model NAME] [--response-format F]]
                                [--force] SUITE.json
               replay suite compare [--out DIR] [--fail-under [JOB.]NAME=MIN]... BASE_DIR DIR...
                                    (replay suite compare --help says more)

        Runs a prompt suite (replay.suite/1, docs/suite.md: fixed screens, expected chip shapes,
        routing cases with known answers, drafts that must parse) through the jobs: each case is
        planned by its job as a run plans a thread, with the model's tokenizer, asked of the model
        (unless it gives its output) and judged as a run judges it; then each expectation is
        checked. Deterministic expectations (eligibility, fallbacks, cuts, @Name routing, parsing)
        do not depend on the model's words; model-dependent ones (who a route goes to, a draft's
        kind, how many chips) are rates. Writes report.json, report.md, junit.xml and
        manifest.json into DIR (default ./suite-report): case ids and counts, never an input's
        words or the model's.

        --out DIR     where the results go (default ./suite-report)
        --model M     a GGUF chat model's path, or the name of one scripts/setup installed:
                      smollm2-135m (the default), qwen2.5-coder-0.5b, qwen2.5-coder-1.5b
                      (scripts/setup --deps-only --model NAME installs it)
        --endpoint URL  ask a Chat Completions server on this machine instead of a GGUF model: macOS 27's
                      fm serve (http://127.0.0.1:1976) serves the phone's own model. Loopback only
                      (127.0.0.1, ::1, localhost); only the suite's words are sent. Not with --model
        --endpoint-model N  the model the requests name (default: none; the server's own)
        --response-format F  how the requests spell the job's schema: json_schema (the default, as the
                      Chat Completions API and fm serve take it) or json_object (llama-cpp-python's server)
        --prompts F   the words the jobs ask with, from a prompt set file (replay.prompts/1)
        --device P    the phone whose clock judges the budgets: a device of the profiles
                      (iphone15pro, the default; iphone16pro, iphone17pro) or custom:MS_PER_TOKEN,TOKENS_PER_S
        --profiles F  each model version's ceiling, languages and speed (docs/profiles.md); default:
                      the built-in set. Cases are cut and judged as --model-version would
        --model-version V  the on-device model version the run stands for (26.4, 27.0): cases
                      with model_versions run only when V is one of them (without it they are skipped)
        --batch N     sequences decoded together (default 8)
        --allow-unsandboxed  run even where the kernel cannot confine writes to DIR
        --force       replace the finished results DIR holds

        \(ExitCode.usageSection(ExitCode.suiteCodes) { $0.suiteMeaning })
        """

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        run(arguments, sandboxing: context.sandboxing, diagnostics: context.diagnostics)
    }

    /// Runs `arguments` (after `suite`). `model`, when given, answers instead of the llama.cpp
    /// engine (tests pass a scripted model); otherwise `--model` or the default model is loaded.
    static func run(_ arguments: [String], sandboxing: Sandboxing, diagnostics: (String) -> Void,
                    model injected: (any LanguageModel)? = nil) -> ExitCode {
        if arguments.first == "compare" {
            return SuiteCompareCommand.run(Array(arguments.dropFirst()), sandboxing: sandboxing, diagnostics: diagnostics)
        }
        let options: SuiteOptions
        do throws(CommandStart.Stop) {
            options = try CommandStart.options(arguments, command: "replay suite", usage: usage, diagnostics: diagnostics,
                                               parse: SuiteOptions.parse)
        } catch {
            return error.exitCode
        }
        let suite: SuiteFile
        do {
            suite = try read(options.suitePath)
        } catch {
            diagnostics("replay suite: \(error.description)")
            return error.exitCode
        }
        var prompts = PromptSet.builtIn
        if let path = options.promptsPath {
            do {
                prompts = try PromptsFile.load(path)
            } catch {
                diagnostics("replay suite: \(error.description)")
                return .usage
            }
        }
        let started = Date()
        let clock = ContinuousClock.now
        // `--endpoint`: connected now, before confinement, which forbids making any socket after
        // it; the sandbox keeps this one connection (a loopback one, which it checks) open.
        var endpoint: EndpointModel? = nil
        if injected == nil, let url = options.endpoint {
            do {
                endpoint = try EndpointModel.connect(url, modelName: options.endpointModel, format: options.responseFormat)
            } catch {
                diagnostics("replay suite: \(error.description)")
                return .model
            }
        }
        // Confined before the model starts any thread, as a run is.
        let confined: CommandStart.Confined
        do throws(CommandStart.Stop) {
            confined = try CommandStart.confine(options.outputDirectory, sandboxing: sandboxing, allowUnsandboxed: options.allowUnsandboxed,
                                                keepingConnections: endpoint.map { [$0.descriptor] } ?? [], force: options.force,
                                                diagnostics: diagnostics)
        } catch {
            return error.exitCode
        }
        defer { confined.claim?.release() }
        let model: any LanguageModel
        let description: ModelDescription
        if let injected {
            model = injected
            description = ModelDescription(info: injected.info, fileBytes: 0, sha256: nil)
        } else if let endpoint {
            model = endpoint
            description = ModelDescription(info: endpoint.info, fileBytes: 0, sha256: nil, endpointModel: endpoint.modelName ?? "default")
        } else {
            do throws(LocalModel.Failure) {
                let loaded = try LocalModel.load(path: options.modelPath, batch: options.batchSize, profiles: options.profiles,
                                                 device: options.device)
                model = loaded.engine
                description = loaded.description
            } catch {
                diagnostics("replay suite: \(error.description)")
                return .model
            }
        }
        let results = SuiteRunner(suite: suite, model: model, prompts: prompts, device: options.device,
                                  modelVersion: options.modelVersion, profiles: options.profiles).run()
        let report = SuiteReport(file: options.suitePath, suite: suite, results: results, model: description,
                                 modelVersion: options.modelVersion, prompts: prompts.identity, device: options.device,
                                 sandbox: confined.sandbox, started: ISO8601DateFormatter().string(from: started),
                                 seconds: clock.millisecondsSince / 1000)
        do throws(OutputDirectory.Failure) {
            try OutputDirectory(options.outputDirectory).saveSuite(json: SuiteReportDocument(report).json(), markdown: SuiteMarkdown.render(report), junit: SuiteJUnit.render(report))
        } catch {
            diagnostics("replay suite: \(error.description)")
            return .output
        }
        if let endpoint { diagnostics("replay suite: " + endpoint.summary) }
        for line in summary(report) { diagnostics("replay suite: " + line) }
        diagnostics("replay suite: results in \(options.outputDirectory)/report.json, report.md and junit.xml")
        return report.passed ? .success : .thresholdsNotMet
    }

    /// Reads and checks the suite file (at most `SuiteFile.maximumBytes`).
    static func read(_ path: String) throws(SuiteError) -> SuiteFile {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(file: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        defer { try? handle.close() }
        var data = Data()
        while data.count <= SuiteFile.maximumBytes {
            let piece: Data?
            do {
                piece = try handle.read(upToCount: 1 << 16)
            } catch {
                throw .unreadable(file: path, reason: RunCommand.systemReason(error))
            }
            guard let piece, !piece.isEmpty else { break }
            data += piece
        }
        guard data.count <= SuiteFile.maximumBytes else { throw .tooLarge(file: path, limit: SuiteFile.maximumBytes) }
        return try SuiteFile(parsing: Array(data), file: path)
    }

    /// A line per job and per kind of expectation, then the must cases that failed, by id.
    static func summary(_ report: SuiteReport) -> [String] {
        var lines: [String] = []
        for job in report.jobs {
            let runs = report.runCounts(of: job)
            var line = "\(job.rawValue): \(runs.passed) of \(runs.runs - runs.skipped) cases passed"
            if runs.skipped > 0 { line += " (\(runs.skipped) skipped)" }
            line += "; must: \(runs.must - runs.mustFailed) of \(runs.must)"
            lines.append(line)
        }
        for kind in SuiteReport.Kind.allCases {
            let counts = report.expectationCounts(kind)
            let rate = counts.passRate.map { String(format: " (%.1f%%)", $0 * 100) } ?? ""
            lines.append("\(kind == .deterministic ? "deterministic" : "model-dependent") expectations: \(counts.passed) of \(counts.checked) passed\(rate)")
        }
        let failedMust = report.results.filter { $0.must && $0.failed }
        for result in failedMust {
            let names = result.expectations.filter { !$0.passed }.map { "\($0.name) (\($0.reason ?? .differs))" }
            lines.append("must case \(result.name) failed: \(names.joined(separator: ", "))")
        }
        let counts = report.runCounts
        lines.append(report.passed ? "verdict: pass, every must case passed (\(counts.must))"
                                   : "verdict: fail, \(counts.mustFailed) of \(counts.must) must cases failed (exit 1)")
        return lines
    }
}
