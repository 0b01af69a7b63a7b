import Confinement
import Jobs
import Privacy
import ReplayKit

/// compare.json (`replay.compare/1`, docs/compare-schema.md): the whole comparison as numbers,
/// fixed words, labels and the two run directories' paths. `CompareCommand` encodes it; the
/// auditor decodes it strictly, so this type is what the file may hold.
public struct CompareDocument: ResultDocument, Equatable {
    public static let schema = "replay.compare/1"
    public static func isFileName(_ name: String) -> Bool { name == "compare.json" }

    public var schema = SchemaName<CompareDocument>()
    public var tool = ToolStamp()
    public var base: Side
    public var new: Side
    public var differences: Differences
    public var method: Method
    /// The comparing process's confinement; null in library use.
    public var sandbox: SandboxReport?
    public var join: JoinCounts
    public var jobs: ResultMap<JobKind, Job>
    public var gates: [Gate]

    /// `report` as compare.json states it; an option difference without a flag is refused.
    public init(_ report: CompareReport) throws(StateFormatError) {
        let comparison = report.comparison
        base = Side(report.base)
        new = Side(report.new)
        let flags = report.optionDifferences.compactMap(OptionFlag.init(difference:))
        guard flags.count == report.optionDifferences.count else { throw StateFormatError("an option difference compare.json has no flag for") }
        differences = Differences(options: flags, model: report.modelDiffers)
        method = Method(bootstrap: Method.Bootstrap(seed: Int(clamping: comparison.seed), replicates: comparison.replicates))
        sandbox = report.sandbox
        join = comparison.join
        jobs = ResultMap(comparison.jobs.map { ($0.job, Job($0)) })
        gates = report.gates.map(Gate.init)
    }

    /// One run compared: where it is, how it ran, and how much it holds.
    public struct Side: Codable, Sendable, Equatable {
        public var directory: ResultPath
        public var mode: RunReport.Mode
        public var jobs: [JobKind]
        public var budgetsMs: ResultMap<JobKind, Double>
        public var modelSHA256: SHA256Hex?
        public var shards: Int
        public var threadsReplayed: Int
        public var items: Int

        enum CodingKeys: String, CodingKey {
            case directory, mode, jobs
            case budgetsMs = "budgets_ms", modelSHA256 = "model_sha256"
            case shards
            case threadsReplayed = "threads_replayed"
            case items
        }

        init(_ run: RunDirectory) {
            let options = run.state.options
            directory = ResultPath(run.path)
            mode = options.dryRun ? .dryRun : .replay
            jobs = options.jobs
            budgetsMs = ResultMap(options.jobs.compactMap { job in options.budgets[job].map { (job, $0) } })
            modelSHA256 = run.state.model.sha256.map { SHA256Hex($0) }
            shards = run.state.shard.count
            threadsReplayed = run.state.corpus.threadsReplayed
            items = run.items.items.count
        }
    }

    /// The flags of the options the runs differ in, and whether their model files differ.
    public struct Differences: Codable, Sendable, Equatable {
        public var options: [OptionFlag]
        public var model: Bool
    }

    /// How the comparison tests: its levels, clusters, adjustment and bootstrap.
    public struct Method: Codable, Sendable, Equatable {
        public var confidence = 0.95
        public var power = 0.8
        public var alpha = MetricVerdict.alpha
        public var clusters = Clusters.thread
        public var adjustment = Adjustment.holm
        public var bootstrap: Bootstrap

        public enum Clusters: String, Codable, Sendable { case thread }
        public enum Adjustment: String, Codable, Sendable { case holm }

        /// The percentiles' bootstrap: its seed (the command takes seeds up to Int.max) and draws.
        public struct Bootstrap: Codable, Sendable, Equatable {
            public var seed: Int
            public var replicates: Int
        }
    }

    /// One job: how its items joined, and its slices.
    public struct Job: Codable, Sendable, Equatable {
        public var join: JoinCounts
        public var overall: Slice
        public var byBuild: ResultMap<BuildLabel, Slice>
        public var byModel: ResultMap<ModelLabel, Slice>
        public var byLocale: ResultMap<LocaleLabel, Slice>
        /// Each build's model versions: the slice of every (build, model version) cell.
        public var byBuildModel: ResultMap<BuildLabel, ResultMap<ModelLabel, Slice>>

        enum CodingKeys: String, CodingKey {
            case join, overall
            case byBuild = "by_build", byModel = "by_model", byLocale = "by_locale", byBuildModel = "by_build_model"
        }

        init(_ job: JobComparison) {
            join = job.join
            overall = Slice(job.overall)
            byBuild = ResultMap(job.byBuild.map { (BuildLabel($0.label), Slice($0)) })
            byModel = ResultMap(job.byModel.map { (ModelLabel($0.label), Slice($0)) })
            byLocale = ResultMap(job.byLocale.map { (LocaleLabel($0.label), Slice($0)) })
            var cells = ResultMap<BuildLabel, ResultMap<ModelLabel, Slice>>()
            for cell in job.byBuildModel {
                let build = BuildLabel(cell.label)
                var models = cells[build] ?? ResultMap()
                models[ModelLabel(cell.model ?? "")] = Slice(cell)
                cells[build] = models
            }
            byBuildModel = cells
        }
    }

