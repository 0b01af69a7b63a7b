import Confinement
import Engine
import Export
import Flywheel
import Foundation
import Jobs
import Privacy

/// Everything a run counted, as a value that merges: the shards of a run, or a checkpoint and
/// the rest of a resumed run, add up exactly to one run over the whole corpus.
///
/// It holds counts, sums, histograms, hashes and labels that passed `ReportLabel`, never a word
/// of a corpus or a model; `state.json` is it written down (schema `replay.state/1`,
/// docs/report-schema.md), and report.json, report.md, junit.xml and the flywheel's files are
/// rendered from it, so a merged state renders as one run would have. Dimensions are not capped
/// here (the 20 heaviest labels of a shard are not those of the whole): the files people read
/// are capped when rendered.
///
/// `merged(with:)` is associative and commutative. What cannot be added is taken from the shard
/// with the lowest index (the model's description, the sandbox and audit blocks), or is the
/// earliest (`timing.started`) or longest (`timing.seconds`).
public struct RunState: Sendable, Equatable {
    public static let schema = "replay.state/1"

    public var toolVersion = ReplayVersion.current
    /// The options two states must share to be merged.
    public var options: StateOptions
    public var corpusIdentity: CorpusIdentity
    public var model: ModelIdentity
    public var shard: ShardFacts
    public var corpus: CorpusCounts
    public var ledgers: [JobKind: JobLedger]
    public var sizing: [JobKind: PromptSizing]
    /// The flywheel's counts of the same records (uncapped), when the run counts them.
    public var flywheel: FlywheelCounter?
    public var timing: Timing
    /// The `sandbox` block of the process that wrote this state; nil in library use.
    public var sandbox: SandboxReport?
    /// Under `replay audit`: the audit tap's counts; else nil.
    public var audit: AuditCounts?
    /// Set in a checkpoint: its number and where a resumed run goes on.
    public var checkpoint: Checkpoint?
    /// Every item's outcome (`ItemOutcome`). Not part of `state.json`: written beside it as
    /// `items.json.zst` (`ItemTable`), and read back from there by a merge or a resumed run.
    public var items: [ItemOutcome] = []

    /// A run's state from what its runner counted. Corpus labels go through their rules here
    /// (builds, models, kinds, counters, ids in reasons), so the value holds only labels.
    public init(tally: ReplayTally, options: StateOptions, corpusIdentity: CorpusIdentity, model: ModelIdentity,
                timing: Timing, sandbox: SandboxReport? = nil, audit: AuditCounts? = nil) {
        self.options = options
        self.corpusIdentity = corpusIdentity
        self.model = model
        self.timing = timing
        self.sandbox = sandbox
        self.audit = audit
        shard = ShardFacts(count: tally.shard.count, by: tally.shard.by, indexes: [tally.shard.index],
                           threadsSeen: tally.threadsSeen, unsandboxed: sandbox?.enforced == true ? [] : [tally.shard.index])
        var stats = tally.corpus
        stats.unknownTypes = Self.labelled(stats.unknownTypes) { ReportLabel(kind: $0, listed: options.labels) }
        stats.unknownNodes = Self.labelled(stats.unknownNodes) { ReportLabel(kind: $0, listed: options.labels) }
        var fatal: FatalNote? = nil
        if case .input(let message)? = tally.fatal {
            fatal = FatalNote(fileIndex: tally.fatalPlace?.file ?? -1, line: tally.fatalPlace?.line ?? 0, message: message)
        }
        corpus = CorpusCounts(
            stats: stats, threadsReplayed: tally.threadsReplayed, stoppedAtLimit: tally.stoppedAtLimit,
            stoppedAtAnotherShardsBadLine: tally.stoppedByAnotherShard && fatal == nil,
            errors: zip(tally.fileErrorFiles, tally.fileErrors).map { FileNote(fileIndex: $0, message: $1.description) },
            badLineSamples: zip(tally.badLineFiles, tally.badLineSamples).map {
                BadLineNote(fileIndex: $0, file: $1.location.file, line: $1.location.line, reason: ReportLabel.reason($1.reason))
            },
            fatal: fatal)
        ledgers = tally.ledgers.mapValues { Self.labelled($0, listed: options.labels) }
        sizing = tally.sizing
        flywheel = tally.flywheel
        items = tally.items
    }

