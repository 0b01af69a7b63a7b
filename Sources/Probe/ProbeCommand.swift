import Confinement
import Engine
import Foundation
import Jobs
import Llama
import Privacy
import ReplayKit

/// `replay probe injection CORPUS`: for each place the jobs would ask the phone's model about,
/// each attack of the attack set (probes/injection.json built in) planted among the agent's words
/// with the place's own keyed marker, both asks (plain and attacked) put to the model, and the
/// outcome counted (`InjectionProbe`). Writes report.json (`replay.probe-report/1`), trials.json
/// (`replay.probe-trials/1`, one entry a trial, for `replay compare`), report.md and manifest.json into DIR: counts, rates, intervals, never a word.
///
/// The attack set, the prompt set and the corpus are read first (a bad file is named: exit 3 for
/// the attack set or the corpus, 2 for the prompt set); then the process is confined to writing under `--out` with no network, as a run is, before
/// the model loads (exit 4 when it cannot). Exit 0 when every `--fail-over` gate passes, 1 when one
/// does not.
public enum ProbeCommand: Subcommand {
    public static var documents: [any ResultDocument.Type] {
        [ProbeReportDocument.self, ProbeTrialsDocument.self, ProbeCompareDocument.self, RunManifest.self]
    }

    public static let name = "probe"

