import Confinement
import Engine
import Export
import Jobs
import Foundation
import Privacy

/// Builds report.json (schema `replay.report/1`, documented in docs/report-schema.md) from a run's counts.
///
/// Every value is a count, a rate, a timing, a size, a hash or a fixed label: the report is
/// what leaves the process, so nothing else may be in it. Labels that come from the corpus
/// (builds, model versions, unknown kinds, member names in route counters, ids quoted in bad
/// line reasons) enter here, each through its `ReportLabel` rule, and each such dimension shows
/// at most `ReportLabel.maximumDistinct` labels, the rest added into "(other)".
public struct ReportBuilder {
    public static let schema = "replay.report/1"

    /// What the run counted, and its options, model, shard, timing and sandbox.
    public var state: RunState
    /// The jobs, which describe their own configuration in the report.
    public var jobs: [any Job]

    /// The report of `state`: one run's, a resumed run's, or a merge of shards'.
    public init(state: RunState) {
        self.state = state
        self.jobs = state.options.makeJobs()
    }

    /// The report of what a runner counted (library use and tests): its state, built here.
    public init(options: ReplayOptions, tally: ReplayTally, model: ModelDescription?, jobs: [any Job], seconds: Double, started: Date,
                sandbox: SandboxReport? = nil, modelUnavailable: String? = nil, approximateTokens: Bool = false,
                audit: AuditCounts? = nil) {
        let identity = ModelIdentity(path: model?.info.path, bytes: model?.fileBytes, sha256: model?.sha256, unavailable: modelUnavailable,
                                     approximateTokens: approximateTokens, description: model?.report)
        self.state = RunState(tally: tally, options: StateOptions(options, jobs: jobs), corpusIdentity: CorpusIdentity(files: []),
                              model: identity, timing: Timing(started: started, seconds: seconds),
                              sandbox: sandbox, audit: audit)
        self.jobs = jobs
    }

    var options: StateOptions { state.options }

    /// report.json as a value: the report encoded (`json()` renders the file).
    public func build() -> ReportValue { ReportValue(encoding: report) }

    public var report: RunReport {
        let facts = state.shard, stats = state.corpus.stats
        return RunReport(
            tool: ToolStamp(version: state.toolVersion),
            run: RunReport.Run(
                mode: options.dryRun ? .dryRun : .replay, jobs: jobs.map(\.kind), started: UTCTimestamp(state.timing.started),
                seconds: state.timing.seconds, threadLimit: options.threadLimit, stoppedAtLimit: state.corpus.stoppedAtLimit,
                strict: options.strict, batchSize: options.batchSize, modelUnavailable: state.model.unavailable.map { Prose($0) },
                tokenSizes: .phone, prompts: options.prompts, profiles: options.profiles,
                injectFallbacks: options.injection),
            shard: RunReport.Shard(index: facts.indexes.count == 1 ? facts.indexes[0] : nil, count: facts.count, by: facts.by,
                                   shards: facts.indexes, threadsRead: facts.threadsSeen, threadsSkipped: state.threadsSkipped,
                                   unsandboxedShards: facts.unsandboxed),
            sandbox: state.sandbox, audit: state.audit, model: state.model.report, device: options.device,
            corpus: RunReport.Corpus(
                files: stats.files, lines: stats.lines, threads: stats.threads, threadsReplayed: state.corpus.threadsReplayed,
                messages: stats.messages, badLines: stats.badLines, unknownTypes: kinds(stats.unknownTypes),
                unknownNodes: kinds(stats.unknownNodes), compressedBytes: stats.compressedBytes, bytes: stats.decompressedBytes,
                errors: state.corpus.errors.map { Prose($0.message) },
                badLineSamples: state.corpus.badLineSamples.map {
                    RunReport.Corpus.BadLine(file: ResultPath($0.file), line: $0.line, reason: Prose(ReportLabel.reason($0.reason)))
                }),
            jobs: ResultMap(jobs.map { ($0.kind, job($0)) }))
    }

    private func job(_ job: any Job) -> RunReport.Job {
        let ledger = state.ledgers[job.kind] ?? JobLedger()
        let sizes = state.sizing[job.kind].map { sizing in
            RunReport.PromptSizes(p50Tokens: sizing.promptTokens.percentile(0.5), p95Tokens: sizing.promptTokens.percentile(0.95),
                                  maxTokens: sizing.maxPromptTokens,
                                  devicePrefillP50: sizing.devicePrefillMilliseconds.percentile(0.5),
                                  devicePrefillP95: sizing.devicePrefillMilliseconds.percentile(0.95),
                                  overContext: sizing.overContext, overBudgetBeforeOutput: sizing.overBudgetBeforeOutput)
        }
        // The job describes its own configuration: no job is named here.
        return RunReport.Job(settings: job.described.reportSettings, overall: metrics(ledger.overall, job: job.kind), promptSizes: sizes,
                             byBuild: slices(ledger.byBuild, job: job.kind) { BuildLabel(ReportLabel(build: $0, listed: options.labels).text) },
                             byModel: slices(ledger.byModel, job: job.kind) { ModelLabel(ReportLabel(model: $0, listed: options.labels).text) },
                             byLocale: slices(ledger.byLocale, job: job.kind) { LocaleLabel(ReportLabel(locale: $0).text) },
                             byBuildModel: cells(ledger, job: job.kind))
    }

