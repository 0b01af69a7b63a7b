import Confinement
import Corpus
import Engine
import Export
import Flywheel
import Foundation
import Jobs
import Llama
import Privacy

/// `replay [OPTIONS] CORPUS...`: a run, the command a line names when its first word names no
/// subcommand (`Subcommand`); also `--help` and `--version`.
public enum RunCommand {
    /// Runs `arguments` (without the program name) and says which exit code it ends with.
    public static func run(_ arguments: [String], _ context: CommandContext) -> ExitCode {
        let diagnostics = context.diagnostics
        let command: ReplayCommand
        do throws(CommandStart.Stop) {
            command = try CommandStart.options(arguments, command: "replay", usage: ArgumentParser.usage, diagnostics: diagnostics) {
                arguments throws(ArgumentParser.UsageError) in try ArgumentParser.parse(arguments)
            }
        } catch {
            return error.exitCode
        }
        switch command {
        case .help:
            print(ArgumentParser.usage)
            return .success
        case .version:
            print("replay \(ArgumentParser.version)")
            return .success
        case .replay(let options):
            return replay(options, sandboxing: context.sandboxing, stop: context.stopRequest?() ?? StopRequest(), diagnostics: diagnostics)
        }
    }

    /// The C library's message for the errno beneath a Foundation file error ("Not a directory"),
    /// else the error as Foundation words it.
    package static func systemReason(_ error: any Error) -> String {
        if let underlying = (error as? CocoaError)?.underlying as NSError?, underlying.domain == NSPOSIXErrorDomain {
            return SystemError(Int32(underlying.code)).message
        }
        return (error as NSError).localizedDescription
    }

