import Confinement
import Engine
import Jobs
import Privacy

/// report.json (schema `replay.report/1`, docs/report-schema.md): what a run counted, as the
/// one type its writer encodes and the auditor decodes.
///
/// Every value is a count, a rate, a timing, a size, a hash or a fixed word; labels from the
/// corpus (builds, model versions, locales, unknown kinds, member names in routing's counters,
/// ids in bad line reasons) enter through their `ReportLabel` rules, capped at
/// `ReportLabel.maximumDistinct` per dimension (`init(state:)`).
public struct RunReport: ResultDocument, Equatable {
    public static let schema = "replay.report/1"
    public static func isFileName(_ name: String) -> Bool { name == "report.json" }

    public var schema = SchemaName<RunReport>()
    public var tool: ToolStamp
    public var run: Run
    public var shard: Shard
    public var sandbox: SandboxReport?
    public var audit: AuditCounts?
    public var model: ModelReport?
    public var device: DeviceProfile
    public var corpus: Corpus
    public var jobs: ResultMap<JobKind, Job>

    public struct Run: Codable, Sendable, Equatable {
        public var mode: Mode
        public var jobs: [JobKind]
        public var started: UTCTimestamp
        public var seconds: Double
        public var threadLimit: Int?
        public var stoppedAtLimit: Bool
        public var strict: Bool
        public var batchSize: Int
        public var modelUnavailable: Prose?
        public var tokenSizes: TokenSizes
        public var prompts: PromptSetIdentity
        public var profiles: AppliedProfiles
        public var injectFallbacks: FallbackInjection?

        enum CodingKeys: String, CodingKey {
            case mode, jobs, started, seconds
            case threadLimit = "thread_limit"
            case stoppedAtLimit = "stopped_at_limit"
            case strict
            case batchSize = "batch_size"
            case modelUnavailable = "model_unavailable"
            case tokenSizes = "token_sizes"
            case prompts, profiles
            case injectFallbacks = "inject_fallbacks"
        }
    }

    /// A run's mode: it asked the model, or only planned (`--dry-run`).
    public enum Mode: String, Codable, Sendable {
        case replay
        case dryRun = "dry-run"
    }

    /// How prompt and output sizes were counted: in the phone's tokens, by each model version's
    /// estimate (`run.profiles`), as every run since the estimate counts them; the two older
    /// ways (the stand-in's tokenizer, or UTF-8 bytes without one) are read in older reports.
    public enum TokenSizes: String, Codable, Sendable {
        case phone = "phone tokens, estimated per model version (run.profiles)"
        case model = "model tokenizer"
        case estimated = "estimated from UTF-8 bytes (no tokenizer)"
    }

    /// Which part of the corpus the report covers: one shard (`index`), or several merged.
    public struct Shard: Codable, Sendable, Equatable {
        public var index: Int?
        public var count: Int
        public var by: ShardBy
        public var shards: [Int]
        public var threadsRead: Int
        public var threadsSkipped: Int
        public var unsandboxedShards: [Int]

        enum CodingKeys: String, CodingKey {
            case index, count, by, shards
            case threadsRead = "threads_read"
            case threadsSkipped = "threads_skipped"
            case unsandboxedShards = "unsandboxed_shards"
        }
    }

    public struct Corpus: Codable, Sendable, Equatable {
        public var files: Int
        public var lines: Int
        public var threads: Int
        public var threadsReplayed: Int
        public var messages: Int
        public var badLines: Int
        public var unknownTypes: ResultMap<KindLabel, Int>
        public var unknownNodes: ResultMap<KindLabel, Int>
        public var compressedBytes: Int
        public var bytes: Int
        public var errors: [Prose]
        public var badLineSamples: [BadLine]

        public struct BadLine: Codable, Sendable, Equatable {
            public var file: ResultPath
            public var line: Int
            public var reason: Prose
        }

        enum CodingKeys: String, CodingKey {
            case files, lines, threads
            case threadsReplayed = "threads_replayed"
            case messages
            case badLines = "bad_lines"
            case unknownTypes = "unknown_types"
            case unknownNodes = "unknown_nodes"
            case compressedBytes = "compressed_bytes"
            case bytes, errors
            case badLineSamples = "bad_line_samples"
        }
    }