    /// A state from its parts (reading a state file back).
    init(toolVersion: String, options: StateOptions, corpusIdentity: CorpusIdentity, model: ModelIdentity, shard: ShardFacts,
         corpus: CorpusCounts, ledgers: [JobKind: JobLedger], sizing: [JobKind: PromptSizing], flywheel: FlywheelCounter?,
         timing: Timing, sandbox: SandboxReport?, audit: AuditCounts?, checkpoint: Checkpoint?) {
        self.toolVersion = toolVersion
        self.options = options
        self.corpusIdentity = corpusIdentity
        self.model = model
        self.shard = shard
        self.corpus = corpus
        self.ledgers = ledgers
        self.sizing = sizing
        self.flywheel = flywheel
        self.timing = timing
        self.sandbox = sandbox
        self.audit = audit
        self.checkpoint = checkpoint
    }

    // MARK: - Merging

    /// This state and another shard's (or another merge's) of the same run, added up.
    ///
    /// The caller has checked they belong together (`MergeCommand` names what does not): the
    /// same corpus, options and model, the same split, and no shard in both.
    public func merged(with other: RunState) -> RunState {
        let (first, second) = shard.lowestIndex <= other.shard.lowestIndex ? (self, other) : (other, self)
        var sum = first
        sum.checkpoint = nil
        sum.shard = first.shard.merged(with: second.shard)
        sum.corpusIdentity = first.corpusIdentity.merged(with: second.corpusIdentity)
        sum.corpus = first.corpus.merged(with: second.corpus)
        sum.add(counts: second)
        sum.items = ItemTable(sum.items).items   // in canonical order, so merging is commutative
        sum.timing = Timing(started: min(first.timing.started, second.timing.started),
                            seconds: max(first.timing.seconds, second.timing.seconds))
        return sum
    }

    /// This state (a checkpoint) followed by `rest`: what the same process would have counted
    /// had it not stopped. `rest` is the resumed run's own count from the checkpoint's place on.
    public func continued(with rest: RunState) -> RunState {
        var sum = rest
        sum.checkpoint = nil
        sum.shard.threadsSeen = shard.threadsSeen + rest.shard.threadsSeen
        sum.shard.unsandboxed = Array(Set(shard.unsandboxed).union(rest.shard.unsandboxed)).sorted()
        sum.corpus = corpus.merged(with: rest.corpus)
        sum.corpus.stoppedAtLimit = rest.corpus.stoppedAtLimit
        sum.add(counts: self)
        sum.timing = Timing(started: timing.started, seconds: timing.seconds + rest.timing.seconds)
        return sum
    }

    /// Adds `other`'s job ledgers, prompt sizes and flywheel counts.
    private mutating func add(counts other: RunState) {
        for (kind, ledger) in other.ledgers { ledgers[kind, default: JobLedger()].merge(ledger) }
        for (kind, sizes) in other.sizing { sizing[kind, default: PromptSizing()].merge(sizes) }
        items += other.items
        if let theirs = other.flywheel { flywheel = (flywheel ?? FlywheelCounter(listed: options.labels)).merged(with: theirs) }
    }

    /// The threads read that belong to shards this state does not cover.
    public var threadsSkipped: Int { max(0, shard.threadsSeen - corpus.stats.threads) }

    // MARK: - Labels

    /// Counts keyed by `rule(key)`; keys whose labels coincide are added.
    static func labelled(_ counts: [String: Int], rule: (String) -> ReportLabel) -> [String: Int] {
        var byLabel: [String: Int] = [:]
        for (key, n) in counts { byLabel[rule(key).text, default: 0] += n }
        return byLabel
    }