    /// Runs a parsed replay. `afterIdentity` is called once the corpus's identity is taken and
    /// before the model loads (tests edit the corpus there; a run passes nothing).
    public static func replay(_ options: ReplayOptions, sandboxing: Sandboxing, stop: StopRequest, diagnostics: (String) -> Void,
                       afterIdentity: () -> Void = {}) -> ExitCode {
        // A missing corpus is known at once: say so before spending seconds on the model.
        let files: [String]
        do {
            files = try CorpusReader(paths: options.corpus).files
        } catch {
            diagnostics("replay: \(error.description)")
            return .input
        }
        if options.resume, files.contains("-") {
            diagnostics("replay: --resume cannot continue over standard input (-), which cannot be read again: give the corpus as files")
            return .usage
        }
        // The run key, before confinement (the per-user key may have to be made outside --out);
        // then confined before the model starts any thread and before any record is read.
        let key: RunKey
        let confined: CommandStart.Confined
        do throws(CommandStart.Stop) {
            key = try CommandStart.runKey(options.runKeyPath, creating: true, command: "replay", diagnostics: diagnostics)
            confined = try CommandStart.confine(options.outputDirectory, sandboxing: sandboxing, allowUnsandboxed: options.allowUnsandboxed,
                                                keepingCheckpoints: options.resume, force: options.force, diagnostics: diagnostics)
        } catch {
            return error.exitCode
        }
        let sandbox = confined.sandbox
        defer { confined.claim?.release() }
        let output = OutputDirectory(options.outputDirectory, key: key)
        let started = Date()
        let clock = ContinuousClock.now
        // Which corpus this is (sizes and keyed digests of every byte of the files this shard
        // replays, taken before any is replayed) and, from their ends and the same key, the label
        // salt: every process of this run (shards, a resumed run) then hashes labels alike. No
        // label has been made before this in a `replay` process; in one that has (tests running
        // many runs) the salt stays as it was, the same for all of them.
        // Each file's version as hashed goes to the reader, which fails a file edited or
        // replaced since (while the model loads) rather than replay bytes the identity does not name.
        let (identity, salt, expected) = CorpusIdentity.take(files, key: key, shard: options.shard)
        if let salt { LabelSalt.useForThisProcess(salt) }
        afterIdentity()
        // No model (missing or unreadable file): the run still completes and every job reports
        // the fallback, as the app would fall back on a phone without the model; exit 4 says so.
        // A dry run needs only the vocabulary, which loads while the reader reads (planning is
        // the first to need it); a run with the model loads it here, before any thread is read.
        let modelPath = options.modelPath ?? DefaultModel.path()
        var engine: LlamaEnginePool? = nil
        let tokenizer: DeferredTokenizer
        if let modelPath {
            if options.dryRun {
                tokenizer = DeferredTokenizer { [native = options.nativeTokenizer] in
                    try LlamaModel(path: modelPath, vocabularyOnly: true, nativeTokenizer: native)
                }
            } else {
                do {
                    // Each lane's sequences hold a 4,096-token session (26.x's); a request that a
                    // version with a larger one allows (27.0's 8,192) gets a sequence of its own.
                    let largest = options.profiles.largestContext(on: options.device.name)
                    let loaded = try LlamaEnginePool(modelPath: modelPath, sequences: options.batchSize,
                                                     contextPerSequence: min(4096, largest), longestContext: largest)
                    engine = loaded
                    tokenizer = DeferredTokenizer(.init(tokenizer: loaded, problem: nil))
                } catch {
                    tokenizer = DeferredTokenizer(.init(tokenizer: ApproximateTokenizer(), problem: error.description))
                }
            }
        } else {
            tokenizer = DeferredTokenizer(.init(tokenizer: ApproximateTokenizer(),
                                                problem: "no model: pass --model PATH, or run scripts/setup to install the default model"))
        }
        // The model's digest identifies it for a merge or a resume: the whole file's SHA-256 with
        // the model (the report's model.sha256), its first and last MiB in a dry run, whose
        // tokenizer decides token sizes too (hashing 100 MB would cost more than the dry run).
        let modelDigest = engine == nil ? nil : modelPath.flatMap(CorpusIdentity.sha256(ofFile:))
        let modelFile = engine == nil ? modelPath.flatMap(CorpusIdentity.file) : nil
        let description = engine.map { ModelDescription(info: $0.info, fileBytes: fileSize(modelPath ?? ""), sha256: modelDigest) }
        /// The model as a state names it, once the tokenizer is loaded; its problem is said once.
        var knownModel: ModelIdentity? = nil
        func model() -> ModelIdentity {
            if let knownModel { return knownModel }
            let loaded = tokenizer.loaded
            if let problem = loaded.problem { diagnostics("replay: \(problem); every job falls back (model_unavailable)") }
            let identity = ModelIdentity(path: modelPath, bytes: modelPath.map(fileSize), sha256: modelDigest ?? (loaded.problem == nil ? modelFile?.digest : nil),
                                         hashed: loaded.problem == nil ? modelFile?.hashed ?? .whole : .whole, unavailable: loaded.problem,
                                         approximateTokens: loaded.tokenizer is ApproximateTokenizer, description: description?.value ?? .null)
            knownModel = identity
            return identity
        }
        // A run with the model (or with no model file at all) says now why it has none; a dry run
        // whose vocabulary is loading, once it is loaded.
        let modelProblem = options.dryRun && modelPath != nil ? nil : model().unavailable
        let jobs = options.jobs.map { Self.job($0, budget: options.budgets[$0], labels: options.labels, prompts: options.prompts,
                                               profiles: options.profiles, device: options.device) }
        let stateOptions = StateOptions(options, jobs: jobs)
        let tap = AuditTap.fromEnvironment()

        // --resume: the newest complete checkpoint, if it was made over this corpus, with these
        // options and this model, and for this shard.
        var base: RunState? = nil
        var nextSequence = 1
        if options.resume {
            let found = output.newestCompleteCheckpoint(labels: options.labels)
            nextSequence = found.highestSequence + 1
            for passed in found.passedOver { diagnostics("replay: --resume: \(passed.description)") }
            if found.onlyOtherRunKeys {
                diagnostics("replay: --resume: the checkpoints in \(options.outputDirectory) were made by another run: "
                            + "\(StateIntegrityError.madeUnderAnotherRunKey). Give the run's key, or another --out, or run without --resume to start again.")
                return .usage
            }
            if let checkpoint = found.state {
                if let problem = resumeProblem(checkpoint, identity: identity, options: stateOptions, model: model(), shard: options.shard) {
                    diagnostics("replay: --resume: the newest checkpoint in \(options.outputDirectory) (\(OutputDirectory.checkpointName(checkpoint.checkpoint?.sequence ?? 0))) "
                                + "was made by another run: \(problem). Give another --out, or run without --resume to start again.")
                    return .usage
                }
                base = checkpoint
                diagnostics("replay: resuming after \(OutputDirectory.checkpointName(checkpoint.checkpoint?.sequence ?? 0)): "
                            + "\(checkpoint.corpus.threadsReplayed) threads already replayed")
            } else {
                diagnostics("replay: --resume: no complete checkpoint in \(options.outputDirectory) yet; starting from the beginning")
            }
        }

        let runner = ReplayRunner(options: options, jobs: jobs, model: engine, tokenizer: tokenizer,
                                  modelUnavailable: options.dryRun ? nil : modelProblem, tap: tap, showProgress: isatty(2) == 1,
                                  itemKeys: ItemKeys(key: key, fileDigests: identity.files.map(\.digest)), stop: stop)
        runner.expectedCorpus = expected
        /// A state from what the runner counted since this process started, after `base`.
        func state(of tally: ReplayTally) -> RunState {
            let own = RunState(tally: tally, options: stateOptions, corpusIdentity: identity, model: model(),
                               timing: Timing(started: started, seconds: clock.millisecondsSince / 1000),
                               sandbox: sandbox.reportValue, sandboxEnforced: sandbox.enforced, audit: tap?.reportValue ?? .null)
            return base.map { $0.continued(with: own) } ?? own
        }
        var checkpointFailure: OutputDirectory.Failure? = nil
        var segments = base?.checkpoint?.segments ?? []
        let eventsBefore = base?.checkpoint?.eventsRead ?? 0
        /// The newest checkpoint written or resumed from: its name and the threads it holds.
        var newestCheckpoint = base.map { (OutputDirectory.checkpointName($0.checkpoint?.sequence ?? 0), $0.corpus.threadsReplayed) }
        /// Writes a checkpoint of `partial`; a failure is kept and stops the run (exit 5).
        func saveCheckpoint(_ partial: ReplayTally) {
            guard checkpointFailure == nil else { return }
            var checkpoint = state(of: partial)
            checkpoint.checkpoint = Checkpoint(sequence: nextSequence, eventsRead: eventsBefore + partial.eventsRead, segments: segments)
            do throws(OutputDirectory.Failure) {
                if let segment = try output.saveCheckpoint(checkpoint) { segments.append(segment) }
                newestCheckpoint = (OutputDirectory.checkpointName(nextSequence), checkpoint.corpus.threadsReplayed)
                nextSequence += 1
            } catch {
                // Going on without checkpoints would spend the rest of the run for a report that
                // may not be written either: stop now, as a signal would.
                checkpointFailure = error
                stop.raise()
            }
        }
        let tally = runner.run(
            resume: base.map { ReplayRunner.ResumePoint(eventsRead: eventsBefore, threadsReplayed: $0.corpus.threadsReplayed) },
            checkpoint: saveCheckpoint)
        if case .stopped(let kept) = tally.end {
            // Stopped before the end: a checkpoint of what was kept, never a report.
            if kept, checkpointFailure == nil, options.checkpointEvery != nil { saveCheckpoint(tally) }
            let keptText = newestCheckpoint.map { "\($0.1) threads kept in \(options.outputDirectory)/\($0.0)" }
            if let checkpointFailure {
                diagnostics("replay: \(checkpointFailure.description): stopped at once; "
                            + (keptText.map { $0 + " (the same command with --resume goes on from there once it can write)" } ?? "nothing kept"))
                return .output
            }
            let why = StopSignals.firstSignalName.map { "stopped by \($0)" } ?? "stopped"
            if options.checkpointEvery == nil {
                diagnostics("replay: \(why): nothing kept (without --resume a run writes no checkpoints); no report written")
            } else {
                diagnostics("replay: \(why): " + (keptText.map { $0 + "; the same command with --resume goes on from there" } ?? "nothing kept yet")
                            + "; no report written (exit \(ExitCode.stopped.rawValue))")
            }
            return .stopped
        }
        if tally.stoppedByAnotherShard {
            diagnostics("replay: stopped at a bad line of another shard (--strict); that shard reports it")
        }
        return finish(state(of: tally), thresholds: options.thresholds, output: output, tap: tap, diagnostics: diagnostics)
    }

