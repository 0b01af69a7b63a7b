import Corpus
import Foundation
import Privacy
@testable import ReplayKit
import Testing
import Spawn
import RunTestSupport
import TestSupport

/// `--resume`: a run killed after a checkpoint, restarted, counts what a run never killed counts;
/// a checkpoint of another corpus, options, model or shard is refused; one cut short is passed over.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct ResumeTests {
    /// The built binary, killed with SIGKILL once a checkpoint is complete, then resumed.
    @Test func aKilledRunResumesToTheSameCounts() throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let corpus = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 600, seed: 21).write(to: corpus)
        let replay = BuiltProducts.executable("replay")
        let killedOut = directory.path("killed"), wholeOut = directory.path("whole")
        let arguments = ["--dry-run", "--resume", "--checkpoint-every", "5", "--out", killedOut, corpus]

        let key = try StateFixtures.processKey()
        let process = try ChildProcess(replay, arguments)
        // Killed once a checkpoint reads whole: the file exists a moment before its closing
        // `"complete": true` is written, and a kill in that moment leaves nothing to resume from.
        let deadline = Date().addingTimeInterval(120)
        while OutputDirectory(killedOut, key: key).newestCompleteCheckpoint().state == nil, process.isRunning, Date() < deadline {
            usleep(1000)
        }
        process.send(SIGKILL)
        #expect(process.wait(timeout: 60).signalled, "the run ended before it could be killed")
        #expect(!FileManager.default.fileExists(atPath: killedOut + "/state.json"))
        let written = OutputDirectory(killedOut).checkpointSequences()
        #expect(!written.isEmpty)

        let resumed = try Subprocess.run(replay, arguments)
        #expect(resumed.status == 0, "\(resumed.errors)")
        #expect(resumed.errors.contains("resuming after checkpoint-"), "\(resumed.errors)")
        let never = try Subprocess.run(replay, ["--dry-run", "--out", wholeOut, corpus])
        #expect(never.status == 0, "\(never.errors)")

        let a = try StateFixtures.report(at: killedOut + "/report.json"), b = try StateFixtures.report(at: wholeOut + "/report.json")
        #expect(StateFixtures.comparable(a) == StateFixtures.comparable(b))
        #expect(a.at("corpus.threads") == .int(600))
        let stateA = try RunState(stateJSON: String(contentsOfFile: killedOut + "/state.json", encoding: .utf8), key: key)
        let stateB = try RunState(stateJSON: String(contentsOfFile: wholeOut + "/state.json", encoding: .utf8), key: key)
        #expect(StateFixtures.comparable(stateA) == StateFixtures.comparable(stateB))
        // The items too: the checkpoints' segments carry the killed process's items exactly.
        for name in ["report.md", "metrics.csv", "metrics.json", "dashboard.html", "junit.xml", "items.json.zst"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: killedOut + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: wholeOut + "/" + name)), "\(name)")
        }
        // The killed run's checkpoints are all still there, and the resumed run's follow them:
        // numbered on from the highest the killed run began, so one number is missing when the
        // kill came while a checkpoint was being written (its parts are not a checkpoint).
        let after = OutputDirectory(killedOut).checkpointSequences()
        #expect(Array(after.prefix(written.count)) == written)
        #expect(zip(after, after.dropFirst()).allSatisfy { $0 < $1 } && after.first == 1)
        #expect((after.last ?? 0) - after.count <= 1)
    }

    static func replay(_ arguments: [String]) -> (code: ExitCode, said: String) {
        ShardMergeTests.replay(arguments)
    }

    @Test func aCheckpointOfAnotherRunIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 10))
        let other = try directory.write("other.jsonl", text: StateFixtures.messy(threads: 11))
        let out = directory.path("out")
        let otherKey = try directory.write("other-key", [UInt8](repeating: 3, count: 32))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: otherKey)
        let base = ["--dry-run", "--job", "chips", "--resume", "--checkpoint-every", "2", "--out", out]
        let first = Self.replay(base + [corpus])
        #expect(first.code == .success, "\(first.said)")
        #expect(first.said.contains("no complete checkpoint"))
        #expect(OutputDirectory(out).checkpointSequences().count >= 3)
        // As if killed before its manifest: a finished run is refused before its checkpoints are read.
        try FileManager.default.removeItem(atPath: out + "/manifest.json")
        let cases: [([String], String)] = [
            (base + [other], "differs"),
            (base + ["--limit", "4", corpus], "--limit"),
            (base.map { $0 == "chips" ? "chips,route" : $0 } + [corpus], "--job"),
            (base + ["--shard", "1/2", corpus], "shard"),
            (base + ["--device", "custom:1,20", corpus], "--device"),
            (base + ["--run-key", otherKey, corpus], "another run key"),
        ]
        for (arguments, word) in cases {
            let run = Self.replay(arguments)
            #expect(run.code == .usage, "\(arguments): \(run.said)")
            #expect(run.said.contains("--resume") && run.said.contains(word), "\(word): \(run.said)")
        }
        #expect(Self.replay(["--dry-run", "--resume", "--out", directory.path("stdin"), "-"]).code == .usage)
    }

    /// A checkpoint cut short (a crash while it was written) is passed over: the run resumes from
    /// the one before, numbers its own after the cut one, and counts what one run counts.
    @Test func aCheckpointCutShortIsPassedOver() throws {
        let directory = try TemporaryDirectory(prefix: "resume")
        let corpus = try directory.write("c.jsonl", text: StateFixtures.messy(threads: 12))
        let out = directory.path("out"), whole = directory.path("whole")
        let arguments = ["--dry-run", "--resume", "--checkpoint-every", "2", "--out", out, corpus]
        #expect(Self.replay(arguments).code == .success)
        #expect(Self.replay(["--dry-run", "--out", whole, corpus]).code == .success)
        let output = OutputDirectory(out, key: try StateFixtures.processKey())
        // Keep the first two checkpoints, as a run killed while writing its third would have
        // (it never wrote its manifest).
        try FileManager.default.removeItem(atPath: out + "/manifest.json")
        let sequences = output.checkpointSequences()
        #expect(sequences.count >= 4)
        for sequence in sequences.dropFirst(2) { try FileManager.default.removeItem(atPath: out + "/" + OutputDirectory.checkpointName(sequence)) }
        // Its third segment was written (a segment comes before its checkpoint), the later ones never were.
        for sequence in sequences.dropFirst(3) { try FileManager.default.removeItem(atPath: out + "/" + OutputDirectory.segmentName(sequence)) }
        let text = try String(contentsOfFile: out + "/" + OutputDirectory.checkpointName(2), encoding: .utf8)
        try text.prefix(text.count / 2).write(toFile: out + "/" + OutputDirectory.checkpointName(3), atomically: false, encoding: .utf8)
        #expect(output.newestCompleteCheckpoint().state?.checkpoint?.sequence == 2)
        #expect(output.newestCompleteCheckpoint().highestSequence == 3)

        let resumed = Self.replay(arguments)
        #expect(resumed.code == .success, "\(resumed.said)")
        #expect(resumed.said.contains("resuming after checkpoint-000002.json"))
        #expect(output.checkpointSequences().first { $0 > 3 } == 4)
        let a = try StateFixtures.report(at: out + "/report.json"), b = try StateFixtures.report(at: whole + "/report.json")
        #expect(StateFixtures.comparable(a) == StateFixtures.comparable(b))

        // A run without --resume over the finished one (--force) starts again: the checkpoints
        // of the earlier run are cleared.
        #expect(Self.replay(["--dry-run", "--out", out, corpus]).code == .usage)
        #expect(Self.replay(["--dry-run", "--force", "--out", out, corpus]).code == .success)
        #expect(output.checkpointSequences().isEmpty)
    }
}
