import Engine
import Jobs
import Privacy

/// What the command line asked for.
public enum ReplayCommand: Sendable, Equatable {
    /// Replay a corpus through jobs and write a report.
    case replay(ReplayOptions)
    /// Write a generated corpus.
    case generateCorpus(threads: Int, seed: UInt64, maxExchanges: Int?, output: String)
    /// Count the flywheel metrics of a corpus and write them with the dashboard.
    case flywheel(corpus: [String], outputDirectory: String, allowUnsandboxed: Bool, labels: TeamLabels)
    /// Merge the states of a sharded run's shards into one report.
    case merge(MergeOptions)
    /// Print the built-in prompt set (`replay prompts show`).
    case showPrompts
    case help
    case version
}

/// Everything a replay run is told on the command line.
public struct ReplayOptions: Sendable, Equatable {
    /// The jobs to run: all four unless `--job` says otherwise.
    public var jobs: [JobKind] = JobKind.allCases
    public var outputDirectory = "replay-report"
    /// The model file; nil means the default model from the cache.
    public var modelPath: String? = nil
    public var device: DeviceProfile = .iPhone15Pro
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
    /// CI gates: the run exits 1 when any is not met.
    public var thresholds: [Threshold] = []
    /// Run even where the kernel cannot confine the run; written in the report, fails the audit.
    public var allowUnsandboxed = false
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

/// What `replay merge` is told: the shards' directories and where the merged report goes.
public struct MergeOptions: Sendable, Equatable {
    public var outputDirectory = "replay-report"
    /// The shards' `--out` directories, each holding its `state.json`.
    public var shardDirectories: [String] = []
    /// CI gates on the merged report.
    public var thresholds: [Threshold] = []
    public var allowUnsandboxed = false
    /// The team's labels (`--labels FILE`): the same list as the shards', whose states name it by
    /// its digest, so names are kept and hashed as the shards did.
    public var labels = TeamLabels.none

    public init() {}
}
