import Engine
import Export
import Flywheel
import Jobs
import Privacy

/// state.json and checkpoints: a `RunState` written down, and read back to the same value.
///
/// The layout is documented in docs/report-schema.md (`replay.state/1`). Numbers are written
/// exactly (`exactJSON`); the last key is `"complete": true`, so a file cut short by a crash never
/// reads as a state. Reading puts every corpus label through its `ReportLabel` rule again
/// (idempotent on what a run wrote), so a state file edited by hand cannot carry a sentence into a
/// merged report.
extension RunState {
    /// The state as JSON, ending with `"complete": true`.
    public func stateJSON() -> String { stateValue.exactJSON() }

    public var stateValue: ReportValue {
        let checkpointValue: ReportValue = checkpoint.map {
            .object([("sequence", .int($0.sequence)), ("events_read", .int($0.eventsRead)),
                     ("item_segments", .array($0.segments.map { segment in
                         .object([("sequence", .int(segment.sequence)), ("count", .int(segment.count)), ("sha256", .label(segment.sha256))])
                     }))])
        } ?? .null
        let files: [ReportValue] = corpusIdentity.files.map { file in
            .object([("path", .label(file.path)), ("bytes", file.bytes.map { .int($0) } ?? .null),
                     ("hmac_sha256", file.digest.map { .label($0) } ?? .null), ("hashed", .label(file.hashed.rawValue))])
        }
        let modelValue: ReportValue = .object([
            ("path", model.path.map { .label($0) } ?? .null),
            ("bytes", model.bytes.map { .int($0) } ?? .null),
            ("sha256", model.sha256.map { .label($0) } ?? .null),
            ("hashed", .label(model.hashed.rawValue)),
            ("unavailable", model.unavailable.map { .label($0) } ?? .null),
            ("approximate_tokens", .bool(model.approximateTokens)),
            ("description", model.description),
        ])
        let shardValue: ReportValue = .object([
            ("count", .int(shard.count)),
            ("by", .label(shard.by.rawValue)),
            ("indexes", .array(shard.indexes.map { .int($0) })),
            ("threads_seen", .int(shard.threadsSeen)),
            ("threads_skipped", .int(threadsSkipped)),
            ("unsandboxed", .array(shard.unsandboxed.map { .int($0) })),
        ])
        let jobs: [(String, ReportValue)] = options.jobs.map { kind in
            let ledger: ReportValue = (ledgers[kind] ?? JobLedger()).stateValue
            let sizes: ReportValue = sizing[kind].map(\.stateValue) ?? .null
            return (kind.rawValue, .object([("ledger", ledger), ("prompt_sizes", sizes)]))
        }
        let fields: [(String, ReportValue)] = [
            ("schema", .label(Self.schema)),
            ("tool", .object([("name", .label("replay")), ("version", .label(toolVersion))])),
            ("checkpoint", checkpointValue),
            ("options", options.stateValue),
            ("corpus_identity", .object([("files", .array(files)),
                                         ("run_key_check", corpusIdentity.runKeyCheck.map { .label($0) } ?? .null)])),
            ("model", modelValue),
            ("shard", shardValue),
            ("run", .object([("started", .label(timing.started)), ("seconds", .number(timing.seconds))])),
            ("sandbox", sandbox),
            ("audit", audit),
            ("corpus", corpus.stateValue),
            ("jobs", .object(jobs)),
            ("flywheel", flywheel.map(\.stateValue) ?? .null),
            ("complete", .bool(true)),
        ]
        return .object(fields)
    }

    /// Reads a state file's text; an error says what is wrong, never quoting the file. `labels`
    /// is the team's list the reader holds (`--labels`): the state's labels are put through their
    /// rules again with it when the state names the same list; a state written with another list
    /// is read with a list known by its digest only (`TeamLabels.matching`), which keeps no name,
    /// and its options then differ in `--labels`.
    public init(stateJSON text: String, labels: TeamLabels = .none) throws(StateFormatError) {
        try self.init(state: ReportValue(parsingExactJSON: text), labels: labels)
    }

