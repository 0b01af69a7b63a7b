import Confinement
import Engine
import Export
import Foundation
import Jobs
import Privacy

/// One run of `replay`, from the moment its process is confined to its exit code: the corpus's
/// identity, the model, the checkpoint it resumes from, the checkpoints it writes as it goes,
/// and how it ends (a report, or a checkpoint of what it kept when stopped).
///
/// What a state is made of lives here once: every checkpoint and the final state are the same
/// `state(of:)` of a tally, continued from the resumed checkpoint when there is one.
final class RunSession {
    let options: ReplayOptions
    let output: OutputDirectory
    let identity: CorpusIdentity
    /// The files as hashed, which the reader holds the corpus to while it reads.
    let expected: ExpectedCorpus?
    let model: RunModel
    /// What the run gathered of the whole corpus before it (`CorpusFactsPass`).
    let facts: CorpusFacts.Collector
    let jobs: [any Job]
    let stateOptions: StateOptions
    let sandbox: SandboxReport
    let tap: AuditTap?
    private let started = Date()
    private let clock = ContinuousClock.now

    /// The checkpoint this run goes on from (`--resume`), nil when it starts at the beginning.
    private(set) var base: RunState?
    private var nextSequence = 1
    private var segments: [ItemSegment] = []
    private var eventsBefore = 0
    /// The newest checkpoint written or resumed from: its name and the threads it holds.
    private var newestCheckpoint: (name: String, threads: Int)?
    /// A checkpoint that could not be written: it stops the run (exit 5).
    private var checkpointFailure: OutputDirectory.Failure?

    /// Takes the identity of `files` (sizes and keyed digests of every byte this shard replays,
    /// before any is replayed) and, from their ends and the same key, the label salt: every
    /// process of this run (shards, a resumed run) then hashes labels alike. No label has been
    /// made before this in a `replay` process; in one that has (tests running many runs) the
    /// salt stays as it was, the same for all of them. Then loads the model (`afterIdentity`
    /// runs between the two: tests edit the corpus there).
    init(_ options: ReplayOptions, files: [String], key: RunKey, sandbox: SandboxReport, afterIdentity: () -> Void) {
        self.options = options
        self.sandbox = sandbox
        output = OutputDirectory(options.outputDirectory, key: key)
        // A run that gathers facts of the whole corpus reads every file in every shard: each
        // shard then vouches for every file's bytes, not only its own files'.
        let wanted = RunJobs.wantedFacts(for: options)
        let (identity, salt, expected) = CorpusIdentity.take(files, key: key, shard: options.shard, everyFileWhole: wanted.any)
        self.identity = identity
        self.expected = expected
        if let salt { LabelSalt.useForThisProcess(salt) }
        afterIdentity()
        model = RunModel(options)
        tap = AuditTap.fromEnvironment()
        // Before the run, over every file as hashed: the facts its places need beyond their threads.
        let facts = CorpusFactsPass.read(expected.files, versions: expected.versions, wanted: wanted)
        self.facts = facts
        // Under the audit the drawer's agents carry the canary as every thread's names and words do.
        var gathered = facts.facts
        if let tap { gathered.drawer = CanaryPlanting.planted(gathered.drawer, tap: tap) }
        jobs = RunJobs.jobs(for: options, facts: gathered)
        stateOptions = StateOptions(options, jobs: jobs)
    }

