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

    public func build() -> ReportValue {
        .object([
            ("schema", .label(Self.schema)),
            ("tool", .object([("name", .label("replay")), ("version", .label(state.toolVersion))])),
            ("run", run),
            ("shard", shard),
            ("sandbox", Self.value(state.sandbox)),
            ("audit", Self.value(state.audit)),
            ("model", Self.value(state.model.report)),
            ("device", device),
            ("corpus", corpus),
            ("jobs", .object(jobs.map { job in (job.kind.rawValue, jobValue(job)) })),
        ])
    }

    package static func value<T: Encodable>(_ part: T) -> ReportValue { (try? ReportValueEncoder().encode(part)) ?? .null }

    private var run: ReportValue {
        .object([
            ("mode", .label(options.dryRun ? "dry-run" : "replay")),
            ("jobs", .array(jobs.map { .label($0.kind.rawValue) })),
            ("started", .label(state.timing.started)),
            ("seconds", .number(state.timing.seconds)),
            ("thread_limit", options.threadLimit.map { .int($0) } ?? .null),
            ("stopped_at_limit", .bool(state.corpus.stoppedAtLimit)),
            ("strict", .bool(options.strict)),
            ("batch_size", .int(options.batchSize)),
            ("model_unavailable", state.model.unavailable.map { .label($0) } ?? .null),
            ("token_sizes", .label(state.model.approximateTokens ? "estimated from UTF-8 bytes (no tokenizer)" : "model tokenizer")),
            ("prompts", .object([("name", .label(options.prompts.name)), ("sha256", .label(options.prompts.sha256))])),
            ("profiles", profiles),
            ("inject_fallbacks", options.injection.map { injection in
                .object([("rates", .object(FallbackInjection.Reason.allCases.map { ($0.rawValue, .number(injection.rate($0))) })),
                         ("seed", .int(Int(clamping: injection.seed)))])
            } ?? .null),
        ])
    }

    /// Each model version as the run judged it on its device: ceiling, languages, speed, source.
    private var profiles: ReportValue {
        let applied = options.profiles
        return .object([
            ("name", .label(applied.name)),
            ("sha256", .label(applied.sha256)),
            ("unknown_model", .label(applied.unknownModel)),
            ("versions", .array(applied.versions.map { version in
                .object([
                    ("name", .label(version.name)),
                    ("from", .label(version.from)),
                    ("below", version.below.map { .label($0) } ?? .null),
                    ("context_tokens", .int(version.contextTokens)),
                    ("languages", .array(version.languages.map { .label($0) })),
                    ("prefill_ms_per_token", .number(version.prefillMillisecondsPerToken)),
                    ("decode_tokens_per_s", .number(version.decodeTokensPerSecond)),
                    ("source", .label(version.source)),
                ])
            })),
        ])
    }

    /// Which part of the corpus the report covers: one shard (`index`), or several merged.
    private var shard: ReportValue {
        let facts = state.shard
        return .object([
            ("index", facts.indexes.count == 1 ? .int(facts.indexes[0]) : .null),
            ("count", .int(facts.count)),
            ("by", .label(facts.by.rawValue)),
            ("shards", .array(facts.indexes.map { .int($0) })),
            ("threads_read", .int(facts.threadsSeen)),
            ("threads_skipped", .int(state.threadsSkipped)),
            ("unsandboxed_shards", .array(facts.unsandboxed.map { .int($0) })),
        ])
    }

    private var device: ReportValue {
        .object([
            ("profile", .label(options.device.name)),
            ("prefill_ms_per_token", .number(options.device.prefillMillisecondsPerToken)),
            ("decode_tokens_per_s", .number(options.device.decodeTokensPerSecond)),
            ("source", .label(options.device.source)),
        ])
    }

    private var corpus: ReportValue {
        let stats = state.corpus.stats
        return .object([
            ("files", .int(stats.files)),
            ("lines", .int(stats.lines)),
            ("threads", .int(stats.threads)),
            ("threads_replayed", .int(state.corpus.threadsReplayed)),
            ("messages", .int(stats.messages)),
            ("bad_lines", .int(stats.badLines)),
            ("unknown_types", kinds(stats.unknownTypes)),
            ("unknown_nodes", kinds(stats.unknownNodes)),
            ("compressed_bytes", .int(stats.compressedBytes)),
            ("bytes", .int(stats.decompressedBytes)),
            ("errors", .array(state.corpus.errors.map { .label($0.message) })),
            ("bad_line_samples", .array(state.corpus.badLineSamples.map { bad in
                .object([("file", .label(bad.file)), ("line", .int(bad.line)), ("reason", .label(ReportLabel.reason(bad.reason)))])
            })),
        ])
    }

    private func counts(_ dictionary: [String: Int]) -> ReportValue {
        .object(dictionary.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })
    }

    private func jobValue(_ job: any Job) -> ReportValue {
        let ledger = state.ledgers[job.kind] ?? JobLedger()
        // The job describes its own configuration: no job is named here.
        var fields = job.described.reportFields
        fields += metrics(ledger.overall, job: job.kind)
        if let sizing = state.sizing[job.kind] {
            fields.append(("prompt_sizes", .object([
                ("p50_tokens", .number(sizing.promptTokens.percentile(0.5))),
                ("p95_tokens", .number(sizing.promptTokens.percentile(0.95))),
                ("max_tokens", .int(sizing.maxPromptTokens)),
                ("device_prefill_ms_p50", .number(sizing.devicePrefillMilliseconds.percentile(0.5))),
                ("device_prefill_ms_p95", .number(sizing.devicePrefillMilliseconds.percentile(0.95))),
                ("over_context", .int(sizing.overContext)),
                ("over_budget_before_output", .int(sizing.overBudgetBeforeOutput)),
            ])))
        }
        fields.append(("by_build", slices(ledger.byBuild, job: job.kind) { ReportLabel(build: $0, listed: options.labels) }))
        fields.append(("by_model", slices(ledger.byModel, job: job.kind) { ReportLabel(model: $0, listed: options.labels) }))
        fields.append(("by_locale", slices(ledger.byLocale, job: job.kind) { ReportLabel(locale: $0) }))
        return .object(fields)
    }

    /// A job's metrics by build, model version or locale, keyed by label: values whose labels coincide
    /// (two spellings of "unknown") are added together, then the slices beyond the cap, by
    /// places scanned, are added into "(other)". Exact: every count and histogram merges.
    private func slices(_ byValue: [String: JobMetrics], job: JobKind, label: (String) -> ReportLabel) -> ReportValue {
        var byLabel: [String: JobMetrics] = [:]
        for (value, metrics) in byValue { byLabel[label(value).text, default: JobMetrics()].merge(metrics) }
        return .object(Self.capped(byLabel, weight: \.scanned) { $0.merge($1) }.map { ($0.0, .object(metrics($0.1, job: job))) })
    }

    /// Counts by unknown line type or node kind, through the kind rule and capped.
    private func kinds(_ counts: [String: Int]) -> ReportValue {
        var byLabel: [String: Int] = [:]
        for (name, n) in counts { byLabel[ReportLabel(kind: name, listed: options.labels).text, default: 0] += n }
        return .object(Self.capped(byLabel, weight: { $0 }, merge: { $0 += $1 }).map { ($0.0, .int($0.1)) })
    }

    /// A job's counters. Their names are the jobs' own tokens, except routing's
    /// `confusion:<actual>-><guessed>`, which holds member names: each name goes through the
    /// name rule again (the job already applies it; this keeps the report safe on its own), and
    /// the pairs beyond the cap are added into `confusion:(other)`.
    func counters(_ counters: [String: Int]) -> ReportValue {
        let prefix = "confusion:"
        var plain: [String: Int] = [:]
        var confusion: [String: Int] = [:]
        for (key, n) in RunState.labelledCounters(counters, listed: options.labels) {
            if key.hasPrefix(prefix) {
                confusion[String(key.dropFirst(prefix.count)), default: 0] += n
            } else {
                plain[key, default: 0] += n
            }
        }
        for (pair, n) in Self.capped(confusion, weight: { $0 }, merge: { $0 += $1 }) { plain[prefix + pair, default: 0] += n }
        return counts(plain)
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
    private func quality(_ tallies: [String: QualityTally]) -> ReportValue {
        .object(tallies.sorted { $0.key < $1.key }.map { name, tally in
            (name, .object([("compared", .int(tally.count)), ("mean", .number(tally.mean))]))
        })
    }

    /// The keys every job and every build, model or locale slice of it carries.
    func metrics(_ m: JobMetrics, job: JobKind) -> [(String, ReportValue)] {
        // A dry run asks nothing: its rates would be 0 for want of answers, so they are null.
        func measured(_ rate: Double?) -> ReportValue { options.dryRun ? .null : .number(rate) }
        return [
            ("scanned", .int(m.scanned)),
            ("eligible", .int(m.eligible)),
            ("asked", .int(m.asked)),
            ("answered", .int(m.answered)),
            ("answered_rate", measured(m.answeredRate)),
            ("fallbacks", .object(m.fallbacks.sorted { $0.key < $1.key }.map { ($0.key.rawValue, .int($0.value)) })),
            ("in_budget", .object([
                ("host", measured(m.inBudgetHostRate)),
                ("device", measured(m.inBudgetDeviceRate)),
            ])),
            ("latency_ms", .object([
                ("p50", .number(m.hostLatency.percentile(0.5))),
                ("p95", .number(m.hostLatency.percentile(0.95))),
                ("device_p50", .number(m.deviceLatency.percentile(0.5))),
                ("device_p95", .number(m.deviceLatency.percentile(0.95))),
            ])),
            ("tokens", .object([("in", .int(m.tokensIn)), ("out", .int(m.tokensOut)), ("inputs_cut", .int(m.inputCut))])),
            ("quality", quality(m.quality)),
            ("quality_all_answers", quality(m.qualityAllAnswers)),
            ("counters", counters(m.counters)),
            // Every never rule of the job, zeros too: a rule nothing broke says so.
            ("violations", .object(NeverRule.rules(of: job).map { ($0.rawValue, .int(m.counters[$0.counter] ?? 0)) })),
        ]
    }
}

/// The model a run used, as the report names it: file, size and digest, never anything it wrote.
public struct ModelDescription: Sendable {
    public var info: ModelInfo
    public var fileBytes: Int
    public var sha256: String?

    public init(info: ModelInfo, fileBytes: Int, sha256: String?) {
        self.info = info
        self.fileBytes = fileBytes
        self.sha256 = sha256
    }

    /// The report's `model` block.
    package var report: ModelReport {
        ModelReport(name: ModelText(info.name), description: ModelText(info.description), file: ResultPath(info.path), fileBytes: fileBytes,
                    sha256: sha256.map { SHA256Hex($0) }, parameters: Int(info.parameters), contextPerSequence: info.contextPerSequence,
                    batchSize: info.batchSize)
    }
}