    /// A ledger with builds, models, locales and build × model cells as labels (with the team's list `listed`) and counters
    /// through `labelledCounters`.
    static func labelled(_ ledger: JobLedger, listed: TeamLabels) -> JobLedger {
        func clean(_ metrics: JobMetrics) -> JobMetrics {
            var copy = metrics
            copy.counters = labelledCounters(metrics.counters, listed: listed)
            copy.quality = relabelled(metrics.quality)
            copy.qualityAllAnswers = relabelled(metrics.qualityAllAnswers)
            return copy
        }
        func relabelled(_ tallies: [String: QualityTally]) -> [String: QualityTally] {
            var byLabel: [String: QualityTally] = [:]
            for (name, tally) in tallies { byLabel[ReportLabel(token: name).text, default: QualityTally()].merge(tally) }
            return byLabel
        }
        func slices(_ byValue: [String: JobMetrics], _ rule: (String) -> ReportLabel) -> [String: JobMetrics] {
            var byLabel: [String: JobMetrics] = [:]
            for (value, metrics) in byValue { byLabel[rule(value).text, default: JobMetrics()].merge(clean(metrics)) }
            return byLabel
        }
        var result = JobLedger()
        result.overall = clean(ledger.overall)
        result.byBuild = slices(ledger.byBuild) { ReportLabel(build: $0, listed: listed) }
        result.byModel = slices(ledger.byModel) { ReportLabel(model: $0, listed: listed) }
        result.byLocale = slices(ledger.byLocale) { ReportLabel(locale: $0) }
        for (build, models) in ledger.byBuildModel {
            let buildLabel = ReportLabel(build: build, listed: listed).text
            for (model, metrics) in models.wrappedValue {
                result[build: buildLabel, model: ReportLabel(model: model, listed: listed).text].merge(clean(metrics))
            }
        }
        return result
    }

    /// A job's counters with their names as labels: the jobs' own tokens through the token rule,
    /// routing's `confusion:<actual>-><guessed>` with each name through the member rule and the
    /// team's list `listed`, the job's own `lead` kept, and the drawer's
    /// `drawer:confusion:<agent>-><picked>` through the agent rule, `none` kept (the job already
    /// applies the rules; this keeps a state safe on its own). Uncapped: the report caps.
    static func labelledCounters(_ counters: [String: Int], listed: TeamLabels) -> [String: Int] {
        func member(_ name: String) -> String { name == Route.lead ? name : ReportLabel(member: name, listed: listed).text }
        func agent(_ name: String) -> String { name == RouteJob.drawerNoPill ? name : ReportLabel(agent: name, listed: listed).text }
        let prefix = "confusion:"
        var labelled: [String: Int] = [:]
        for (key, n) in counters {
            if key.hasPrefix(RouteJob.drawerConfusion) {
                let pair = String(key.dropFirst(RouteJob.drawerConfusion.count))
                let names = pair.components(separatedBy: "->")
                let label = names.count == 2 ? agent(names[0]) + "->" + agent(names[1]) : ReportLabel(hashing: pair).text
                labelled[RouteJob.drawerConfusion + label, default: 0] += n
                continue
            }
            guard key.hasPrefix(prefix) else {
                labelled[ReportLabel(token: key).text, default: 0] += n
                continue
            }
            let pair = String(key.dropFirst(prefix.count))
            let names = pair.components(separatedBy: "->")
            let label = names.count == 2
                ? member(names[0]) + "->" + member(names[1])
                : ReportLabel(hashing: pair).text
            labelled[prefix + label, default: 0] += n
        }
        return labelled
    }
}

/// The options that decide what a run counts: two states merge only when these are equal.
///
/// Gates (`--fail-under`), `--out` and the sandbox choice are not here: they judge or place a
/// run, they do not change its counts.
public struct StateOptions: Sendable, Equatable {
    public var jobs: [JobKind]
    /// Each job's budget in milliseconds, as the job has it (default or given).
    public var budgets: [JobKind: Double]
    public var device: DeviceProfile
    public var threadLimit: Int?
    public var strict: Bool
    public var dryRun: Bool
    public var flywheel: Bool
    public var batchSize: Int
    /// The team's list of labels kept as written (`--labels`): a state names it by its digest,
    /// and states merge or resume only with the same list, or one value would be counted under
    /// its name in one shard and under its hash in another.
    public var labels: TeamLabels
    /// The prompt set the jobs asked with (`--prompts`), by its name and digest: states merge or
    /// resume only with the same set, or one run would count answers to two different prompts.
    public var prompts: PromptSetIdentity
    /// Each model version's ceiling, languages and speed on the run's device (`--profiles`).
    public var profiles: AppliedProfiles
    /// The fallbacks injected (`--inject-fallbacks`, `--inject-seed`); nil: none.
    public var injection: FallbackInjection?
    /// Routing's minimum confidence when given (`--route-confidence`); nil: the job's default.
    public var routeConfidence: Double? = nil
    /// Where push lines were written (`--push-mode`): the next-run path counts other places.
    public var pushMode = PushMode.extension

