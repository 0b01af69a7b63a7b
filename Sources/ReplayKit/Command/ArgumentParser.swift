import Engine
import Foundation
import Jobs
import Llama
import Privacy

/// Parses `replay`'s command line: a small hand-written parser, with `usage` as its manual.
public enum ArgumentParser {
    /// A command line that cannot be run, with the reason for the user.
    public struct UsageError: Error, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public static let version = ReplayVersion.current

    /// The jobs' names as the command line takes them: "chips, route, push, draft".
    static let jobNames = JobKind.allCases.map(\.rawValue)
    /// Each job's default budget: "chips 800, route 400, push 3000, draft 2000".
    static let defaultBudgets = JobKind.allCases
        .map { "\($0.rawValue) \(Int($0.job().budgetMilliseconds))" }.joined(separator: ", ")

    public static let usage = """
        usage: replay [--job \(jobNames.joined(separator: "|"))|all] [--out DIR] [--model PATH|NAME] [--device PROFILE]
                      [--dry-run] [--strict] [--limit N] [--batch N] [--flywheel] [--budget JOB=MS]...
                      [--route-confidence P] [--push-mode extension|next-run] [--fail-under JOB.KEY=MIN]...
                      [--fail-over JOB.KEY=MAX]... [--config FILE.json] [--labels FILE.json] [--prompts FILE.json]
                      [--profiles FILE.json] [--as-model-version V] [--inject-fallbacks REASON=[SCOPE:]RATE,...]
                      [--inject-seed N] [--allow-unsandboxed] [--force] [--shard I/N | --shards N]
                      [--shard-by thread|file] [--resume] [--checkpoint-every K] [--run-key FILE] CORPUS...
               replay merge [--out DIR] [--fail-under JOB.KEY=MIN]... [--fail-over JOB.KEY=MAX]...
                            [--labels FILE.json] [--run-key FILE] [--allow-unsandboxed] [--force] SHARD_DIR...
               replay compare [--out DIR] [--fail-if-worse JOB.KEY=MARGIN]... [--seed N] [--run-key FILE]
                              [--allow-unsandboxed] [--force] BASE_DIR NEW_DIR
               replay flywheel [--out DIR] [--labels FILE.json] [--allow-unsandboxed] [--force] CORPUS...
               replay audit [--out DIR] [REPLAY OPTIONS] CORPUS...
               replay audit [--out DIR] probe injection [PROBE OPTIONS] CORPUS...
               replay audit [--out DIR] -- COMMAND ARGS...
               replay verify DIR
               replay suite run [--out DIR] [--model PATH|NAME] [--prompts FILE.json] [--device PROFILE] SUITE.json
               replay suite compare [--out DIR] [--fail-under [JOB.]NAME=MIN]... BASE_DIR DIR...
               replay probe injection [--out DIR] [--limit N] [--prompts FILE.json] CORPUS...
               replay probe compare [--out DIR] [--fail-if-worse injection.JOB]... BASE_DIR DIR...
               replay prompts show
               replay profiles show
               replay corpus generate --threads N [--seed S] [--max-exchanges N] OUT.jsonl[.zst]
               replay --help | --version

        Replays an export (EXPORT_FORMAT.md, version 1) through the phone model's jobs with a real
        llama.cpp model, and writes a report of counts, rates and timings (never a word of text).

        CORPUS        .jsonl.zst or .jsonl files, directories of *.jsonl.zst shards, or - for stdin
        --job J       \(jobNames.joined(separator: ", ")), a comma list, or all (the default)
        --out DIR     where report.json and report.md go (default ./replay-report)
        --model M     a GGUF chat model's path, or the name of one scripts/setup installed:
                      smollm2-135m (the default), qwen2.5-coder-0.5b, qwen2.5-coder-1.5b
                      (scripts/setup --deps-only --model NAME installs it)
        --device P    the phone whose clock judges the budgets: iphone15pro (default: 0.6 ms per
                      prompt token, 30 tokens/s; Apple, June 2024), iphone16pro, iphone17pro
                      (estimates, sources in replay profiles show), a device of --profiles, or
                      custom:MS_PER_TOKEN,TOKENS_PER_S
        --dry-run     everything but the model: eligibility, token sizes, budgets already judgeable
        --strict      the first bad line is fatal (exit 3) instead of counted
        --limit N     stop after N threads
        --batch N     sequences decoded together (default 8)
        --flywheel    also write the flywheel metrics and dashboard.html beside the report
                      (the default when all four jobs run)
        --budget J=MS a job's time budget (defaults: \(defaultBudgets))
        --route-confidence P  routing keeps a member only when its probability among the
                      group's choices is above P (default \(RouteJob.defaultMinimumConfidence); 0 turns the rule off;
                      docs/routing.md)
        --push-mode M extension (the default: the notification extension writes each push's line) or
                      next-run (the spec's fallback when the extension cannot call the model: the line
                      is written at the person's next message after the push, in any thread);
                      report.json's push.next_run counts the pushes followed by one, and how long after
        --fail-under K=MIN  a CI gate on a report number, e.g. chips.in_budget.device=0.9 or
                      route.accuracy=0.5 (a quality name means its mean); unmet gates exit 1 and
                      are written to junit.xml, one test case each
        --fail-over K=MAX  a CI gate on a number that must stay low, e.g. chips.fallbacks.time_budget=10
                      or chips.violations.chips_agent_voice=0
                      A key may name a slice: chips[build=2.4.1 (534),model=27.0].answered_rate,
                      route[model=*].accuracy (every version, each its own gate); docs/usage.md
        --config F    budgets, device, gates, labels and prompts from a JSON file (see docs/usage.md); flags win
        --labels F    the names the results may show as written, from a JSON file
                      {"agents": [...], "members": [...], "builds": [...], "models": [...], "kinds": [...]}
                      (docs/report-schema.md); every other agent or member name, and every build or
                      model that is not a version (2.3.0, 2.3.0 (512)), is shown as a salted hash.
                      A merge needs the shards' file
        --prompts F   the words the jobs ask with, from a prompt set file (replay.prompts/1,
                      docs/prompts.md; /dev/stdin reads a pipe): instructions per language and
                      the words around what each job sees. Default: the built-in set. The report
                      names the set and its SHA-256; a resume or merge needs the same set
        --profiles F  each model version's context, languages and speed, and the devices, from a
                      profiles file (replay.profiles/1, docs/profiles.md); default: the built-in set
                      (replay profiles show): 26.x 4,096 tokens, 27.0 8,192. A place is cut and
                      budgeted as its own meta.model's version would
        --as-model-version V  an upgrade preview: every place replayed as model version V would
                      run it (V's context, languages, speed and tokens), so replay compare pairs
                      the corpus as shipped with the same corpus on V; the report says so
        --inject-fallbacks R=RATE,...  make the model refuse (refusal), trip a guardrail
                      (guardrail) or be rate limited (rate_limit) at these shares of the places it
                      is asked about, e.g. refusal=0.05; R=SCOPE:RATE for one job's places
                      (rate_limit=push:0.3), those about an expert topic (guardrail=health:0.2:
                      health, money, legal) or both (guardrail=chips/health:0.5), the most
                      specific winning; unavailable=RATE: that share of phones (a thread's
                      person) cannot run the model, every place of theirs falling back. The same
                      places and phones in every run under one run key and --inject-seed N
                      (default 0)
        --allow-unsandboxed  run even where the kernel cannot confine writes to --out and forbid
                      network sockets (Landlock ABI >= 4, seccomp); the report says so
        --force       replace the finished run --out holds (its manifest.json); without it that
                      is refused (exit 2), as is an --out another replay process is using now
        --shard I/N   replay only shard I (0-based) of N. Without it, SLURM_ARRAY_TASK_ID (less
                      SLURM_ARRAY_TASK_MIN) of SLURM_ARRAY_TASK_COUNT selects the shard, or
                      JOB_COMPLETION_INDEX (Kubernetes) with --shards N
        --shards N    the number of shards when the index comes from the environment
        --shard-by B  thread (the default: by a hash of each thread's id, so shards balance on one
                      file) or file (whole files by index in the corpus's file list, index mod N)
        --resume      write checkpoints under --out and, when restarted, continue after the
                      newest complete one; a checkpoint of another corpus, options or model is
                      refused (exit 2)
        --checkpoint-every K  replayed threads between checkpoints (default 200 with --resume)
        --run-key FILE  the run's key (32 random bytes): corpus digests and label hashes are keyed
                      with it, so the shards, resumes and merge of one run must share it; default
                      REPLAY_RUN_KEY's file, else ${XDG_STATE_HOME:-~/.local/state}/replay/run-key
                      (made 0600 on first use)

        Every run writes state.json beside its report (counts, histograms and hashes only).
        replay merge reads SHARD_DIR/state.json of each shard, checks they are shards 0..N-1 of one
        run (the same corpus, options and model), adds them up exactly and writes report.json,
        report.md, junit.xml, the flywheel files and state.json into --out; --fail-under gates the
        merged report. A missing, repeated or mismatched shard is an input error naming it (exit 3).

        replay compare pairs the items of two finished runs over one corpus (BASE_DIR, NEW_DIR) and
        writes, per job, overall and by build and model version, every metric in both, NEW - BASE
        with a 95% interval clustered by thread, Holm-adjusted p-values and a verdict: compare.json,
        compare.md, compare.html, junit.xml (replay compare --help; --fail-if-worse gates, exit 1).

        replay audit runs a replay (or any command) under strace with a fresh canary planted in
        every prompt and every model output fingerprinted, and fails (exit 6) on network use,
        writes outside --out, the canary or an output in anything written, or no sandbox:
        audit.sarif, audit-junit.xml and a summary on stderr.

        replay verify DIR re-checks an audit's directory (the manifest of DIR/run in audit.sarif) or
        a run's directory (its manifest.json) by kind, size and SHA-256 of every entry, and names
        each one that changed, is missing or is extra since (exit 9).

        replay profiles show prints the built-in model-version and device profiles, with their
        sources, as a profiles file to start from (--profiles).

        replay suite run checks a prompt suite (docs/suite.md) against the model and the prompts: per
        case, the app's rules and the model's answers (replay suite run --help; a failed must case exits 1).

        replay prompts show prints the built-in prompt set, today's prompts, as a prompt set file
        to start from; the same bytes given to --prompts replay exactly as the built-in set.

        replay flywheel counts, from message metadata alone and without a model, how often chips
        are used, routing guesses kept and drafts used: metrics.csv, metrics.json, dashboard.html.

        Progress and diagnostics go to stderr, results to files.

        \(ExitCode.usageSection(ExitCode.allCases) { $0.meaning })
        """