    /// `--resume`: takes the newest complete checkpoint under `--out`, if it was made over this
    /// corpus, with these options and this model, and for this shard. Nil when the run may go
    /// on (from it, or from the beginning); the exit code when it must not.
    func resume(diagnostics: (String) -> Void) -> ExitCode? {
        let found = output.newestCompleteCheckpoint(labels: options.labels)
        nextSequence = found.highestSequence + 1
        for passed in found.passedOver { diagnostics("replay: --resume: \(passed.description)") }
        if found.onlyOtherRunKeys {
            diagnostics("replay: --resume: the checkpoints in \(options.outputDirectory) were made by another run: "
                        + "\(StateIntegrityError.madeUnderAnotherRunKey). Give the run's key, or another --out, or run without --resume to start again.")
            return .usage
        }
        guard let checkpoint = found.state else {
            diagnostics("replay: --resume: no complete checkpoint in \(options.outputDirectory) yet; starting from the beginning")
            return nil
        }
        let name = OutputDirectory.checkpointName(checkpoint.checkpoint?.sequence ?? 0)
        if let problem = RunCommand.resumeProblem(checkpoint, identity: identity, options: stateOptions,
                                                  model: model.identity(diagnostics: diagnostics), shard: options.shard) {
            diagnostics("replay: --resume: the newest checkpoint in \(options.outputDirectory) (\(name)) "
                        + "was made by another run: \(problem). Give another --out, or run without --resume to start again.")
            return .usage
        }
        base = checkpoint
        segments = checkpoint.checkpoint?.segments ?? []
        eventsBefore = checkpoint.checkpoint?.eventsRead ?? 0
        newestCheckpoint = (name, checkpoint.corpus.threadsReplayed)
        diagnostics("replay: resuming after \(name): \(checkpoint.corpus.threadsReplayed) threads already replayed")
        return nil
    }

    /// Where the runner starts reading: after the resumed checkpoint's events, or at the beginning.
    var resumePoint: ReplayRunner.ResumePoint? {
        base.map { ReplayRunner.ResumePoint(eventsRead: eventsBefore, threadsReplayed: $0.corpus.threadsReplayed) }
    }

    /// A state from what the runner counted since this process started, after `base`.
    func state(of tally: ReplayTally, diagnostics: (String) -> Void) -> RunState {
        let own = RunState(tally: tally, options: stateOptions, corpusIdentity: identity, model: model.identity(diagnostics: diagnostics),
                           timing: Timing(started: started, seconds: clock.millisecondsSince / 1000),
                           sandbox: sandbox, audit: tap?.reportCounts)
        return base.map { $0.continued(with: own) } ?? own
    }

    /// Writes a checkpoint of `partial`; a failure is kept and stops the run (`stop`), as a
    /// signal would: going on without checkpoints would spend the rest of the run for a report
    /// that may not be written either.
    func saveCheckpoint(_ partial: ReplayTally, stop: StopRequest, diagnostics: (String) -> Void) {
        guard checkpointFailure == nil else { return }
        var checkpoint = state(of: partial, diagnostics: diagnostics)
        checkpoint.checkpoint = Checkpoint(sequence: nextSequence, eventsRead: eventsBefore + partial.eventsRead, segments: segments)
        do throws(OutputDirectory.Failure) {
            if let segment = try output.saveCheckpoint(checkpoint) { segments.append(segment) }
            newestCheckpoint = (OutputDirectory.checkpointName(nextSequence), checkpoint.corpus.threadsReplayed)
            nextSequence += 1
        } catch {
            checkpointFailure = error
            stop.raise()
        }
    }

    /// How the run ends once the runner is done: a report of the whole (`RunCommand.finish`), or,
    /// stopped before the end, a checkpoint of what was kept and never a report.
    func end(_ tally: ReplayTally, stop: StopRequest, diagnostics: (String) -> Void) -> ExitCode {
        if case .stopped(let kept) = tally.end {
            if kept, checkpointFailure == nil, options.checkpointEvery != nil { saveCheckpoint(tally, stop: stop, diagnostics: diagnostics) }
            let keptText = newestCheckpoint.map { "\($0.threads) threads kept in \(options.outputDirectory)/\($0.name)" }
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
        return RunCommand.finish(state(of: tally, diagnostics: diagnostics), thresholds: options.thresholds, output: output, tap: tap,
                                 diagnostics: diagnostics)
    }
}