    /// A job's block: its settings, its metrics over the whole corpus, its prompts' sizes (a run
    /// that asked), and the same metrics by build, model version and locale, and by the cell a
    /// release is decided on, build × model version (`by_build_model`: `{build: {model: metrics}}`),
    /// in one object.
    public struct Job: Codable, Sendable, Equatable {
        public var settings: JobSettings
        public var overall: Metrics
        public var promptSizes: PromptSizes?
        public var byBuild: ResultMap<BuildLabel, Metrics>
        public var byModel: ResultMap<ModelLabel, Metrics>
        public var byLocale: ResultMap<LocaleLabel, Metrics>
        /// Each build's model versions: the metrics of every (build, model version) cell.
        public var byBuildModel: ResultMap<BuildLabel, ResultMap<ModelLabel, Metrics>>

        enum CodingKeys: String, CodingKey {
            case promptSizes = "prompt_sizes"
            case byBuild = "by_build"
            case byModel = "by_model"
            case byLocale = "by_locale"
            case byBuildModel = "by_build_model"
        }

        public init(settings: JobSettings, overall: Metrics, promptSizes: PromptSizes?, byBuild: ResultMap<BuildLabel, Metrics>,
                    byModel: ResultMap<ModelLabel, Metrics>, byLocale: ResultMap<LocaleLabel, Metrics>,
                    byBuildModel: ResultMap<BuildLabel, ResultMap<ModelLabel, Metrics>>) {
            self.settings = settings
            self.overall = overall
            self.promptSizes = promptSizes
            self.byBuild = byBuild
            self.byModel = byModel
            self.byLocale = byLocale
            self.byBuildModel = byBuildModel
        }

        public init(from decoder: any Decoder) throws {
            settings = try JobSettings(from: decoder)
            overall = try Metrics(from: decoder)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            promptSizes = c.contains(.promptSizes) ? try c.decode(PromptSizes.self, forKey: .promptSizes) : nil
            byBuild = try c.decode(ResultMap<BuildLabel, Metrics>.self, forKey: .byBuild)
            byModel = try c.decode(ResultMap<ModelLabel, Metrics>.self, forKey: .byModel)
            byLocale = try c.decode(ResultMap<LocaleLabel, Metrics>.self, forKey: .byLocale)
            byBuildModel = try c.decode(ResultMap<BuildLabel, ResultMap<ModelLabel, Metrics>>.self, forKey: .byBuildModel)
        }

        public func encode(to encoder: any Encoder) throws {
            try settings.encode(to: encoder)
            try overall.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            if let promptSizes { try c.encode(promptSizes, forKey: .promptSizes) }
            try c.encode(byBuild, forKey: .byBuild)
            try c.encode(byModel, forKey: .byModel)
            try c.encode(byLocale, forKey: .byLocale)
            try c.encode(byBuildModel, forKey: .byBuildModel)
        }
    }

    /// The keys every job and each of its build, model and locale slices carries. A dry run asks
    /// nothing: its rates are null, not 0 for want of answers.
    public struct Metrics: Codable, Sendable, Equatable {
        public var scanned: Int
        public var eligible: Int
        public var asked: Int
        public var answered: Int
        public var answeredRate: Double?
        public var fallbacks: ResultMap<FallbackReason, Int>
        public var inBudget: InBudget
        public var latencyMilliseconds: Latency
        public var tokens: Tokens
        public var quality: ResultMap<QualityName, Quality>
        public var qualityAllAnswers: ResultMap<QualityName, Quality>
        public var counters: ResultMap<CounterName, Int>
        /// Every never rule of the job, zeros too: a rule nothing broke says so.
        public var violations: ResultMap<NeverRule, Int>
        /// Routing only: the drawer's places, apart from the groups' (spec §3).
        @OmittedWhenNil public var drawer: Drawer?
        /// Push in next-run mode only: the pushes the app ran after, and how long after.
        @OmittedWhenNil public var nextRun: NextRun?