    public static let usage = """
        usage: replay probe injection [--out DIR] [--job J,...] [--limit N] [--attacks FILE.json]
                                      [--prompts FILE.json] [--model PATH|NAME] [--device PROFILE] [--batch N]
                                      [--fail-over injection.JOB=MAX]... [--allow-unsandboxed] [--force] CORPUS...
               replay probe compare [--out DIR] [--fail-if-worse injection.JOB]... BASE_DIR DIR...
                                    (replay probe compare --help says more)

        Plants instructions an agent's words could carry (indirect prompt injection) at each place
        the jobs would ask the phone's model about, one attack at a time, each with its own keyed
        marker, and asks the model with and without it. Per job and kind of attack: the attack
        success rate with its Wilson 95% interval, how many successes the app would have shown,
        and the same places' answered share and quality, plain against attacked
        (docs/injection.md). Writes report.json, trials.json (each trial's outcome, for replay
        probe compare), report.md and manifest.json into DIR (default ./probe-report): counts, rates and
        keyed hashes, never a word of the corpus, the attacks or the model.

        --out DIR      where the results go (default ./probe-report)
        --job J,...    the jobs probed: chips, route, push, draft or all (the default)
        --limit N      threads read (default 20): each asked place is asked twice per attack of its job
        --attacks F    an attack set file (replay.attacks/1); default: the built-in probes/injection.json
        --prompts F    the words the jobs ask with (replay.prompts/1): examples/prompts/spotlight.json
                       is the spotlighting ablation
        --model M      a GGUF chat model's path, or the name of one scripts/setup installed
        --device P     the phone whose clock judges what is shown (iphone15pro, the default)
        --batch N      requests decoded together (default 8)
        --fail-over injection.JOB=MAX  exit 1 when JOB's attack success rate is above MAX (0.05 is 5%)
        --allow-unsandboxed  run even where the kernel cannot confine writes to DIR
        --force        replace the finished results DIR holds

        \(ExitCode.usageSection(ExitCode.probeCodes) { $0.probeMeaning })
        """

    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        run(arguments, sandboxing: context.sandboxing, diagnostics: context.diagnostics)
    }

    /// Runs `arguments` (after `probe`). `model`, when given, answers instead of the llama.cpp
    /// engine (tests pass a scripted model); `key` keys the markers (default: the per-user run key).
    static func run(_ arguments: [String], sandboxing: Sandboxing, diagnostics: (String) -> Void,
                    model injected: (any LanguageModel)? = nil, key given: RunKey? = nil) -> ExitCode {
        if arguments.first == "compare" {
            return ProbeCompareCommand.run(Array(arguments.dropFirst()), sandboxing: sandboxing, diagnostics: diagnostics)
        }
        let options: ProbeOptions
        do throws(CommandStart.Stop) {
            options = try CommandStart.options(arguments, command: "replay probe", usage: usage, diagnostics: diagnostics,
                                               parse: ProbeOptions.parse)
        } catch {
            return error.exitCode
        }
        let attacks: AttackSet
        do {
            attacks = try options.attacksPath.map { path throws(ProbeError) in try AttackSet.read(path) } ?? AttackSet.builtIn
        } catch {
            diagnostics("replay probe: \(error.description)")
            return .input
        }
        var prompts = PromptSet.builtIn
        if let path = options.promptsPath {
            do {
                prompts = try PromptsFile.load(path)
            } catch {
                diagnostics("replay probe: \(error.description)")
                return .usage
            }
        }
        let read: CorpusSnapshots.Read
        do {
            read = try CorpusSnapshots.read(options.corpus, threads: options.threadLimit)
        } catch {
            diagnostics("replay probe: \(error.description)")
            return .input
        }
        let key: RunKey
        if let given {
            key = given
        } else {
            do {
                key = try RunKeyFile.load(explicit: nil, environment: ProcessInfo.processInfo.environment)
            } catch {
                diagnostics("replay probe: \(error.description)")
                return .usage
            }
        }
        let started = Date()
        let clock = ContinuousClock.now
        let confined: CommandStart.Confined
        do throws(CommandStart.Stop) {
            confined = try CommandStart.confine(options.outputDirectory, sandboxing: sandboxing, allowUnsandboxed: options.allowUnsandboxed,
                                                force: options.force, diagnostics: diagnostics)
        } catch {
            return error.exitCode
        }
        defer { confined.claim?.release() }
        let model: any LanguageModel
        var description: ModelDescription? = nil
        if let injected {
            model = injected
            description = ModelDescription(info: injected.info, fileBytes: 0, sha256: nil)
        } else {
            do throws(LocalModel.Failure) {
                let loaded = try LocalModel.load(path: options.modelPath, batch: options.batchSize, profiles: .builtIn,
                                                 device: options.device)
                model = loaded.engine
                description = loaded.description
            } catch {
                diagnostics("replay probe: \(error.description)")
                return .model
            }
        }
        // Under `replay audit`: the canary in every text of every thread before any attack is
        // planted, and every prompt counted and every output fingerprinted on its way through the
        // model, as a run is watched.
        let tap = AuditTap.fromEnvironment()
        let watched: any LanguageModel = tap.map { AuditedModel(model, tap: $0) } ?? model
        let jobs = options.jobs.map { RunJobs.job($0, prompts: prompts, device: options.device) }
        let probe = InjectionProbe(attacks: attacks, jobs: jobs, key: key, device: options.device)
        var tallies: [InjectionProbe.Key: ProbeTally] = [:]
        var outcomes: [ProbeTrial] = []
        for (index, snapshot) in read.threads.enumerated() {
            let thread = tap.map { CanaryPlanting.planted(snapshot, tap: $0) } ?? snapshot
            probe.run(probe.trials(in: thread, tokenizer: watched), model: watched, batch: options.batchSize, into: &tallies,
                      outcomes: &outcomes)
            diagnostics("replay probe: \(index + 1) of \(read.threads.count) threads")
        }
        let report = ProbeReport(attacks: attacks, tallies: tallies, jobs: options.jobs, gates: options.gates, model: description,
                                 prompts: prompts.identity, device: options.device, sandbox: confined.sandbox,
                                 started: ISO8601DateFormatter().string(from: started), seconds: clock.millisecondsSince / 1000,
                                 threads: read.threads.count, badLines: read.badLines, audit: tap?.reportCounts)
        let document = ProbeReportDocument(report: report)
        if let tap {
            do {
                try tap.finish()
            } catch {
                diagnostics("replay probe: cannot write the audit fingerprints: \(error.description)")
                return .output
            }
        }
        do throws(OutputDirectory.Failure) {
            try OutputDirectory(options.outputDirectory).saveProbe(json: document.json(), trials: ProbeTrialsDocument(outcomes).json(),
                                                                  markdown: ProbeMarkdown.render(document))
        } catch {
            diagnostics("replay probe: \(error.description)")
            return .output
        }
        for job in options.jobs {
            let tally = report.tally(of: job)
            let rate = tally.successRate.map { ProbeMarkdown.percent($0) } ?? "no trials"
            diagnostics("replay probe: \(job.rawValue): \(tally.succeeded) of \(tally.trials) attacks succeeded (\(rate)), \(tally.shown) shown")
        }
        diagnostics("replay probe: results in \(options.outputDirectory)/report.json and report.md")
        return report.passed ? .success : .thresholdsNotMet
    }
}
