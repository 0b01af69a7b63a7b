import Engine
import Export
import Flywheel
import Jobs
import Confinement
import Privacy

/// state.json and checkpoints: a `RunState` written down, and read back to the same value,
/// through `ReportValueEncoder` and `ReportValueDecoder`.
///
/// The layout is documented in docs/report-schema.md (`replay.state/1`). Numbers are written
/// exactly (`exactJSON`); the last keys are `"complete": true`, so a file cut short by a crash
/// never reads as a state, and the state's digest under the run key (`StateDigest`), so a file
/// changed afterwards, or another run's, is refused by name. Reading puts every corpus label
/// through its `ReportLabel` rule again (idempotent on what a run wrote), so a state file edited by
/// hand cannot carry a sentence into a merged report.
extension RunState: ResultDocument {
    /// state.json, and each checkpoint (`checkpoint-000001.json`).
    public static func isFileName(_ name: String) -> Bool {
        name == OutputDirectory.stateFileName || OutputDirectory.checkpointSequence(of: name) != nil
    }

    /// The state as its file holds it: JSON ending with `"complete": true` and its digest under `key`.
    public func stateJSON(key: RunKey) -> String {
        StateDigest.seal(unsealedJSON(), key: key)
    }

    /// The state as JSON ending with `"complete": true`: the text its digest is taken over.
    func unsealedJSON() -> String {
        // Nothing in a state fails to encode: its integers are `Int`s, the rest strings and flags.
        try! ReportValueEncoder().encode(self).exactJSON()
    }

    /// Reads a state file's text written under `key`, checking its digest first; an error says
    /// what is wrong, never quoting the file. A state of another run key is told from a changed
    /// one by its `corpus_identity.run_key_check`. `labels` is the team's list the reader holds
    /// (`--labels`): the state's labels are put through their rules again with it when the state
    /// names the same list; a state written with another list is read with a list known by its
    /// digest only (`TeamLabels.matching`), which keeps no name, and its options then differ in
    /// `--labels`.
    public init(stateJSON text: String, key: RunKey, labels: TeamLabels = .none) throws(StateIntegrityError) {
        guard let (unsealed, digest) = StateDigest.split(text) else {
            do {
                _ = try RunState(unsealedJSON: text, labels: labels)
            } catch {
                throw .unreadable(error)
            }
            throw .carriesNoDigest
        }
        guard StateDigest.equal(digest, StateDigest.digest(of: unsealed, key: key)) else {
            let check = (try? ReportValue(parsingExactJSON: unsealed))?["corpus_identity"]?["run_key_check"]
            if let check, check != .label(key.check) { throw .madeUnderAnotherRunKey }
            throw .digestDoesNotMatch
        }
        do {
            self = try RunState(unsealedJSON: unsealed, labels: labels)
        } catch {
            throw .unreadable(error)
        }
    }

    /// Reads a state's text without a digest (what `unsealedJSON` writes, or a checked file's
    /// text without its digest); an error says what is wrong and where, never quoting the file.
    init(unsealedJSON text: String, labels: TeamLabels = .none) throws(StateFormatError) {
        self = try ReportValueDecoder(userInfo: [.teamLabels: labels], strict: true).decode(RunState.self, from: ReportValue(parsingExactJSON: text))
    }

    enum CodingKeys: String, CodingKey {
        case schema, tool, checkpoint, options
        case corpusIdentity = "corpus_identity"
        case model, shard, run, sandbox, audit, corpus, jobs, flywheel, complete
        /// The digest under the run key, after `complete` (`StateDigest.seal`): read off before a
        /// state is decoded, and only judged for its form when a file is decoded whole (the audit).
        case digest
    }