    /// The run `arguments` (without the program name, and without a subcommand's name) ask for. `environment` is read for a
    /// scheduler's shard index (`SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX`) when no `--shard`
    /// is given.
    public static func parse(_ arguments: [String],
                             environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) -> ReplayCommand {
        var options = ReplayOptions()
        var shardText: String? = nil
        var shardCount: Int? = nil
        var shardBy = ShardBy.thread
        var configPath: String? = nil
        var labelsPath: String? = nil
        var promptsPath: String? = nil
        var flagBudgets: [JobKind: Double] = [:]
        var flagThresholds: [Threshold] = []
        var flagDevice: String? = nil
        var profilesPath: String? = nil
        var previewVersion: String? = nil
        var injectionText: String? = nil
        var injectionSeed: UInt64? = nil
        var rest = arguments[...]
        func value(for flag: String) throws(UsageError) -> String {
            guard let next = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            return next
        }
        func positive(_ text: String, _ flag: String) throws(UsageError) -> Int {
            guard let n = Int(text), n > 0 else { throw UsageError("\(flag) takes a whole number above 0, not '\(text)'") }
            return n
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--job", "--jobs":
                let names = try value(for: argument)
                var jobs: [JobKind] = []
                for name in names.split(separator: ",").map(String.init) {
                    if name == "all" {
                        jobs += JobKind.allCases
                    } else {
                        guard let job = JobKind(rawValue: name) else {
                            throw UsageError("--job takes \(jobNames.joined(separator: ", ")) or all (comma-separated), not '\(name)'")
                        }
                        jobs.append(job)
                    }
                }
                options.jobs = JobKind.allCases.filter(jobs.contains)
            case "--out": options.outputDirectory = try value(for: argument)
            case "--model":
                let given = try value(for: argument)
                do { options.modelPath = try DefaultModel.file(forModelArgument: given) } catch { throw UsageError(error.description) }
            case "--device": flagDevice = try value(for: argument)
            case "--profiles": profilesPath = try value(for: argument)
            case "--as-model-version": previewVersion = try value(for: argument)
            case "--inject-fallbacks": injectionText = try value(for: argument)
            case "--inject-seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text), seed <= UInt64(Int.max) else {
                    throw UsageError("--inject-seed takes a whole number from 0 to \(Int.max), not '\(text)'")
                }
                injectionSeed = seed
            case "--budget":
                let text = try value(for: argument)
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let job = JobKind(rawValue: parts[0]), let ms = Double(parts[1]), ms > 0 else {
                    throw UsageError("--budget takes JOB=MILLISECONDS with a job of \(jobNames.joined(separator: ", ")), not '\(text)'")
                }
                flagBudgets[job] = ms
            case "--route-confidence":
                let text = try value(for: argument)
                guard let p = Double(text), p >= 0, p < 1 else {
                    throw UsageError("--route-confidence takes a probability from 0 (the rule off) up to but not including 1, not '\(text)'")
                }
                options.routeConfidence = p
            case "--push-mode":
                let text = try value(for: argument)
                guard let mode = PushMode(rawValue: text) else {
                    throw UsageError("--push-mode takes \(PushMode.allCases.map(\.rawValue).joined(separator: " or ")), not '\(text)'")
                }
                options.pushMode = mode
            case "--fail-under", "--fail-over":
                let text = try value(for: argument)
                do throws(GateKey.Problem) {
                    flagThresholds.append(try Threshold(parsing: text, bound: argument == "--fail-under" ? .atLeast : .atMost))
                } catch {
                    throw UsageError("\(argument) takes JOB.KEY=NUMBER or JOB[SLICE].KEY=NUMBER, such as chips.in_budget.device=0.9, not '\(text)': \(error)")
                }
            case "--config": configPath = try value(for: argument)
            case "--labels": labelsPath = try value(for: argument)
            case "--prompts": promptsPath = try value(for: argument)
            case "--allow-unsandboxed": options.allowUnsandboxed = true
            case "--force": options.force = true
            case "--dry-run": options.dryRun = true
            case "--flywheel": options.flywheel = true
            case "--strict": options.strict = true
            case "--limit": options.threadLimit = try positive(try value(for: argument), argument)
            case "--batch": options.batchSize = try positive(try value(for: argument), argument)
            case "--shard": shardText = try value(for: argument)
            case "--shards": shardCount = try positive(try value(for: argument), argument)
            case "--shard-by":
                let text = try value(for: argument)
                guard let by = ShardBy(rawValue: text) else { throw UsageError("--shard-by takes thread or file, not '\(text)'") }
                shardBy = by
            case "--resume": options.resume = true
            case "--run-key": options.runKeyPath = try value(for: argument)
            case "--checkpoint-every": options.checkpointEvery = try positive(try value(for: argument), argument)
            case "-": options.corpus.append(argument)
            case "--":
                options.corpus += rest
                rest = []
            default:
                if argument.hasPrefix("-") { throw UsageError("unknown option '\(argument)'") }
                options.corpus.append(argument)
            }
        }
        guard !options.corpus.isEmpty else { throw UsageError("no corpus given") }
        if options.pushMode == .nextRun, options.corpus.contains("-") {
            throw UsageError("--push-mode next-run reads the corpus once before the run, for when the app ran: "
                             + "standard input (-) cannot be read twice; give the corpus as files")
        }
        var deviceName: String? = nil
        if let configPath {
            let config = try ConfigFile.load(configPath)
            deviceName = config.device
            if profilesPath == nil { profilesPath = config.profiles }
            if injectionText == nil { injectionText = config.injectFallbacks }
            if injectionSeed == nil { injectionSeed = config.injectSeed }
            if options.runKeyPath == nil { options.runKeyPath = config.runKeyPath }
            options.budgets = config.budgets
            // A gate given on the command line replaces the config file's gate of the same key and side.
            options.thresholds = config.thresholds.filter { gate in !flagThresholds.contains { $0.key == gate.key && $0.bound == gate.bound } }
            if labelsPath == nil { labelsPath = config.labels }
            if promptsPath == nil { promptsPath = config.prompts }
        }
        if let labelsPath { options.labels = try LabelsFile.load(labelsPath) }
        if let promptsPath {
            if options.corpus.contains("-"), ["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"].contains(promptsPath) {
                throw UsageError("--prompts \(promptsPath) and a corpus of - cannot both be read from standard input")
            }
            options.prompts = try PromptsFile.load(promptsPath)
        }
        if let profilesPath { options.profiles = try ProfilesFile.load(profilesPath) }
        if let previewVersion {
            do throws(EngineError) {
                options.profiles = try options.profiles.previewing(previewVersion)
            } catch {
                throw UsageError(error.description)
            }
        }
        do {
            options.device = try options.profiles.chosenDevice(flagDevice ?? deviceName)
        } catch {
            throw UsageError((flagDevice == nil ? "\(configPath ?? ""): 'device': " : "") + error.description)
        }
        if let injectionText {
            do {
                options.injection = try FallbackInjection.parse(injectionText, seed: injectionSeed ?? 0)
            } catch {
                throw UsageError(error.description)
            }
        } else if injectionSeed != nil {
            throw UsageError("--inject-seed needs --inject-fallbacks")
        }
        options.budgets.merge(flagBudgets) { _, flag in flag }
        options.thresholds += flagThresholds
        if options.jobs == JobKind.allCases { options.flywheel = true }
        options.shard = try shard(shardText, count: shardCount, by: shardBy, environment: environment)
        if options.resume && options.checkpointEvery == nil { options.checkpointEvery = ReplayOptions.defaultCheckpointEvery }
        return .replay(options)
    }

    /// The shard to replay: `--shard I/N`; else the scheduler's index (Slurm's array task, less
    /// its first, of its count; or Kubernetes' completion index with `--shards N`); else the
    /// whole corpus.
    static func shard(_ text: String?, count: Int?, by: ShardBy, environment: [String: String]) throws(UsageError) -> ShardSpec {
        if let text {
            guard let spec = ShardSpec(parsing: text, by: by) else {
                throw UsageError("--shard takes I/N with 0 <= I < N, such as 0/4, not '\(text)'")
            }
            if let count, count != spec.count { throw UsageError("--shard \(text) and --shards \(count) disagree on the number of shards") }
            return spec
        }
        func number(_ name: String) throws(UsageError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let n = Int(text), n >= 0 else { throw UsageError("\(name) is '\(text)', not a whole number") }
            return n
        }
        let slurmTask = try number("SLURM_ARRAY_TASK_ID")
        let slurmFirst = try number("SLURM_ARRAY_TASK_MIN") ?? 0
        let slurmIndex = slurmTask.map { $0 - slurmFirst }
        let source: (index: Int, count: Int, from: String)?
        if let count {
            if let index = try number("JOB_COMPLETION_INDEX") {
                source = (index, count, "JOB_COMPLETION_INDEX")
            } else if let index = slurmIndex {
                source = (index, count, "SLURM_ARRAY_TASK_ID")
            } else {
                throw UsageError("--shards \(count) needs the shard's index: --shard I/\(count), or JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID in the environment")
            }
        } else if let index = slurmIndex, let count = try number("SLURM_ARRAY_TASK_COUNT") {
            source = (index, count, "SLURM_ARRAY_TASK_ID")
        } else {
            source = nil
        }
        guard let source else { return ShardSpec(index: 0, count: 1, by: by) }
        guard source.count >= 1, (0..<source.count).contains(source.index) else {
            throw UsageError("\(source.from) gives shard \(source.index), which is not within 0..\(source.count - 1) of \(source.count) shards")
        }
        return ShardSpec(index: source.index, count: source.count, by: by)
    }
}