    /// Why a checkpoint cannot be resumed by this run, in a few words; nil when it can.
    static func resumeProblem(_ checkpoint: RunState, identity: CorpusIdentity, options: StateOptions, model: ModelIdentity,
                              shard: ShardSpec) -> String? {
        if let difference = checkpoint.corpusIdentity.difference(from: identity) { return difference }
        let options = checkpoint.options.differences(from: options)
        if !options.isEmpty { return "its options differ (\(options.joined(separator: ", ")))" }
        if let difference = checkpoint.model.difference(from: model) { return difference }
        let facts = checkpoint.shard
        if facts.count != shard.count || facts.by != shard.by || facts.indexes != [shard.index] {
            return "it is of shard \(facts.indexes.map(String.init).joined(separator: ",")) of \(facts.count) by \(facts.by.rawValue), not \(shard.text) by \(shard.by.rawValue)"
        }
        if checkpoint.toolVersion != ArgumentParser.version { return "it was made by replay \(checkpoint.toolVersion)" }
        return nil
    }

    /// Writes a state's report, flywheel files, state.json and junit.xml, prints the summary and
    /// the gates' verdicts, and says how the run ends: as a run's exit status, for a run and a merge alike.
    static func finish(_ state: RunState, thresholds: [Threshold], output: OutputDirectory, tap: AuditTap?,
                       diagnostics: (String) -> Void) -> ExitCode {
        let report = ReportBuilder(state: state).build()
        do {
            try output.saveResults(of: state, report: report)
        } catch {
            diagnostics("replay: cannot write the report to \(output.path): \(error.description)")
            return .output
        }
        diagnostics(summary(report, directory: output.path))
        if let tap {
            do {
                try tap.finish()
            } catch {
                diagnostics("replay: cannot write the audit fingerprints: \(error.description)")
                return .output
            }
        }
        let verdicts = thresholds.map { $0.judge(report) }
        do {
            try output.saveJUnit(verdicts)
        } catch {
            diagnostics("replay: cannot write junit.xml: \(error.description)")
            return .output
        }
        // Last: the manifest that marks the run finished (replay verify checks it).
        do {
            try output.saveManifest()
        } catch {
            diagnostics("replay: cannot write the run's manifest: \(error.description)")
            return .output
        }
        var code = ExitCode.success
        if let fatal = state.corpus.fatal {
            diagnostics("replay: \(fatal.message)")
            code = .input
        }
        for error in state.corpus.errors { diagnostics("replay: \(error.message)") }
        if !state.corpus.errors.isEmpty { code = .input }
        if state.model.unavailable != nil && code == .success { code = .model }
        if !verdicts.isEmpty {
            let unmet = verdicts.filter { !$0.met }
            for verdict in verdicts { diagnostics("replay: gate \(verdict.line)") }
            if code == .success && !unmet.isEmpty { code = .thresholdsNotMet }
            diagnostics(unmet.isEmpty
                ? "replay: verdict: all \(verdicts.count) gates met"
                : "replay: verdict: \(unmet.count) of \(verdicts.count) gates not met" + (code == .thresholdsNotMet ? " (exit 1)" : " (exit \(code.rawValue): an error comes first)"))
        }
        return code
    }

