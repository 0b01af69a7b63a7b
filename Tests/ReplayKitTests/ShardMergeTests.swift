import Flywheel
import Foundation
import Jobs
import Privacy
@testable import ReplayKit
@testable import Replay
import Testing
import RunTestSupport
import TestSupport

/// `--shard I/N` and `replay merge`: the merge of a sharded run is the one-process run exactly
/// (timing, shard and sandbox blocks aside), and a merge that cannot be made names the shard.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ShardMergeTests {
    /// 1 to 5 shards by thread id, and by file, merged in process: the one-process state.
    @Test(arguments: [ShardBy.thread, .file], 1...5)
    func mergedShardsAreTheOneProcessRun(by: ShardBy, count: Int) throws {
        let directory = try TemporaryDirectory(prefix: "shard-merge")
        let paths = try StateFixtures.corpus(in: directory)
        let whole = StateFixtures.state(paths)
        let shards = (0..<count).map { StateFixtures.state(paths, shard: ShardSpec(index: $0, count: count, by: by)) }
        let merged = shards.dropFirst().reduce(shards[0]) { $0.merged(with: $1) }
        #expect(StateFixtures.comparable(merged) == StateFixtures.comparable(whole))
        #expect(merged.shard.indexes == Array(0..<count))
        // Every line is counted once: no shard's count is the whole unless it is the only one.
        if count > 1 && by == .thread { #expect(shards.allSatisfy { $0.corpus.stats.threads < whole.corpus.stats.threads }) }
        #expect(shards.map(\.corpus.stats.lines).reduce(0, +) == whole.corpus.stats.lines)
        #expect(shards.map(\.corpus.stats.badLines).reduce(0, +) == whole.corpus.stats.badLines)
        // And so is what the report and the flywheel files say.
        let report = ReportBuilder(state: merged).build()
        #expect(StateFixtures.comparable(report) == StateFixtures.comparable(ReportBuilder(state: whole).build()))
        #expect(report.at("shard.index") == (count == 1 ? .int(0) : .null))
        #expect(report.at("shard.threads_skipped") == .int(0))
        let flywheel = try #require(merged.flywheel), wholeFlywheel = try #require(whole.flywheel)
        #expect(FlywheelFilesText.of(flywheel, merged) == FlywheelFilesText.of(wholeFlywheel, whole))
    }

    /// Bad lines fall in every shard; the merge keeps the first 20 in reading order, as one run does.
    @Test func theFirstTwentyBadLinesAreOneRunsFirstTwenty() throws {
        let directory = try TemporaryDirectory(prefix: "shard-merge")
        let paths = try StateFixtures.corpus(in: directory)
        let whole = StateFixtures.state(paths)
        let shards = (0..<4).map { StateFixtures.state(paths, shard: ShardSpec(index: $0, count: 4)) }
        #expect(whole.corpus.stats.badLines > 40)
        #expect(shards.filter { !$0.corpus.badLineSamples.isEmpty }.count == 4)
        let merged = shards.reversed().dropFirst().reduce(shards.last!) { $0.merged(with: $1) }
        #expect(merged.corpus.badLineSamples == whole.corpus.badLineSamples)
        #expect(merged.corpus.badLineSamples.count == 20)
    }

    /// A refused file is reported once (by the shard that counts files), and under `--strict`
    /// every shard of a thread split stops at the same bad line, reported once by the shard it
    /// falls in. (A file split's shards each stop at their own files' first bad line: a strict
    /// file split is not one strict run, as docs/report-schema.md says.)
    @Test(arguments: [ShardBy.thread, .file])
    func failedFilesAndStrictStopsAreReportedOnce(by: ShardBy) throws {
        let directory = try TemporaryDirectory(prefix: "shard-merge")
        let refused = try directory.write("b-refused.jsonl", text: #"{"type":"export","version":2}"# + "\n")
        var paths = try StateFixtures.corpus(in: directory)
        paths.insert(refused, at: 1)
        for strict in by == .thread ? [false, true] : [false] {
            let whole = StateFixtures.state(paths, strict: strict)
            let shards = (0..<3).map { StateFixtures.state(paths, shard: ShardSpec(index: $0, count: 3, by: by), strict: strict) }
            let merged = shards.dropFirst().reduce(shards[0]) { $0.merged(with: $1) }
            #expect(StateFixtures.comparable(merged) == StateFixtures.comparable(whole), "strict: \(strict)")
            #expect(shards.filter { !$0.corpus.errors.isEmpty }.count == 1)
            #expect(merged.corpus.errors.count == 1)
            if strict {
                #expect(whole.corpus.fatal != nil)
                #expect(shards.filter { $0.corpus.fatal != nil }.count == 1)
                #expect(!merged.corpus.stoppedAtAnotherShardsBadLine)
            }
        }
    }

    // MARK: - Through the command

    /// Runs `replay` in this process (unsandboxed: tests have other threads) and returns what it said.
    static func replay(_ arguments: [String]) -> (code: ExitCode, said: String) {
        var said = ""
        let code = ReplayTool.main(arguments, diagnostics: { said += $0 + "\n" }, sandboxed: false)
        return (code, said)
    }

    @Test func aMergeThatCannotBeMadeNamesTheShard() throws {
        let directory = try TemporaryDirectory(prefix: "shard-merge")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 12))
        let other = try directory.write("other.jsonl", text: StateFixtures.messy(threads: 13))
        func shard(_ spec: String, _ name: String, _ extra: [String] = [], corpus: String = corpus) -> String {
            let out = directory.path(name)
            let run = Self.replay(["--dry-run", "--job", "chips", "--shard", spec, "--out", out] + extra + [corpus])
            #expect(run.code == .success, "shard \(spec) into \(name): \(run.said)")
            return out
        }
        let s0 = shard("0/3", "s0"), s1 = shard("1/3", "s1"), s2 = shard("2/3", "s2")
        let limited = shard("2/3", "limited", ["--limit", "3"])
        let elsewhere = shard("2/3", "elsewhere", corpus: other)
        let half = shard("1/2", "half")
        // A shard of the same corpus and options made under another run key.
        let otherKey = try directory.write("other-key", [UInt8](repeating: 9, count: RunKey.length))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: otherKey)
        let foreign = shard("2/3", "foreign", ["--run-key", otherKey])
        let foreignState = try String(contentsOfFile: foreign + "/state.json", encoding: .utf8)
        #expect(!foreignState.contains(String(decoding: [UInt8](repeating: 9, count: RunKey.length), as: UTF8.self)))
        #expect(!foreignState.contains(String(repeating: "09", count: RunKey.length)), "the key itself is never written")
        let empty = directory.path("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let copy = directory.path("s1-copy")
        try FileManager.default.copyItem(atPath: s1, toPath: copy)

        func merge(_ dirs: [String], into name: String = "merged") -> (code: ExitCode, said: String) {
            Self.replay(["merge", "--out", directory.path(name)] + dirs)
        }
        let good = merge([s2, s0, s1])
        #expect(good.code == .success, "\(good.said)")
        let cases: [([String], [String])] = [
            ([s0, s1], ["shard 2 of 3 is missing"]),
            ([s0, s1, copy, s2], ["shard 1 of 3 is given twice", s1, copy]),
            ([s0, s1, limited], [limited, "--limit"]),
            ([s0, s1, elsewhere], [elsewhere, "corpus"]),
            ([s0, s1, s2, half], [half, "a shard of 2"]),
            ([s0, s1, foreign], [foreign, "another run key"]),
            ([s0, s1, empty], [empty, "state.json"]),
        ]
        for (index, (dirs, words)) in cases.enumerated() {
            let run = merge(dirs, into: "bad-\(index)")
            #expect(run.code == .input, "case \(index): \(run.said)")
            for word in words { #expect(run.said.contains(word), "case \(index) says \(word): \(run.said)") }
            #expect(!FileManager.default.fileExists(atPath: directory.path("bad-\(index)/report.json")))
        }
        #expect(merge([s0, s1, s2], into: "s0").code == .usage)
        // A gate on the merge: exit 1 when unmet, and junit.xml says so.
        let gated = Self.replay(["merge", "--out", directory.path("gated"), "--fail-under", "chips.scanned=100000", s0, s1, s2])
        #expect(gated.code == .thresholdsNotMet)
        let junit = try String(contentsOfFile: directory.path("gated/junit.xml"), encoding: .utf8)
        #expect(junit.contains("failure"))
    }

    /// The built binary, a dry run over the sample and a corpus with sentences as builds (hashed):
    /// three shards by thread id (or two by file), merged, are the one-process run, byte for byte
    /// but for the start time, the length, the shard block and the sandbox block. Each process
    /// draws its label salt from the corpus, so a hashed build groups the same in every shard.
    @Test(arguments: [(ShardBy.thread, 3), (.file, 2)])
    func theBuiltBinaryMergesToTheOneProcessRun(by: ShardBy, count: Int) throws {
        let directory = try TemporaryDirectory(prefix: "shard-binary")
        let sample = BuiltProducts.packageRoot + "/corpora/sample.jsonl.zst"
        let messy = try directory.write("messy.jsonl", text: StateFixtures.messy(threads: 20))
        let replay = BuiltProducts.executable("replay")
        func run(_ arguments: [String]) throws -> Subprocess {
            let result = try Subprocess.run(replay, arguments)
            #expect(result.status == 0, "replay \(arguments.joined(separator: " ")): \(result.errors)")
            return result
        }
        _ = try run(["--dry-run", "--out", directory.path("whole"), sample, messy])
        for index in 0..<count {
            _ = try run(["--dry-run", "--shard", "\(index)/\(count)", "--shard-by", by.rawValue, "--out", directory.path("shard-\(index)"), sample, messy])
            let report = try StateFixtures.report(at: directory.path("shard-\(index)/report.json"))
            #expect(report.at("shard.index") == .int(index))
            #expect(report.at("shard.count") == .int(count))
            let read = report.at("shard.threads_read")?.doubleValue ?? -1, threads = report.at("corpus.threads")?.doubleValue ?? -2
            #expect(report.at("shard.threads_skipped")?.doubleValue == read - threads)
            #expect(report.at("sandbox.enforced") == .bool(true))
        }
        let merge = try run(["merge", "--out", directory.path("merged")] + (0..<count).map { directory.path("shard-\($0)") })
        #expect(merge.errors.contains("\(count) shards merged"))
        let whole = try StateFixtures.report(at: directory.path("whole/report.json"))
        let merged = try StateFixtures.report(at: directory.path("merged/report.json"))
        #expect(StateFixtures.comparable(merged) == StateFixtures.comparable(whole))
        #expect(merged.at("shard.shards") == .array((0..<count).map { .int($0) }))
        #expect(merged.at("sandbox.enforced") == .bool(true))
        #expect(whole.at("jobs.chips.by_build").map { "\($0)".contains("#h:") } == true, "the messy corpus has hashed builds")
        // items.json.zst too: the same items, in the same canonical order, byte for byte.
        for name in ["report.md", "junit.xml", "metrics.csv", "metrics.json", "dashboard.html", "items.json.zst"] {
            let a = try Data(contentsOf: URL(fileURLWithPath: directory.path("whole/" + name)))
            let b = try Data(contentsOf: URL(fileURLWithPath: directory.path("merged/" + name)))
            #expect(a == b, "\(name) of the merge differs from the one-process run's")
        }
        let key = try StateFixtures.processKey()
        let wholeState = try RunState(stateJSON: String(contentsOfFile: directory.path("whole/state.json"), encoding: .utf8), key: key)
        let mergedState = try RunState(stateJSON: String(contentsOfFile: directory.path("merged/state.json"), encoding: .utf8), key: key)
        #expect(StateFixtures.comparable(mergedState) == StateFixtures.comparable(wholeState))
    }

    /// With no `--shard`, a Slurm array task or a Kubernetes completion index picks the shard.
    @Test func theSchedulersEnvironmentPicksTheShard() throws {
        let directory = try TemporaryDirectory(prefix: "shard-env")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 8))
        let replay = BuiltProducts.executable("replay")
        var environment = ProcessInfo.processInfo.environment
        for key in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "JOB_COMPLETION_INDEX"] { environment[key] = nil }
        let cases: [([String: String], [String], Int, Int)] = [
            (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3"], [], 2, 3),
            (["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "2"], [], 1, 2),
            (["JOB_COMPLETION_INDEX": "3"], ["--shards", "4"], 3, 4),
            (["JOB_COMPLETION_INDEX": "3", "SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "2"], ["--shard", "1/5"], 1, 5),
        ]
        for (index, (variables, flags, shard, count)) in cases.enumerated() {
            let out = directory.path("out-\(index)")
            let run = try Subprocess.run(replay, ["--dry-run", "--job", "chips", "--out", out] + flags + [corpus],
                                         environment: environment.merging(variables) { $1 })
            #expect(run.status == 0, "case \(index): \(run.errors)")
            let report = try StateFixtures.report(at: out + "/report.json")
            #expect(report.at("shard.index") == .int(shard), "case \(index)")
            #expect(report.at("shard.count") == .int(count), "case \(index)")
        }
    }
}

/// The flywheel's three files of a state, as text.
enum FlywheelFilesText {
    static func of(_ counter: FlywheelCounter, _ state: RunState) -> [String] {
        FlywheelFiles.contents(counter, replayed: OutputDirectory.replayed(state)).map { $0.text }
    }
}