    /// A slice's eligible items and every metric of the job over them.
    public struct Slice: Codable, Sendable, Equatable {
        public var eligible: JoinCounts
        public var metrics: ResultMap<MetricKey, Metric>

        init(_ slice: SliceComparison) {
            eligible = slice.eligible
            metrics = ResultMap(slice.metrics.map { (MetricKey($0.metric), Metric($0)) })
        }
    }

    /// One metric compared (`MetricComparison`); its numbers null when nothing was compared.
    public struct Metric: Codable, Sendable, Equatable {
        public var kind: MetricDefinition.Kind
        public var unit: MetricDefinition.Unit
        public var direction: MetricDefinition.Direction
        public var test: Test
        public var pairs: Int
        public var clusters: Int
        public var base: Double?
        public var new: Double?
        public var difference: Double?
        public var lower: Double?
        public var upper: Double?
        public var standardError: Double?
        public var p: Double?
        public var pHolm: Double?
        public var minimumDetectable: Double?
        /// A rate's McNemar counts: items yes in BASE only and in NEW only.
        public var discordant: Discordant?
        public var verdict: MetricVerdict

        public struct Discordant: Codable, Sendable, Equatable {
            public var baseOnly: Int
            public var newOnly: Int

            enum CodingKeys: String, CodingKey { case baseOnly = "base_only", newOnly = "new_only" }
        }

        /// The test of a kind of metric.
        public enum Test: String, Codable, Sendable {
            case mcnemarExact = "mcnemar_exact", pairedNormal = "paired_normal", pairedBootstrap = "paired_bootstrap"
        }

        enum CodingKeys: String, CodingKey {
            case kind, unit, direction, test, pairs, clusters, base, new, difference, lower, upper
            case standardError = "standard_error"
            case p
            case pHolm = "p_holm", minimumDetectable = "minimum_detectable"
            case discordant, verdict
        }

        /// `m` as compare.json writes it; `replay probe compare` writes its metrics so too.
        public init(_ m: MetricComparison) {
            (kind, unit, direction) = (m.metric.kind, m.metric.unit, m.metric.direction)
            switch m.metric.kind {
            case .rate: test = .mcnemarExact
            case .mean: test = .pairedNormal
            case .percentile: test = .pairedBootstrap
            }
            (pairs, clusters, base, new, difference, lower, upper) = (m.pairs, m.clusters, m.base, m.new, m.difference, m.lower, m.upper)
            (standardError, p, pHolm, minimumDetectable) = (m.standardError, m.pValue, m.adjustedPValue, m.minimumDetectable)
            discordant = m.baseOnly.flatMap { b in m.newOnly.map { Discordant(baseOnly: b, newOnly: $0) } }
            verdict = m.verdict
        }
    }

    /// A `--fail-if-worse` gate judged (`GateVerdict`).
    public struct Gate: Codable, Sendable, Equatable {
        public var job: JobKind
        /// The slice judged: its build, model version or locale label (a cell has both of the
        /// first two); each omitted when the gate does not name it (all: the job's every item).
        @OmittedWhenNil public var build: BuildLabel?
        @OmittedWhenNil public var model: ModelLabel?
        @OmittedWhenNil public var locale: LocaleLabel?
        public var metric: MetricKey
        public var margin: Double
        public var direction: MetricDefinition.Direction
        public var bound: Bound
        /// The bound tested; null when the metric has no pairs.
        public var value: Double?
        public var limit: Double
        public var passed: Bool
        /// Why a gate with no pairs fails; null otherwise.
        public var reason: Prose?

        public enum Bound: String, Codable, Sendable { case lower, upper }

        init(_ verdict: GateVerdict) {
            (job, metric, margin) = (verdict.gate.job, MetricKey(verdict.gate.metric), verdict.gate.margin)
            func named(_ label: GateKey.Label) -> String? { if case .named(let text) = label { text } else { nil } }
            switch verdict.gate.key.slice {
            case .overall: break
            case .build(let label): build = named(label).map { BuildLabel($0) }
            case .model(let label): model = named(label).map { ModelLabel($0) }
            case .locale(let label): locale = named(label).map { LocaleLabel($0) }
            case .cell(let b, let m): (build, model) = (named(b).map { BuildLabel($0) }, named(m).map { ModelLabel($0) })
            }
            direction = verdict.gate.metric.direction
            bound = verdict.testsUpperBound ? .upper : .lower
            (value, limit, passed) = (verdict.bound, verdict.limit, verdict.passed)
            reason = verdict.bound == nil ? Prose(verdict.noPairsReason) : nil
        }
    }
}
