import Engine
import Jobs
import Privacy

/// Everything a replay run is told (on the command line, or by its config file): what the run's
/// stages and its state read.
///
/// Here with the run rather than with the command that parses it, so the stages and the state
/// below the command layer never reach up into it.
public struct ReplayOptions: Sendable, Equatable {
    /// The jobs to run: all four unless `--job` says otherwise.
    public var jobs: [JobKind] = JobKind.allCases
    public var outputDirectory = "replay-report"
    /// The model file; nil means the default model from the cache.
    public var modelPath: String? = nil
    /// The phone whose clock judges the budgets (`--device`): one of `profiles`' devices or a custom one.
    public var device: DeviceProfile = .iPhone15Pro
    /// Each model version's context, languages and speed (`--profiles FILE`, or the config's
    /// `profiles`): a place is judged by the profile of its own `meta.model`.
    public var profiles = ModelProfiles.builtIn
    /// Refusals, guardrail violations and rate limits to inject at given rates of places, by job
    /// and topic, and phones without the model (`--inject-fallbacks`, `--inject-seed`); nil: the
    /// model answers as it does.
    public var injection: FallbackInjection? = nil
    public var dryRun = false
    public var strict = false
    /// Stop after this many threads.
    public var threadLimit: Int? = nil
    /// Sequences decoded together.
    public var batchSize = 8
    public var corpus: [String] = []
    /// Also count the flywheel metrics and write them, with the dashboard, beside the report
    /// (on by default when all four jobs run).
    public var flywheel = false
    /// Time budgets that replace a job's default, in milliseconds.
    public var budgets: [JobKind: Double] = [:]
    /// Routing's minimum confidence (`--route-confidence`); nil: the job's default.
    public var routeConfidence: Double? = nil
    /// Where push lines are written (`--push-mode`): in the extension, or at the next app run.
    public var pushMode = PushMode.extension
    /// CI gates: the run exits 1 when any is not met.
    public var thresholds: [Threshold] = []
    /// Run even where the kernel cannot confine the run; written in the report, fails the audit.
    public var allowUnsandboxed = false
    /// `--force`: replace a finished run in `outputDirectory` (else refused).
    public var force = false
    /// The part of the corpus to replay (`--shard I/N`, `--shard-by`, or the scheduler's
    /// environment): the whole corpus by default.
    public var shard = ShardSpec.whole
    /// Continue after the newest complete checkpoint under `--out`, if there is one (`--resume`).
    public var resume = false
    /// Write a checkpoint every this many replayed threads (`--checkpoint-every`; 200 with
    /// `--resume`); nil writes none.
    public var checkpointEvery: Int? = nil
    /// The labels the team allows in the results as written (`--labels FILE`, or the config's
    /// `labels`): agent and member names, and builds, models and kinds that are names.
    public var labels = TeamLabels.none

    /// The run key's file (`--run-key`, or the config's `run_key`); nil: `REPLAY_RUN_KEY`, else
    /// the per-user key (`RunKeyFile`).
    public var runKeyPath: String? = nil

    /// The words the jobs ask with (`--prompts FILE`, or the config's `prompts`): the built-in set
    /// unless given.
    public var prompts = PromptSet.builtIn

    /// Threads between checkpoints when `--resume` is given without `--checkpoint-every`.
    public static let defaultCheckpointEvery = 200

    public init() {}
}