    public init(jobs: [JobKind], budgets: [JobKind: Double], device: DeviceProfile, threadLimit: Int?, strict: Bool,
                dryRun: Bool, flywheel: Bool, batchSize: Int, labels: TeamLabels = .none,
                prompts: PromptSetIdentity = PromptSet.builtIn.identity, profiles: AppliedProfiles? = nil,
                injection: FallbackInjection? = nil) {
        self.jobs = jobs
        self.budgets = budgets
        self.device = device
        self.threadLimit = threadLimit
        self.strict = strict
        self.dryRun = dryRun
        self.flywheel = flywheel
        self.batchSize = batchSize
        self.labels = labels
        self.prompts = prompts
        self.profiles = profiles ?? AppliedProfiles(.builtIn, device: device)
        self.injection = injection
    }

    /// The options of a run of `jobs` under `options`.
    public init(_ options: ReplayOptions, jobs: [any Job]) {
        self.init(jobs: jobs.map(\.kind), budgets: Dictionary(uniqueKeysWithValues: jobs.map { ($0.kind, $0.budgetMilliseconds) }),
                  device: options.device, threadLimit: options.threadLimit, strict: options.strict,
                  dryRun: options.dryRun, flywheel: options.flywheel, batchSize: options.batchSize, labels: options.labels,
                  prompts: options.prompts.identity, profiles: AppliedProfiles(options.profiles, device: options.device),
                  injection: options.dryRun ? nil : options.injection)
        routeConfidence = options.routeConfidence
        pushMode = options.pushMode
    }

    /// The jobs, each with its budget and the team's labels, to describe them in a report: with
    /// the built-in prompts, since a state keeps only its set's name and digest, and a job's
    /// description does not depend on its prompts.
    public func makeJobs() -> [any Job] {
        let unknown = profiles.versions.first { $0.name == profiles.unknownModel }?.contextTokens ?? 4096
        return jobs.map {
            $0.job(budgetMilliseconds: budgets[$0], labels: labels, contextLimit: unknown, routeConfidence: routeConfidence, pushMode: pushMode)
        }
    }

    /// The options that differ from `other`'s, each its flag (`OptionFlag`); the prompt sets'
    /// with the two sets named.
    public func differences(from other: StateOptions) -> [String] {
        let differing: [(OptionFlag, Bool)] = [
            (.job, jobs != other.jobs), (.budget, budgets != other.budgets), (.device, device != other.device),
            (.limit, threadLimit != other.threadLimit), (.strict, strict != other.strict), (.dryRun, dryRun != other.dryRun),
            (.flywheel, flywheel != other.flywheel), (.batch, batchSize != other.batchSize),
            (.labels, labels.digest != other.labels.digest), (.prompts, prompts != other.prompts),
            (.profiles, profiles.sha256 != other.profiles.sha256), (.injectFallbacks, injection != other.injection),
            (.routeConfidence, routeConfidence != other.routeConfidence),
            (.asModelVersion, profiles.asModelVersion != other.profiles.asModelVersion),
            (.pushMode, pushMode != other.pushMode),
        ]
        return differing.filter(\.1).map { flag, _ in
            flag == .prompts ? "\(flag.rawValue): one ran with \(prompts.summary), the other with \(other.prompts.summary)" : flag.rawValue
        }
    }
}

/// The model a run used, by its file's digest, and how it was described in the report.
public struct ModelIdentity: Sendable, Equatable, Codable {
    /// The weights file; nil when no model was given or installed.
    public var path: String?
    public var bytes: Int?
    /// SHA-256 of the file (a run with the model: the report's `model.sha256`), or of its first
    /// and last MiB (a dry run, which only checks the file's metadata: hashing 100 MB would cost
    /// more than the run), as `hashed` says; nil when it could not be read.
    public var sha256: String?
    public var hashed: CorpusIdentity.Hashed
    /// Why the model could not be loaded, when it could not (every job then falls back).
    public var unavailable: String?
    /// Token sizes are estimates from UTF-8 bytes (no tokenizer could be loaded).
    public var approximateTokens: Bool
    /// The report's `model` block; nil in a dry run or without a model.
    public var report: ModelReport?

