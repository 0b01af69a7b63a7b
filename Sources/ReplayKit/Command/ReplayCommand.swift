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
    case flywheel(corpus: [String], outputDirectory: String, allowUnsandboxed: Bool, labels: TeamLabels, force: Bool)
    /// Merge the states of a sharded run's shards into one report.
    case merge(MergeOptions)
    /// Print the built-in prompt set (`replay prompts show`).
    case showPrompts
    /// Print the built-in model and device profiles (`replay profiles show`).
    case showProfiles
    case help
    case version
}

/// What `replay merge` is told: the shards' directories and where the merged report goes.
public struct MergeOptions: Sendable, Equatable {
    public var outputDirectory = "replay-report"
    /// The shards' `--out` directories, each holding its `state.json`.
    public var shardDirectories: [String] = []
    /// CI gates on the merged report.
    public var thresholds: [Threshold] = []
    public var allowUnsandboxed = false
    /// `--force`: replace a finished run in `outputDirectory`.
    public var force = false
    /// The team's labels (`--labels FILE`): the same list as the shards', whose states name it by
    /// its digest, so names are kept and hashed as the shards did.
    public var labels = TeamLabels.none
    /// The run's key file; nil for `REPLAY_RUN_KEY`'s, else the per-user key (the merge never
    /// makes one: it could check nothing). Each
    /// shard's state carries its digest under the run key, which the merge checks, and the merged
    /// state carries its own.
    public var runKeyPath: String?

    public init() {}
}