    /// A job's metrics by build × model version: the builds `by_build` shows (cells of the builds
    /// beyond the cap merged into "(other)"), and within each build its model versions, capped as
    /// `by_model` is, by places scanned in that build. Exact: every count and histogram merges.
    private func cells(_ ledger: JobLedger, job: JobKind) -> ResultMap<BuildLabel, ResultMap<ModelLabel, RunReport.Metrics>> {
        var byLabel: [String: [String: JobMetrics]] = [:]
        for (build, models) in ledger.byBuildModel {
            let buildLabel = ReportLabel(build: build, listed: options.labels).text
            for (model, metrics) in models.wrappedValue {
                byLabel[buildLabel, default: [:]][ReportLabel(model: model, listed: options.labels).text, default: JobMetrics()].merge(metrics)
            }
        }
        let builds = Self.capped(byLabel, weight: { $0.values.reduce(0) { $0 + $1.scanned } }) { merged, more in
            for (model, metrics) in more { merged[model, default: JobMetrics()].merge(metrics) }
        }
        return ResultMap(builds.map { build, models in
            (BuildLabel(build), ResultMap(Self.capped(models, weight: \.scanned) { $0.merge($1) }.map { (ModelLabel($0.0), metrics($0.1, job: job)) }))
        })
    }

    /// A job's metrics by build, model version or locale, keyed by label: values whose labels coincide
    /// (two spellings of "unknown") are added together, then the slices beyond the cap, by
    /// places scanned, are added into "(other)". Exact: every count and histogram merges.
    private func slices<Label: ResultStringRuleName>(_ byValue: [String: JobMetrics], job: JobKind,
                                                     label: (String) -> Judged<Label>) -> ResultMap<Judged<Label>, RunReport.Metrics> {
        var byLabel: [String: JobMetrics] = [:]
        for (value, metrics) in byValue { byLabel[label(value).text, default: JobMetrics()].merge(metrics) }
        return ResultMap(Self.capped(byLabel, weight: \.scanned) { $0.merge($1) }.map { (Judged($0.0), metrics($0.1, job: job)) })
    }

    /// Counts by unknown line type or node kind, through the kind rule and capped.
    private func kinds(_ counts: [String: Int]) -> ResultMap<KindLabel, Int> {
        var byLabel: [String: Int] = [:]
        for (name, n) in counts { byLabel[ReportLabel(kind: name, listed: options.labels).text, default: 0] += n }
        return ResultMap(Self.capped(byLabel, weight: { $0 }, merge: { $0 += $1 }).map { (KindLabel($0.0), $0.1) })
    }

    /// A job's counters. Their names are the jobs' own tokens, except routing's
    /// `confusion:<actual>-><guessed>`, which holds member names: each name goes through the
    /// name rule again (the job already applies it; this keeps the report safe on its own), and
    /// the pairs beyond the cap are added into `confusion:(other)`; the drawer's
    /// `drawer:confusion:<agent>-><picked>` likewise, into `drawer:confusion:(other)`.
    func counters(_ counters: [String: Int]) -> ResultMap<CounterName, Int> {
        let prefixes = ["confusion:", RouteJob.drawerConfusion]
        var plain: [String: Int] = [:]
        var confusion: [String: [String: Int]] = [:]
        for (key, n) in RunState.labelledCounters(counters, listed: options.labels) {
            if let prefix = prefixes.first(where: key.hasPrefix) {
                confusion[prefix, default: [:]][String(key.dropFirst(prefix.count)), default: 0] += n
            } else {
                plain[key, default: 0] += n
            }
        }
        for (prefix, pairs) in confusion {
            for (pair, n) in Self.capped(pairs, weight: { $0 }, merge: { $0 += $1 }) { plain[prefix + pair, default: 0] += n }
        }
        return ResultMap(plain.sorted { $0.key < $1.key }.map { (CounterName($0.key), $0.value) })
    }

    /// `values` in display order with at most `ReportLabel.maximumDistinct` labels (by `weight`)
    /// and the rest merged into a last "(other)".
    static func capped<Value>(_ values: [String: Value], weight: (Value) -> Int,
                              merge: (inout Value, Value) -> Void) -> [(String, Value)] {
        let shown = ReportLabel.shown(values.mapValues(weight), order: ReportLabel.precedes)
        var kept: [(String, Value)] = []
        var other: Value? = values[ReportLabel.other.text]
        for (label, value) in values where label != ReportLabel.other.text {
            if shown.contains(label) {
                kept.append((label, value))
            } else if other == nil {
                other = value
            } else {
                merge(&other!, value)
            }
        }
        kept.sort { ReportLabel.precedes($0.0, $1.0) }
        return kept + (other.map { [(ReportLabel.other.text, $0)] } ?? [])
    }