    enum CodingKeys: String, CodingKey {
        case path, bytes, sha256, hashed, unavailable
        case approximateTokens = "approximate_tokens"
        case report = "description"
    }

    public init(path: String?, bytes: Int?, sha256: String?, hashed: CorpusIdentity.Hashed = .whole, unavailable: String?,
                approximateTokens: Bool, description: ModelReport?) {
        self.path = path
        self.bytes = bytes
        self.sha256 = sha256
        self.hashed = hashed
        self.unavailable = unavailable
        self.approximateTokens = approximateTokens
        self.report = description
    }

    /// No model at all (library use and tests).
    public static let none = ModelIdentity(path: nil, bytes: nil, sha256: nil, unavailable: nil, approximateTokens: false, description: nil)

    /// Nil when `other` is the same model for counting's sake; else what differs, in a sentence.
    public func difference(from other: ModelIdentity) -> String? {
        if sha256 != other.sha256 || bytes != other.bytes {
            return "the model file differs (SHA-256 \(other.sha256.map { String($0.prefix(12)) } ?? "none"), not \(sha256.map { String($0.prefix(12)) } ?? "none"))"
        }
        if (unavailable == nil) != (other.unavailable == nil) { return "the model could be loaded in one run and not in the other" }
        if approximateTokens != other.approximateTokens { return "token sizes were estimated in one run and not in the other" }
        return nil
    }
}

/// Which shards a state covers, and what they read of other shards' threads.
public struct ShardFacts: Sendable, Equatable {
    public var count: Int
    public var by: ShardBy
    /// The shards whose counts are in the state, in order.
    public var indexes: [Int]
    /// Thread lines read, whoever's: in a thread split every shard reads them all (the merge keeps
    /// the most any shard read); in a file split each reads its own files' (the merge adds them).
    public var threadsSeen: Int
    /// The shards that ran without the kernel's sandbox.
    public var unsandboxed: [Int]

    var lowestIndex: Int { indexes.first ?? 0 }

    /// Whether these shards replay corpus file `index`: every file in a thread split (each shard
    /// reads them all), its own files in a file split (`ShardSpec.owner(ofFile:)`).
    func replays(file index: Int) -> Bool {
        by == .thread || indexes.contains(ShardSpec(index: 0, count: max(1, count), by: by).owner(ofFile: index))
    }

    func merged(with other: ShardFacts) -> ShardFacts {
        ShardFacts(count: count, by: by, indexes: Array(Set(indexes).union(other.indexes)).sorted(),
                   threadsSeen: by == .thread ? max(threadsSeen, other.threadsSeen) : threadsSeen + other.threadsSeen,
                   unsandboxed: Array(Set(unsandboxed).union(other.unsandboxed)).sorted())
    }
}

/// The corpus's counts, with the notes a report quotes (never a line's content).
public struct CorpusCounts: Sendable, Equatable {
    /// Lines, records, threads, messages, bad lines, unknown kinds (as labels), bytes.
    public var stats: CorpusStats
    public var threadsReplayed: Int
    public var stoppedAtLimit: Bool
    /// Under `--strict`, reading stopped at another shard's bad line (that shard reports it).
    public var stoppedAtAnotherShardsBadLine: Bool
    /// Files that failed or were refused, in corpus order.
    public var errors: [FileNote]
    /// The first 20 bad lines in reading order.
    public var badLineSamples: [BadLineNote]
    /// The bad line that stopped a `--strict` run, or another input error that did.
    public var fatal: FatalNote?

    /// How many bad lines a state keeps to quote.
    public static let sampleLimit = 20

    func merged(with other: CorpusCounts) -> CorpusCounts {
        let fatal = [self.fatal, other.fatal].compactMap { $0 }.min()
        return CorpusCounts(
            stats: stats.adding(other.stats), threadsReplayed: threadsReplayed + other.threadsReplayed,
            stoppedAtLimit: stoppedAtLimit || other.stoppedAtLimit,
            stoppedAtAnotherShardsBadLine: (stoppedAtAnotherShardsBadLine || other.stoppedAtAnotherShardsBadLine) && fatal == nil,
            errors: (errors + other.errors).sorted(),
            badLineSamples: Array((badLineSamples + other.badLineSamples).sorted().prefix(Self.sampleLimit)),
            fatal: fatal)
    }
}

