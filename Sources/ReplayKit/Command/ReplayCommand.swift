import Engine
import Jobs

/// What the command line asked for.
public enum ReplayCommand: Sendable, Equatable {
    /// Replay a corpus through jobs and write a report.
    case replay(ReplayOptions)
    /// Write a generated corpus.
    case generateCorpus(threads: Int, seed: UInt64, maxExchanges: Int?, output: String)
    /// Count the flywheel metrics of a corpus and write them with the dashboard.
    case flywheel(corpus: [String], outputDirectory: String, allowUnsandboxed: Bool)
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

    public init() {}
}
