import Confinement
import Foundation
import Privacy
import ReplayKit

/// `replay compare --out DIR BASE_DIR NEW_DIR`: two finished runs over one corpus compared item
/// by item, with paired statistics, and gated with `--fail-if-worse`.
///
/// Each run directory must be finished (its manifest verifies, it holds state.json and
/// items.json.zst, and its state.json checks under the run key) and both must be over the same
/// corpus under that one key; else exit 3, naming the directory and what is missing or differs.
/// The key is read as a run reads it (`--run-key`, `REPLAY_RUN_KEY`, the per-user key), but
/// never made: a per-user key made now could check nothing. The process is confined to writing under
/// DIR, as a merge is, and writes compare.json, compare.md, compare.html, junit.xml and, last,
/// manifest.json. Unmet gates exit 1.
public enum CompareCommand: Subcommand {
    public static var documents: [any ResultDocument.Type] { [CompareDocument.self, RunManifest.self] }

    public static let name = "compare"

    public static let usage = """
        usage: replay compare [--out DIR] [--fail-if-worse JOB.KEY=MARGIN]... [--seed N] [--run-key FILE]
                              [--allow-unsandboxed] BASE_DIR NEW_DIR

        Compares two finished runs over the same corpus (each a run's or a merge's --out) item by
        item: for every job, overall and by app build, model version and locale, each rate, mean and
        percentile in BASE and NEW, the difference NEW - BASE with its 95% interval (standard
        errors clustered by thread), an exact McNemar test for rates, a paired bootstrap over
        threads for percentiles, p-values adjusted by Holm across a job's metrics, the smallest
        difference these items could detect (80% power), and a verdict. Writes compare.json,
        compare.md, compare.html, junit.xml and manifest.json into DIR (default ./replay-compare).

        --fail-if-worse JOB.KEY=MARGIN  fails (exit 1) unless the data show NEW is not worse than
                      BASE by MARGIN or more: the lower 95% bound of NEW - BASE above -MARGIN, or,
                      for fallbacks, latencies and tokens (lower is better), the upper bound below
                      +MARGIN. MARGIN is in the metric's unit (0.02 is 2 points of a rate; ms;
                      tokens). Repeatable; one junit.xml test case each.
        --seed N      the percentiles' bootstrap seed (default \(CompareOptions.defaultSeed))
        --run-key FILE  the runs' key file (default REPLAY_RUN_KEY's, else the per-user key): each
                      state.json carries its digest under it, and one that does not check is refused
        --allow-unsandboxed  run even where the kernel cannot confine writes to DIR

        \(ExitCode.usageSection(ExitCode.compareCodes) { $0.compareMeaning })
        """

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        run(arguments, sandboxing: context.sandboxing, diagnostics: context.diagnostics)
    }

    /// Runs `arguments` (after `compare`).
    static func run(_ arguments: [String], sandboxing: Sandboxing, diagnostics: (String) -> Void) -> ExitCode {
        let options: CompareOptions
        do throws(CommandStart.Stop) {
            options = try CommandStart.options(arguments, command: "replay compare", usage: usage, diagnostics: diagnostics,
                                               parse: CompareOptions.parse)
        } catch {
            return error.exitCode
        }
        if let refusal = CommandStart.outIsRead(options.outputDirectory, of: [options.baseDirectory, options.newDirectory], noun: "run") {
            diagnostics("replay compare: " + refusal)
            return .usage
        }
        // The runs' key, before confinement: each run's state.json is checked under it.
        let (key, confined): (RunKey, CommandStart.Confined)
        do throws(CommandStart.Stop) {
            (key, confined) = try CommandStart.keyedAndConfined(
                options.outputDirectory, runKey: options.runKeyPath, creatingKey: false, command: "replay compare", sandboxing: sandboxing,
                allowUnsandboxed: options.allowUnsandboxed, force: options.force, diagnostics: diagnostics)
        } catch { return error.exitCode }
        defer { confined.claim?.release() }
        let base: RunDirectory, new: RunDirectory
        do throws(CompareError) {
            base = try RunDirectory.read(options.baseDirectory, key: key)
            new = try RunDirectory.read(options.newDirectory, key: key)
            if let difference = RunDirectory.corpusDifference(base: base, new: new) {
                throw .differentCorpora(base: options.baseDirectory, new: options.newDirectory, because: difference)
            }
        } catch {
            diagnostics("replay compare: \(error.description)")
            return error.exitCode
        }
        let comparison = Comparison(base: base.items, new: new.items, bootstrap: PairedBootstrap(seed: options.seed))
        let verdicts = options.gates.flatMap { $0.judge(comparison) }
        let report = CompareReport(base: base, new: new, comparison: comparison, gates: verdicts, sandbox: confined.sandbox)
        let json: String
        do throws(StateFormatError) {
            json = try CompareDocument(report).json()
        } catch {
            diagnostics("replay compare: compare.json cannot be written: \(error.description)")
            return .output
        }
        do throws(OutputDirectory.Failure) {
            try OutputDirectory(options.outputDirectory).saveComparison(
                json: json, markdown: CompareMarkdown.render(report), html: CompareHTML.render(report), junit: CompareJUnit.render(verdicts))
        } catch {
            diagnostics("replay compare: \(error.description)")
            return .output
        }
        for line in summary(comparison) { diagnostics("replay compare: " + line) }
        diagnostics("replay compare: results in \(options.outputDirectory)/compare.json, compare.md and compare.html")
        guard !verdicts.isEmpty else { return .success }
        for verdict in verdicts { diagnostics("replay compare: gate \(verdict.line)") }
        let failed = verdicts.filter { !$0.passed }.count
        diagnostics(failed == 0 ? "replay compare: verdict: all \(verdicts.count) gates passed"
                                : "replay compare: verdict: \(failed) of \(verdicts.count) gates failed (exit 1)")
        return failed == 0 ? .success : .thresholdsNotMet
    }

    /// A line per job: how its items joined and how many metrics got which verdict overall.
    static func summary(_ comparison: Comparison) -> [String] {
        comparison.jobs.map { job in
            let verdicts = job.overall.metrics.map(\.verdict)
            let counts = [MetricVerdict.better, .worse, .changed].map { verdict in "\(verdicts.filter { $0 == verdict }.count) \(verdict.rawValue)" }
            return "\(job.job.rawValue): \(job.join.paired) items paired, \(job.join.baseOnly) in BASE only, \(job.join.newOnly) in NEW only"
                + (job.join.repeated > 0 ? ", \(job.join.repeated) left out (repeated keys)" : "")
                + "; overall \(counts.joined(separator: ", ")) of \(verdicts.count) metrics"
        }
    }
}
