import Corpus
import Engine
import Export
import Foundation
import Jobs
import Privacy
@testable import ReplayKit
import TestSupport

/// Corpora and in-process runs for the tests of states, shards, merges and resumes.
public enum StateFixtures {
    /// A hand-made export of `threads` threads that exercises every count a state holds: builds
    /// (one a sentence, so it is hashed), chip screens and replies, a group the route job asks
    /// about, pushes, offline drafts, unknown node kinds and line types, and two bad lines in
    /// every thread (not JSON, and a message of another thread), so bad lines fall in every shard.
    public static func messy(threads: Int, prefix: String = "m") -> String {
        var lines = [#"{"type":"export","version":1}"#]
        for i in 0..<threads {
            let id = "\(prefix)\(i)"
            let build = i % 3 == 0 ? "the quick brown fox \(i % 2)" : "2.\(i % 4).0 (\(100 + i))"
            let meta = #""build":"\#(build)","model":"26.\#(i % 2)""#
            if i % 4 == 1 {
                lines.append(#"{"type":"thread","id":"\#(id)","locale":"en-GB","group":{"lead":"Coach","members":[{"name":"Coach","about":"plans"},{"name":"Penny","about":"money"}]}}"#)
                lines.append(#"{"type":"message","thread":"\#(id)","id":"a","at":"2026-09-0\#(1 + i % 7)T07:00:00Z","from":"person","text":"Can we talk budgets","meta":{"group":{"to":"Penny"},\#(meta)}}"#)
                lines.append(#"{"type":"message","thread":"\#(id)","id":"b","at":"2026-09-0\#(1 + i % 7)T07:01:00Z","from":"person","text":"Morning all","meta":{\#(meta)}}"#)
            } else {
                lines.append(#"{"type":"thread","id":"\#(id)","agent":"Coach","locale":"\#(i % 5 == 0 ? "ja-JP" : "en-US")"}"#)
                lines.append(#"{"type":"message","thread":"\#(id)","id":"a","at":"2026-09-0\#(1 + i % 7)T07:00:00Z","from":"Coach","screen":[{"chart":{}},{"say":"How was the run?"}],"push":{"kind":"reply","batch":\#(1 + i % 3)}}"#)
                lines.append(#"{"type":"message","thread":"\#(id)","id":"b","at":"2026-09-0\#(1 + i % 7)T07:01:00Z","from":"person","text":"Fine thanks","meta":{"via":"suggested",\#(meta),"offline":\#(i % 2 == 0),"draft_ticks":[0]}}"#)
            }
            lines.append("not json \(i)")
            lines.append(#"{"type":"reaction","thread":"\#(id)"}"#)
            lines.append(#"{"type":"message","thread":"elsewhere","id":"o","at":"2026-09-03T07:00:00Z","from":"person","text":"x"}"#)
            lines.append(#"{"type":"message","thread":"\#(id)","id":"c","at":"2026-09-0\#(1 + i % 7)T07:02:00Z","from":"Coach","screen":[{"say":"Rest tomorrow?"}]}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Three corpus files: a generated export, and two hand-made ones with bad lines in every thread.
    public static func corpus(in directory: TemporaryDirectory) throws -> [String] {
        let generated = directory.path("a-generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 30, seed: 11).write(to: generated)
        return [generated,
                try directory.write("b-messy.jsonl", text: messy(threads: 14)),
                try directory.write("c-messy.jsonl", text: messy(threads: 9, prefix: "n"))]
    }

    /// Options for an in-process run over `paths` of every job with the flywheel.
    public static func options(_ paths: [String], shard: ShardSpec = .whole, dryRun: Bool = false, strict: Bool = false) -> ReplayOptions {
        var options = ReplayOptions()
        options.strict = strict
        options.corpus = paths
        options.flywheel = true
        options.dryRun = dryRun
        options.shard = shard
        return options
    }

    /// The run key of the fixtures' states (a fixed one: tests compare states made apart).
    public static let key = RunKey(bytes: Array(repeating: 0x5a, count: RunKey.length))!

    /// The key a run in this process takes without `--run-key` (`REPLAY_RUN_KEY`'s file, else the
    /// per-user key), to read back the states such runs write.
    public static func processKey() throws -> RunKey {
        try RunKeyFile.load(explicit: nil, environment: ProcessInfo.processInfo.environment)
    }

    /// The state of an in-process run (the scripted model, so every number is the same each time).
    public static func state(_ paths: [String], shard: ShardSpec = .whole, dryRun: Bool = false, strict: Bool = false,
                      resume: ReplayRunner.ResumePoint? = nil, every: Int? = nil, checkpoints: ((RunState) -> Void)? = nil) -> RunState {
        var options = options(paths, shard: shard, dryRun: dryRun, strict: strict)
        options.checkpointEvery = every
        // The facts of the whole corpus, gathered as a run does before it (every shard the same).
        let facts = CorpusFactsPass.read((try? CorpusReader(paths: paths).files) ?? [], wanted: RunJobs.wantedFacts(for: options))
        let jobs = RunJobs.jobs(for: options, facts: facts.facts)
        let model = LabelScriptedModel(routeTo: "Penny")
        let identity = CorpusIdentity.of((try? CorpusReader(paths: paths).files) ?? [], key: key, shard: shard).identity
        func state(_ tally: ReplayTally) -> RunState {
            RunState(tally: tally, options: StateOptions(options, jobs: jobs), corpusIdentity: identity, model: .none,
                     timing: Timing(started: Date(timeIntervalSince1970: 0), seconds: 1))
        }
        let runner = ReplayRunner(options: options, jobs: jobs, model: dryRun ? nil : model, planningWorkers: 2,
                                  itemKeys: ItemKeys(key: key, fileDigests: identity.files.map(\.digest)))
        var sequence = 0
        let tally = runner.run(resume: resume) { partial in
            sequence += 1
            var checkpoint = state(partial)
            checkpoint.checkpoint = Checkpoint(sequence: sequence, eventsRead: partial.eventsRead)
            checkpoints?(checkpoint)
        }
        return state(tally)
    }

    /// `state` with what differs between two runs of one corpus and options blanked: the timing,
    /// the sandbox block, and which shards it covers.
    public static func comparable(_ state: RunState) -> RunState {
        var copy = state
        copy.timing = Timing(started: "", seconds: 0)
        copy.sandbox = nil
        copy.shard.count = 1
        copy.shard.by = .thread
        copy.shard.indexes = [0]
        copy.shard.unsandboxed = []
        copy.checkpoint = nil
        copy.items = ItemTable(copy.items).items   // in canonical order: a merge concatenates
        return copy
    }

    /// A report without the keys that differ between two runs of one corpus and options: the
    /// run's start and length, the shard block and the sandbox block. With the scripted model
    /// (or in a dry run) host latencies are the same every time, so nothing else is left out.
    public static func comparable(_ report: ReportValue) -> ReportValue {
        guard case .object(let fields) = report else { return report }
        return .object(fields.compactMap { key, value in
            switch key {
            case "shard", "sandbox": return nil
            case "run":
                guard case .object(let run) = value else { return (key, value) }
                return (key, .object(run.filter { $0.0 != "started" && $0.0 != "seconds" }))
            default: return (key, value)
            }
        })
    }

    /// A report.json read back as a value (through the state reader, which reads any JSON).
    public static func report(at path: String) throws -> ReportValue {
        try ReportValue(parsingExactJSON: String(contentsOfFile: path, encoding: .utf8))
    }
}