    /// The job of `kind`, its budget replaced by `--budget`/`--config` when given, asking with
    /// `prompts` (`--prompts`): the jobs' own registry (`JobKind.job`), so the job list and the
    /// default budgets are written once.
    static func job(_ kind: JobKind, budget: Double?, labels: TeamLabels = .none, prompts: PromptSet = .builtIn,
                    profiles: ModelProfiles = .builtIn, device: DeviceProfile = .iPhone15Pro) -> any Job {
        kind.job(budgetMilliseconds: budget, labels: labels, prompts: prompts, languages: SupportedLanguages(codes: profiles.anyLanguage),
                 contextLimit: profiles.unknownModel.contextTokens(on: device.name))
    }

    /// The few lines printed at the end: counts and rates only.
    static func summary(_ report: ReportValue, directory: String) -> String {
        var lines = ["replay: \(Int(report.at("corpus.threads")?.doubleValue ?? 0)) threads, \(Int(report.at("corpus.messages")?.doubleValue ?? 0)) messages, \(Int(report.at("corpus.bad_lines")?.doubleValue ?? 0)) bad lines"]
        if case .object(let jobs)? = report["jobs"] {
            for (name, job) in jobs {
                let eligible = Int(job["eligible"]?.doubleValue ?? 0)
                let answered = Int(job["answered"]?.doubleValue ?? 0)
                var line = "replay: \(name): \(eligible) eligible of \(Int(job["scanned"]?.doubleValue ?? 0)) scanned"
                if report.at("run.mode") == .label("replay") {
                    line += ", \(answered) answered"
                    if let device = job.at("in_budget.device")?.doubleValue { line += String(format: ", %.1f%% in budget on device", device * 100) }
                    if let host = job.at("in_budget.host")?.doubleValue { line += String(format: ", %.1f%% on this host", host * 100) }
                }
                lines.append(line)
            }
        }
        if case .int(let count)? = report.at("shard.count"), count > 1 {
            let shards = report.at("shard.index").flatMap { $0.doubleValue }.map { "shard \(Int($0)) of \(count)" } ?? "\(count) shards merged"
            lines.append("replay: \(shards) by \(report.at("shard.by").flatMap { if case .label(let s) = $0 { s } else { nil } } ?? "thread"), "
                         + "\(Int(report.at("shard.threads_skipped")?.doubleValue ?? 0)) threads skipped as other shards'")
        }
        lines.append("replay: report in \(directory)/report.json and report.md")
        return lines.joined(separator: "\n")
    }

    /// The size of a file in bytes, 0 when it cannot be read.
    ///
    /// With stat(2): Foundation's attributes also look up the owner's name, which asks nscd
    /// over a UNIX socket the sandbox (rightly) refuses.
    package static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    public static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