        /// Routing's drawer places (`CountedPlace.drawer`), counted as the job's own are:
        /// `scanned` first messages of one-agent threads the person started, `eligible` those
        /// judged (no `@Name`, the thread's agent among those offered), `asked`, `answered` (a
        /// valid answer within the budget on the device), and the rates over `eligible`. The
        /// drawer's accuracy is `quality.drawer_accuracy`.
        public struct Drawer: Codable, Sendable, Equatable {
            public var scanned: Int
            public var eligible: Int
            public var asked: Int
            public var answered: Int
            public var answeredRate: Double?
            public var inBudget: InBudget

            enum CodingKeys: String, CodingKey {
                case scanned, eligible, asked, answered
                case answeredRate = "answered_rate"
                case inBudget = "in_budget"
            }
        }

        /// Push lines written at the next app run (`PushMode.nextRun`): `followed`, the eligible
        /// pushes the person sent a message after (in any thread), whose line is written then;
        /// `never_written`, those with none after (`fallbacks.no_next_run`); `coverage`, the
        /// share followed; `delay_s`, seconds from a push to its next run, over those followed.
        /// Known before the model is asked, so a dry run has them too.
        public struct NextRun: Codable, Sendable, Equatable {
            public var followed: Int
            public var neverWritten: Int
            public var coverage: Double?
            public var delaySeconds: Delay

            /// Percentiles from the same logarithmic buckets as latencies (within 1%), and the exact mean.
            public struct Delay: Codable, Sendable, Equatable {
                public var p50: Double?
                public var p95: Double?
                public var mean: Double?
            }

            enum CodingKeys: String, CodingKey {
                case followed
                case neverWritten = "never_written"
                case coverage
                case delaySeconds = "delay_s"
            }
        }

        public struct InBudget: Codable, Sendable, Equatable {
            public var host: Double?
            public var device: Double?
            /// As the phone's one queue would see it: waits for earlier calls and cold starts
            /// included (`PhoneQueue`; `device` is as requested, each call alone and warm).
            public var queued: Double? = nil
        }

        public struct Latency: Codable, Sendable, Equatable {
            public var p50: Double?
            public var p95: Double?
            public var deviceP50: Double?
            public var deviceP95: Double?
            /// From firing to answer in the phone's queue (`in_budget.queued`'s clock).
            public var queuedP50: Double?
            public var queuedP95: Double?

            enum CodingKeys: String, CodingKey {
                case p50, p95
                case deviceP50 = "device_p50"
                case deviceP95 = "device_p95"
                case queuedP50 = "queued_p50"
                case queuedP95 = "queued_p95"
            }
        }

        public struct Tokens: Codable, Sendable, Equatable {
            public var `in`: Int
            public var out: Int
            public var inputsCut: Int

            enum CodingKeys: String, CodingKey {
                case `in`, out
                case inputsCut = "inputs_cut"
            }
        }

        /// How many places a measure compared, and its mean.
        public struct Quality: Codable, Sendable, Equatable {
            public var compared: Int
            public var mean: Double?
        }

        enum CodingKeys: String, CodingKey {
            case scanned, eligible, asked, answered
            case answeredRate = "answered_rate"
            case fallbacks
            case inBudget = "in_budget"
            case latencyMilliseconds = "latency_ms"
            case tokens, quality
            case qualityAllAnswers = "quality_all_answers"
            case counters, violations, drawer
            case nextRun = "next_run"
        }
    }

    /// How large the prompts were, in the phone's tokens, and what the device would take to read them.
    public struct PromptSizes: Codable, Sendable, Equatable {
        public var p50Tokens: Double?
        public var p95Tokens: Double?
        public var maxTokens: Int
        public var devicePrefillP50: Double?
        public var devicePrefillP95: Double?
        public var overContext: Int
        public var overBudgetBeforeOutput: Int

        enum CodingKeys: String, CodingKey {
            case p50Tokens = "p50_tokens"
            case p95Tokens = "p95_tokens"
            case maxTokens = "max_tokens"
            case devicePrefillP50 = "device_prefill_ms_p50"
            case devicePrefillP95 = "device_prefill_ms_p95"
            case overContext = "over_context"
            case overBudgetBeforeOutput = "over_budget_before_output"
        }
    }
}
