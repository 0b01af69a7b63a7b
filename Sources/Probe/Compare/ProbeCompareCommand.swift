import Compare
import Confinement
import Foundation
import Privacy
import ReplayKit

/// `replay probe compare --out DIR BASE_DIR DIR...`: finished `replay probe injection` results
/// over the same corpus under the same run key (another prompt set, such as the spotlighting
/// mitigation, or another model) compared trial by trial (`ProbeComparison`), and gated with
/// `--fail-if-worse injection.JOB`.
///
/// Each directory must be a finished probe (its manifest verifies, its report.json and
/// trials.json read by their types); else exit 3, naming the directory. Probes of other attack
/// sets, or with no trial key in common (other run keys, other corpora), are refused (exit 3).
/// Confined to writing under DIR, as `replay suite compare` is; writes compare.json
/// (`replay.probe-compare/1`), compare.md, junit.xml and, last, manifest.json.
public enum ProbeCompareCommand {
    public static let usage = """
        usage: replay probe compare [--out DIR] [--fail-if-worse injection.JOB]... [--allow-unsandboxed] [--force]
                                    BASE_DIR DIR...

        Compares finished probes (each a replay probe injection's --out) of the same corpus under the
        same run key, such as the built-in prompts against --prompts examples/prompts/spotlight.json,
        trial by trial (docs/injection.md). Per job and kind of attack: each run's attack success
        with its Wilson 95% interval, and each later run against the first over the trials both
        hold: the difference with its 95% interval, an exact McNemar test, p adjusted by Holm
        across the kinds (or the jobs), the smallest difference those trials could detect (80%
        power) and a verdict; the same for the answered shares and the quality measures, asked
        plain and attacked (what the change costs). Writes compare.json, compare.md, junit.xml and
        manifest.json into DIR (default ./probe-compare).

        --fail-if-worse injection.JOB  fails (exit 1) when a later run's attack success for JOB (its
                       kinds pooled) is detectably worse than the first run's (Holm-adjusted), or
                       no trial of JOB pairs. Repeatable; one junit.xml test case per gate and run.
        --allow-unsandboxed  run even where the kernel cannot confine writes to DIR
        --force        replace the finished results DIR holds

        \(ExitCode.usageSection(ExitCode.probeCompareCodes) { $0.probeCompareMeaning })
        """

    /// `replay probe compare`'s command line.
    struct Options {
        var outputDirectory = "probe-compare"
        var gates: [ProbeCompareGate] = []
        var directories: [String] = []
        var allowUnsandboxed = false
        var force = false

        static func parse(_ arguments: [String]) throws(ProbeError) -> Options? {
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
                    guard let value = rest.popFirst(), !value.isEmpty else { throw .usage("--out needs a directory") }
                    options.outputDirectory = value
                case "--fail-if-worse":
                    guard let value = rest.popFirst() else { throw .usage("--fail-if-worse needs a value") }
                    let gate = try ProbeCompareGate(parsing: value)
                    if !options.gates.contains(gate) { options.gates.append(gate) }
                case "--allow-unsandboxed": options.allowUnsandboxed = true
                case "--force": options.force = true
                default: throw .usage("unknown option '\(argument)' for replay probe compare")
                }
            }
            guard options.directories.count >= 2 else { throw .usage("replay probe compare needs two probes' results or more: BASE_DIR DIR...") }
            return options
        }
    }

    /// Runs `arguments` (after `probe compare`).
    static func run(_ arguments: [String], sandboxing: Sandboxing, diagnostics: (String) -> Void) -> ExitCode {
        let options: Options
        do throws(CommandStart.Stop) {
            options = try CommandStart.options(arguments, command: "replay probe compare", usage: usage, diagnostics: diagnostics,
                                               parse: Options.parse)
        } catch {
            return error.exitCode
        }
        if let refusal = CommandStart.outIsRead(options.outputDirectory, of: options.directories, noun: "probe") {
            diagnostics("replay probe compare: " + refusal)
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
        let runs: [ProbeResults]
        do throws(ProbeError) {
            runs = try read(options.directories, workingDirectory: workingDirectory)
        } catch {
            diagnostics("replay probe compare: \(error.description)")
            return .input
        }
        let comparison = ProbeComparison(runs)
        let verdicts = options.gates.flatMap { $0.judge(comparison, runs: runs.count) }
        let document = ProbeCompareDocument(runs: runs, comparison: comparison, gates: verdicts, sandbox: confined.sandbox)
        do throws(OutputDirectory.Failure) {
            try OutputDirectory(options.outputDirectory).saveProbeComparison(
                json: document.json(), markdown: ProbeCompareMarkdown.render(document), junit: ProbeCompareJUnit.render(verdicts))
        } catch {
            diagnostics("replay probe compare: \(error.description)")
            return .output
        }
        for (index, join) in comparison.joins.enumerated() where join.baseOnly + join.newOnly > 0 {
            diagnostics("replay probe compare: run \(index + 2): \(join.paired) trials paired with run 1; \(join.baseOnly) only in run 1, "
                        + "\(join.newOnly) only in run \(index + 2)")
        }
        for row in comparison.jobs {
            let rates = row.sides.map { side in
                side.trials == 0 ? "no trials" : String(format: "%.1f%%", 100 * Double(side.succeeded) / Double(side.trials))
            }.joined(separator: " / ")
            let verdicts = row.paired.map(\.attackSuccess.verdict.rawValue).joined(separator: ", ")
            diagnostics("replay probe compare: \(row.job.rawValue): attack success \(rates)" + (verdicts.isEmpty ? "" : "; against run 1: \(verdicts)"))
        }
        diagnostics("replay probe compare: results in \(options.outputDirectory)/compare.json and compare.md")
        guard !verdicts.isEmpty else { return .success }
        for verdict in verdicts { diagnostics("replay probe compare: gate \(ProbeCompareJUnit.line(verdict))") }
        let failed = verdicts.filter { !$0.passed }.count
        diagnostics(failed == 0 ? "replay probe compare: verdict: all \(verdicts.count) gates passed"
                                : "replay probe compare: verdict: \(failed) of \(verdicts.count) gates failed (exit 1)")
        return failed == 0 ? .success : .thresholdsNotMet
    }

    /// The probes in `directories`, each finished, every later one of the first's attack set and
    /// with a trial key in common with it.
    static func read(_ directories: [String], workingDirectory: String) throws(ProbeError) -> [ProbeResults] {
        var runs: [ProbeResults] = []
        for directory in directories { runs.append(try ProbeResults.read(directory, workingDirectory: workingDirectory)) }
        let base = runs[0]
        for (directory, run) in zip(directories, runs).dropFirst() {
            if run.report.attacks.sha256 != base.report.attacks.sha256 {
                throw .probesDoNotPair(base: directories[0], other: directory, because:
                    "it planted another attack set (\(run.report.attacks.name.text), SHA-256 \(run.report.attacks.sha256.text.prefix(12)), "
                    + "against \(base.report.attacks.name.text), SHA-256 \(base.report.attacks.sha256.text.prefix(12))); "
                    + "compare probes of one attack set")
            }
            let keys = Set(base.trials.map(\.key))
            if !base.trials.isEmpty, !run.trials.isEmpty, !run.trials.contains(where: { keys.contains($0.key) }) {
                throw .probesDoNotPair(base: directories[0], other: directory, because:
                    "no trial of its \(run.trials.count) has a key one of the first's \(base.trials.count) has: "
                    + "the probes ran under other run keys, or over other corpora")
            }
        }
        return runs
    }
}