    enum IdentityKeys: String, CodingKey { case files, runKeyCheck = "run_key_check" }
    enum ShardKeys: String, CodingKey {
        case count, by, indexes
        case threadsSeen = "threads_seen"
        case threadsSkipped = "threads_skipped"
        case unsandboxed
    }
    enum JobKeys: String, CodingKey { case ledger, promptSizes = "prompt_sizes" }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schema, forKey: .schema)
        try container.encode(ToolStamp(version: toolVersion), forKey: .tool)
        try container.encode(checkpoint, forKey: .checkpoint)
        try container.encode(options, forKey: .options)
        var identity = container.nestedContainer(keyedBy: IdentityKeys.self, forKey: .corpusIdentity)
        try identity.encode(corpusIdentity.files, forKey: .files)
        try identity.encode(corpusIdentity.runKeyCheck, forKey: .runKeyCheck)
        try container.encode(model, forKey: .model)
        var shardBlock = container.nestedContainer(keyedBy: ShardKeys.self, forKey: .shard)
        try shardBlock.encode(shard.count, forKey: .count)
        try shardBlock.encode(shard.by, forKey: .by)
        try shardBlock.encode(shard.indexes, forKey: .indexes)
        try shardBlock.encode(shard.threadsSeen, forKey: .threadsSeen)
        try shardBlock.encode(threadsSkipped, forKey: .threadsSkipped)
        try shardBlock.encode(shard.unsandboxed, forKey: .unsandboxed)
        try container.encode(timing, forKey: .run)
        try container.encode(sandbox, forKey: .sandbox)
        try container.encode(audit, forKey: .audit)
        try container.encode(corpus, forKey: .corpus)
        var jobs = container.nestedContainer(keyedBy: ReportKey.self, forKey: .jobs)
        for kind in options.jobs {
            var job = jobs.nestedContainer(keyedBy: JobKeys.self, forKey: ReportKey(kind.rawValue))
            try job.encode(ledgers[kind] ?? JobLedger(), forKey: .ledger)
            try job.encode(sizing[kind], forKey: .promptSizes)
        }
        try container.encode(flywheel, forKey: .flywheel)
        try container.encode(true, forKey: .complete)
    }

    /// Reads a state; the team's list is `decoder.teamLabels`, and the labels of the counts are
    /// read with the list the options name (`StateOptions.labels`).
    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self),
              (try? container.decode(Bool.self, forKey: .complete)) == true else {
            throw StateFormatError("it is incomplete (no \"complete\": true at its end)")
        }
        guard try container.decode(String.self, forKey: .schema) == Self.schema else {
            throw StateFormatError("its schema is not \(Self.schema)")
        }
        let options = try container.decode(StateOptions.self, forKey: .options)
        if container.contains(.digest) { _ = try container.decode(StateDigestText.self, forKey: .digest) }
        /// A part whose labels are read with the options' list, not the reader's.
        func labelled<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T {
            var userInfo = decoder.userInfo
            userInfo[.teamLabels] = options.labels
            return try ReportValueDecoder(userInfo: userInfo, strict: true)
                .decode(T.self, from: container.decode(ReportValue.self, forKey: key), at: container.codingPath + [key])
        }
        let identity = try container.nestedContainer(keyedBy: IdentityKeys.self, forKey: .corpusIdentity)
        let shardBlock = try container.nestedContainer(keyedBy: ShardKeys.self, forKey: .shard)
        let count = try shardBlock.decode(Int.self, forKey: .count)
        let indexes = try shardBlock.decode([Int].self, forKey: .indexes)
        guard count >= 1, !indexes.isEmpty, indexes.allSatisfy({ (0..<count).contains($0) }), Set(indexes).count == indexes.count else {
            throw StateFormatError("its shard indexes are not within its shard count")
        }
        var ledgers: [JobKind: JobLedger] = [:]
        var sizing: [JobKind: PromptSizing] = [:]
        let jobs = try container.nestedContainer(keyedBy: ReportKey.self, forKey: .jobs)
        for name in jobs.allKeys {
            guard let kind = JobKind(rawValue: name.stringValue) else {
                throw StateFormatError(at: jobs.codingPath + [name], "unknown job")
            }
            let job = try jobs.nestedContainer(keyedBy: JobKeys.self, forKey: name)
            ledgers[kind] = Self.labelled(try job.decode(JobLedger.self, forKey: .ledger), listed: options.labels)
            if let sizes = try job.decode(PromptSizing?.self, forKey: .promptSizes) { sizing[kind] = sizes }
        }
        self.init(
            toolVersion: try container.decode(ToolStamp.self, forKey: .tool).version.text,
            options: options,
            corpusIdentity: CorpusIdentity(files: try identity.decode([CorpusIdentity.File].self, forKey: .files),
                                           runKeyCheck: identity.contains(.runKeyCheck) ? try identity.decode(SHA256Hex?.self, forKey: .runKeyCheck)?.text : nil),
            model: try container.decode(ModelIdentity.self, forKey: .model),
            shard: ShardFacts(count: count, by: try shardBlock.decode(ShardBy.self, forKey: .by), indexes: indexes.sorted(),
                              threadsSeen: try shardBlock.decode(Int.self, forKey: .threadsSeen),
                              unsandboxed: try shardBlock.decode([Int].self, forKey: .unsandboxed).sorted()),
            corpus: try labelled(CorpusCounts.self, .corpus),
            ledgers: ledgers, sizing: sizing,
            flywheel: try labelled(FlywheelCounter?.self, .flywheel),
            timing: try container.decode(Timing.self, forKey: .run),
            sandbox: try container.decode(SandboxReport?.self, forKey: .sandbox),
            audit: try container.decode(AuditCounts?.self, forKey: .audit),
            checkpoint: try container.decode(Checkpoint?.self, forKey: .checkpoint))
        // Written for a reader's sake and derived from the counts: it must agree with them.
        guard try shardBlock.decode(Int.self, forKey: .threadsSkipped) == threadsSkipped else {
            throw StateFormatError(at: shardBlock.codingPath + [ShardKeys.threadsSkipped], "not the threads read less those counted")
        }
    }
}