    /// Quality measures by name: how many places each compared and its mean.
    private func quality(_ tallies: [String: QualityTally]) -> ResultMap<QualityName, RunReport.Metrics.Quality> {
        ResultMap(tallies.sorted { $0.key < $1.key }.map { (QualityName($0.key), RunReport.Metrics.Quality(compared: $0.value.count, mean: $0.value.mean)) })
    }

    /// The keys every job and every build, model or locale slice of it carries, and the blocks
    /// the job's description asks for: the drawer's places (routing), the next run (push in
    /// next-run mode).
    func metrics(_ m: JobMetrics, job: JobKind) -> RunReport.Metrics {
        // A dry run asks nothing: its rates would be 0 for want of answers, so they are null.
        func measured(_ rate: Double?) -> Double? { options.dryRun ? nil : rate }
        let described = jobs.first { $0.kind == job }?.described
        var drawer: RunReport.Metrics.Drawer? = nil
        if described?.countedPlaces.contains(.drawer) == true {
            func count(_ name: String) -> Int { m.counters[CountedPlace.drawer.rawValue + ":" + name] ?? 0 }
            let eligible = count("eligible"), answered = count("answered")
            drawer = .init(scanned: m.counters[JobCounter.drawerScanned.rawValue] ?? 0, eligible: eligible, asked: count("asked"),
                           answered: answered, answeredRate: measured(JobMetrics.rate(answered, of: eligible)),
                           inBudget: .init(host: measured(JobMetrics.rate(count("in_budget_host"), of: eligible)),
                                           device: measured(JobMetrics.rate(answered, of: eligible))))
        }
        var nextRun: RunReport.Metrics.NextRun? = nil
        if described?.settings.pushMode == .nextRun {
            let followed = m.nextRunDelay.count, never = m.fallbacks[.noNextRun] ?? 0
            nextRun = .init(followed: followed, neverWritten: never, coverage: JobMetrics.rate(followed, of: followed + never),
                            delaySeconds: .init(p50: m.nextRunDelay.percentile(0.5), p95: m.nextRunDelay.percentile(0.95),
                                                mean: followed == 0 ? nil : m.nextRunDelay.sum / Double(followed)))
        }
        return RunReport.Metrics(
            scanned: m.scanned, eligible: m.eligible, asked: m.asked, answered: m.answered, answeredRate: measured(m.answeredRate),
            fallbacks: ResultMap(m.fallbacks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
            inBudget: .init(host: measured(m.inBudgetHostRate), device: measured(m.inBudgetDeviceRate), queued: measured(m.inBudgetQueuedRate)),
            latencyMilliseconds: .init(p50: m.hostLatency.percentile(0.5), p95: m.hostLatency.percentile(0.95),
                                       deviceP50: m.deviceLatency.percentile(0.5), deviceP95: m.deviceLatency.percentile(0.95),
                                       queuedP50: m.queuedLatency.percentile(0.5), queuedP95: m.queuedLatency.percentile(0.95)),
            tokens: .init(in: m.tokensIn, out: m.tokensOut, inputsCut: m.inputCut),
            quality: quality(m.quality), qualityAllAnswers: quality(m.qualityAllAnswers), counters: counters(m.counters),
            violations: ResultMap(NeverRule.rules(of: job).map { ($0, m.counters[$0.counter] ?? 0) }),
            drawer: drawer, nextRun: nextRun)
    }
}

/// The model a run used, as the report names it: file, size and digest, never anything it wrote.
public struct ModelDescription: Sendable {
    public var info: ModelInfo
    public var fileBytes: Int
    public var sha256: String?
    /// The model id a Chat Completions server was asked for (`--endpoint-model`), when one was.
    public var endpointModel: String?

    public init(info: ModelInfo, fileBytes: Int, sha256: String?, endpointModel: String? = nil) {
        self.info = info
        self.fileBytes = fileBytes
        self.sha256 = sha256
        self.endpointModel = endpointModel
    }

    /// The report's `model` block.
    package var report: ModelReport {
        ModelReport(name: ModelText(info.name), description: ModelText(info.description), file: ResultPath(info.path), fileBytes: fileBytes,
                    sha256: sha256.map { SHA256Hex($0) }, parameters: Int(info.parameters), contextPerSequence: info.contextPerSequence,
                    batchSize: info.batchSize, endpointModel: endpointModel.map { TokenLabel(ReportLabel(token: $0).text) })
    }
}