    public init(state: ReportValue, labels: TeamLabels = .none) throws(StateFormatError) {
        guard state["complete"] == .bool(true) else { throw StateFormatError("it is incomplete (no \"complete\": true at its end)") }
        guard try state.string("schema") == Self.schema else { throw StateFormatError("its schema is not \(Self.schema)") }
        let options = try StateOptions(state: state.required("options"), labels: labels)
        var files: [CorpusIdentity.File] = []
        let identity = try state.required("corpus_identity")
        for file in try identity.array("files") {
            files.append(CorpusIdentity.File(path: try file.string("path"), bytes: try file.optionalInt("bytes"),
                                             digest: try file.optionalString("hmac_sha256"), hashed: try Self.hashed(file.string("hashed"))))
        }
        let runKeyCheck = identity["run_key_check"] == nil ? nil : try identity.optionalString("run_key_check")
        let model = try state.required("model")
        let shard = try state.required("shard")
        guard let by = ShardBy(rawValue: try shard.string("by")) else { throw StateFormatError("unknown shard 'by'") }
        let indexes = try shard.array("indexes").map { (value: ReportValue) throws(StateFormatError) -> Int in try value.asInt() }
        let count = try shard.int("count")
        guard count >= 1, !indexes.isEmpty, indexes.allSatisfy({ (0..<count).contains($0) }), Set(indexes).count == indexes.count else {
            throw StateFormatError("its shard indexes are not within its shard count")
        }
        var ledgers: [JobKind: JobLedger] = [:]
        var sizing: [JobKind: PromptSizing] = [:]
        for (name, job) in try state.object("jobs") {
            guard let kind = JobKind(rawValue: name) else { throw StateFormatError("unknown job") }
            ledgers[kind] = Self.labelled(try JobLedger(state: job.required("ledger")), listed: options.labels)
            let sizes = try job.required("prompt_sizes")
            if sizes != .null { sizing[kind] = try PromptSizing(state: sizes) }
        }
        let checkpoint = try state.required("checkpoint")
        let flywheel = try state.required("flywheel")
        let run = try state.required("run")
        self.init(
            toolVersion: try state.required("tool").string("version"),
            options: options,
            corpusIdentity: CorpusIdentity(files: files, runKeyCheck: runKeyCheck),
            model: ModelIdentity(path: try model.optionalString("path"), bytes: try model.optionalInt("bytes"),
                                 sha256: try model.optionalString("sha256"), hashed: try Self.hashed(model.string("hashed")),
                                 unavailable: try model.optionalString("unavailable"),
                                 approximateTokens: try model.bool("approximate_tokens"), description: try model.required("description")),
            shard: ShardFacts(count: count, by: by, indexes: indexes.sorted(), threadsSeen: try shard.int("threads_seen"),
                              unsandboxed: try shard.array("unsandboxed").map { (value: ReportValue) throws(StateFormatError) -> Int in try value.asInt() }.sorted()),
            corpus: try CorpusCounts(state: state.required("corpus"), listed: options.labels),
            ledgers: ledgers, sizing: sizing,
            flywheel: flywheel == .null ? nil : try FlywheelCounter(state: flywheel, listed: options.labels),
            timing: Timing(started: try run.string("started"), seconds: try run.double("seconds")),
            sandbox: try state.required("sandbox"), audit: try state.required("audit"),
            checkpoint: checkpoint == .null ? nil : Checkpoint(
                sequence: try checkpoint.int("sequence"), eventsRead: try checkpoint.int("events_read"),
                segments: try checkpoint.array("item_segments").map { (segment: ReportValue) throws(StateFormatError) -> ItemSegment in
                    ItemSegment(sequence: try segment.int("sequence"), count: try segment.int("count"), sha256: try segment.string("sha256"))
                }))
    }
}