/// A file's failure: its index in the corpus's file list and the reader's message (which names
/// the file and what is wrong with it, never its content).
public struct FileNote: Sendable, Equatable, Comparable, Codable {
    public var fileIndex: Int
    @Prose public var message: String

    enum CodingKeys: String, CodingKey {
        case fileIndex = "file_index"
        case message
    }
    public static func < (a: FileNote, b: FileNote) -> Bool { (a.fileIndex, a.message) < (b.fileIndex, b.message) }
}

/// A bad line: where it was and its structural reason (ids in it through the id rule).
public struct BadLineNote: Sendable, Equatable, Comparable {
    public var fileIndex: Int
    public var file: String
    public var line: Int
    public var reason: String
    public static func < (a: BadLineNote, b: BadLineNote) -> Bool {
        (a.fileIndex, a.line, a.reason) < (b.fileIndex, b.line, b.reason)
    }
}

/// `{"file_index", "file", "line", "reason"}`, the reason read back through its rule.
extension BadLineNote: Codable {
    enum CodingKeys: String, CodingKey {
        case fileIndex = "file_index"
        case file, line, reason
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(fileIndex: try container.decode(Int.self, forKey: .fileIndex), file: try container.decode(ResultPath.self, forKey: .file).text,
                  line: try container.decode(Int.self, forKey: .line),
                  reason: ReportLabel.reason(try container.decode(Prose.self, forKey: .reason).text))
    }
}

/// What stopped a run with an input error: a bad line under `--strict` (its place), or a corpus
/// that could not be opened (file index -1).
public struct FatalNote: Sendable, Equatable, Comparable, Codable {
    public var fileIndex: Int
    public var line: Int
    @Prose public var message: String

    enum CodingKeys: String, CodingKey {
        case fileIndex = "file_index"
        case line, message
    }
    public static func < (a: FatalNote, b: FatalNote) -> Bool {
        (a.fileIndex, a.line, a.message) < (b.fileIndex, b.line, b.message)
    }
}

/// When a run started (ISO 8601, UTC, seconds) and how long it took: the only facts of a state
/// that differ between two runs of the same corpus and options, with the sandbox block.
public struct Timing: Sendable, Equatable, Codable {
    @UTCTimestamp public var started: String
    public var seconds: Double

    enum CodingKeys: String, CodingKey { case started, seconds }

    public init(started: String, seconds: Double) {
        self.started = started
        self.seconds = seconds
    }

    public init(started: Date, seconds: Double) {
        self.init(started: ISO8601DateFormatter().string(from: started), seconds: seconds)
    }
}

/// A checkpoint's number and where a resumed run goes on: after `eventsRead` reader events.
public struct Checkpoint: Sendable, Equatable, Codable {
    public var sequence: Int
    public var eventsRead: Int
    /// The item segments of this checkpoint's chain, oldest first: each checkpoint's file
    /// `checkpoint-NNNNNN.items.json.zst` holds the items since the one before it.
    public var segments: [ItemSegment]

    enum CodingKeys: String, CodingKey {
        case sequence
        case eventsRead = "events_read"
        case segments = "item_segments"
    }

    public init(sequence: Int, eventsRead: Int, segments: [ItemSegment] = []) {
        self.sequence = sequence
        self.eventsRead = eventsRead
        self.segments = segments
    }
}

/// One checkpoint's item segment: whose it is, how many items it holds, and its file's SHA-256.
public struct ItemSegment: Sendable, Equatable, Codable {
    public var sequence: Int
    public var count: Int
    @SHA256Hex public var sha256: String

    enum CodingKeys: String, CodingKey { case sequence, count, sha256 }
}

/// Reading the model's strings as their rules say (`ResultStringRule`): each is optional, written null when absent.
extension ModelIdentity {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(path: try c.decode(ResultPath?.self, forKey: .path)?.text, bytes: try c.decode(Int?.self, forKey: .bytes),
                  sha256: try c.decode(SHA256Hex?.self, forKey: .sha256)?.text, hashed: try c.decode(CorpusIdentity.Hashed.self, forKey: .hashed),
                  unavailable: try c.decode(Prose?.self, forKey: .unavailable)?.text,
                  approximateTokens: try c.decode(Bool.self, forKey: .approximateTokens),
                  description: try c.decode(ModelReport?.self, forKey: .report))
    }
}