extension RunState {
    static func hashed(_ text: String) throws(StateFormatError) -> CorpusIdentity.Hashed {
        guard let hashed = CorpusIdentity.Hashed(rawValue: text) else { throw StateFormatError("unknown 'hashed'") }
        return hashed
    }
}

extension StateOptions {
    var stateValue: ReportValue {
        .object([
            ("jobs", .array(jobs.map { .label($0.rawValue) })),
            ("budgets_ms", .object(jobs.map { ($0.rawValue, .number(budgets[$0] ?? 0)) })),
            ("device", .object([
                ("profile", .label(device.name)),
                ("prefill_ms_per_token", .number(device.prefillMillisecondsPerToken)),
                ("decode_tokens_per_s", .number(device.decodeTokensPerSecond)),
                ("source", .label(device.source)),
            ])),
            ("thread_limit", threadLimit.map { .int($0) } ?? .null),
            ("strict", .bool(strict)),
            ("dry_run", .bool(dryRun)),
            ("flywheel", .bool(flywheel)),
            ("batch_size", .int(batchSize)),
            ("labels", labels.digest.map { .label($0) } ?? .null),
            ("prompts", .object([("name", .label(prompts.name)), ("sha256", .label(prompts.sha256))])),
        ])
    }

    init(state: ReportValue, labels: TeamLabels) throws(StateFormatError) {
        var jobs: [JobKind] = []
        for name in try state.array("jobs") {
            guard let kind = JobKind(rawValue: try name.asString()) else { throw StateFormatError("unknown job") }
            jobs.append(kind)
        }
        var budgets: [JobKind: Double] = [:]
        for (name, value) in try state.object("budgets_ms") {
            guard let kind = JobKind(rawValue: name), let ms = value.doubleValue else { throw StateFormatError("a budget is not a job's number") }
            budgets[kind] = ms
        }
        let device = try state.required("device")
        self.init(jobs: jobs, budgets: budgets,
                  device: DeviceProfile(name: try device.string("profile"), prefillMillisecondsPerToken: try device.double("prefill_ms_per_token"),
                                        decodeTokensPerSecond: try device.double("decode_tokens_per_s"), source: try device.string("source")),
                  threadLimit: try state.optionalInt("thread_limit"), strict: try state.bool("strict"), dryRun: try state.bool("dry_run"),
                  flywheel: try state.bool("flywheel"), batchSize: try state.int("batch_size"),
                  labels: labels.matching(try Self.labelsDigest(state)), prompts: try Self.prompts(state))
    }

    /// The prompt set a state was written with: its name (a token) and SHA-256; the built-in set
    /// in a state written before prompt sets existed, which asked with its words.
    static func prompts(_ state: ReportValue) throws(StateFormatError) -> PromptSetIdentity {
        guard let value = state["prompts"] else { return PromptSet.builtIn.identity }
        let name = try value.string("name")
        let digest = try value.string("sha256")
        guard ReportLabel(token: name, salt: LabelSalt(bytes: [])).text == name, Self.isDigest(digest) else {
            throw StateFormatError("'prompts' is not a prompt set's name and SHA-256")
        }
        return PromptSetIdentity(name: name, sha256: digest)
    }

    /// Whether `text` is 64 lowercase hex digits.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The digest of the list a state was written with: null, or absent in a state written
    /// before `--labels` existed, for none; else 64 hex digits.
    static func labelsDigest(_ state: ReportValue) throws(StateFormatError) -> String? {
        guard let value = state["labels"], value != .null else { return nil }
        guard case .label(let digest) = value, isDigest(digest) else {
            throw StateFormatError("'labels' is not the SHA-256 of a labels list")
        }
        return digest
    }
}

extension CorpusCounts {
    var stateValue: ReportValue {
        func counts(_ dictionary: [String: Int]) -> ReportValue {
            .object(dictionary.sorted { ReportLabel.precedes($0.key, $1.key) }.map { ($0.key, .int($0.value)) })
        }
        return .object([
            ("files", .int(stats.files)),
            ("lines", .int(stats.lines)),
            ("records", .int(stats.records)),
            ("threads", .int(stats.threads)),
            ("messages", .int(stats.messages)),
            ("bad_lines", .int(stats.badLines)),
            ("unknown_types", counts(stats.unknownTypes)),
            ("unknown_nodes", counts(stats.unknownNodes)),
            ("compressed_bytes", .int(stats.compressedBytes)),
            ("bytes", .int(stats.decompressedBytes)),
            ("threads_replayed", .int(threadsReplayed)),
            ("stopped_at_limit", .bool(stoppedAtLimit)),
            ("stopped_at_another_shards_bad_line", .bool(stoppedAtAnotherShardsBadLine)),
            ("errors", .array(errors.map { .object([("file_index", .int($0.fileIndex)), ("message", .label($0.message))]) })),
            ("bad_line_samples", .array(badLineSamples.map {
                .object([("file_index", .int($0.fileIndex)), ("file", .label($0.file)), ("line", .int($0.line)), ("reason", .label($0.reason))])
            })),
            ("fatal", fatal.map { .object([("file_index", .int($0.fileIndex)), ("line", .int($0.line)), ("message", .label($0.message))]) } ?? .null),
        ])
    }

    init(state: ReportValue, listed: TeamLabels) throws(StateFormatError) {
        var stats = CorpusStats()
        stats.files = try state.int("files")
        stats.lines = try state.int("lines")
        stats.records = try state.int("records")
        stats.threads = try state.int("threads")
        stats.messages = try state.int("messages")
        stats.badLines = try state.int("bad_lines")
        for (name, n) in try state.object("unknown_types") { stats.unknownTypes[ReportLabel(kind: name, listed: listed).text, default: 0] += try n.asInt() }
        for (name, n) in try state.object("unknown_nodes") { stats.unknownNodes[ReportLabel(kind: name, listed: listed).text, default: 0] += try n.asInt() }
        stats.compressedBytes = try state.int("compressed_bytes")
        stats.decompressedBytes = try state.int("bytes")
        let fatal = try state.required("fatal")
        self.init(
            stats: stats, threadsReplayed: try state.int("threads_replayed"), stoppedAtLimit: try state.bool("stopped_at_limit"),
            stoppedAtAnotherShardsBadLine: try state.bool("stopped_at_another_shards_bad_line"),
            errors: try state.array("errors").map { (note: ReportValue) throws(StateFormatError) -> FileNote in
                FileNote(fileIndex: try note.int("file_index"), message: try note.string("message"))
            },
            badLineSamples: try state.array("bad_line_samples").map { (note: ReportValue) throws(StateFormatError) -> BadLineNote in
                BadLineNote(fileIndex: try note.int("file_index"), file: try note.string("file"), line: try note.int("line"),
                            reason: ReportLabel.reason(try note.string("reason")))
            },
            fatal: fatal == .null ? nil : FatalNote(fileIndex: try fatal.int("file_index"), line: try fatal.int("line"), message: try fatal.string("message")))
    }
}

extension PromptSizing {
    var stateValue: ReportValue {
        .object([
            ("prompt_tokens", promptTokens.stateValue),
            ("device_prefill_ms", devicePrefillMilliseconds.stateValue),
            ("max_prompt_tokens", .int(maxPromptTokens)),
            ("over_context", .int(overContext)),
            ("over_budget_before_output", .int(overBudgetBeforeOutput)),
        ])
    }

    init(state: ReportValue) throws(StateFormatError) {
        self.init()
        promptTokens = try LogHistogram(state: state.required("prompt_tokens"))
        devicePrefillMilliseconds = try LogHistogram(state: state.required("device_prefill_ms"))
        maxPromptTokens = try state.int("max_prompt_tokens")
        overContext = try state.int("over_context")
        overBudgetBeforeOutput = try state.int("over_budget_before_output")
    }
}
