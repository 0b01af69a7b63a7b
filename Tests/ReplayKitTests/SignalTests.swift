import Corpus
import Foundation
import Llama
import Privacy
@testable import ReplayKit
import Spawn
import Testing
import RunTestSupport
import TestSupport

/// The built binary, sent the signals a scheduler sends (SIGTERM on preemption or eviction,
/// SIGINT at a terminal): it keeps what it answered in a checkpoint, leaves nothing that looks
/// like a finished run, exits 10, and resumed it counts what a run never signalled counts.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct SignalTests {
    /// Whether `pid` has installed a handler for `signal` (its SigCgt mask in /proc).
    static func catches(_ pid: pid_t, _ signal: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }

    /// The bytes process `pid` has read so far (`rchar` of /proc/PID/io), or nil once it is gone.
    static func bytesRead(_ pid: pid_t) -> Int? {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
              let line = io.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") }) else { return nil }
        return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces))
    }

    /// Waits up to `seconds` for `condition`, polling every millisecond.
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(1000)
        }
        return true
    }

    /// What a stopped run left under `out`: no result file at all, only checkpoints.
    static func resultFilesLeft(in out: String) -> [String] {
        OutputDirectory.resultFiles.filter { FileManager.default.fileExists(atPath: out + "/" + $0) }
    }

    /// A dry run over 3,000 threads, signalled once a checkpoint is complete, then resumed.
    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalledDryRunKeepsItsThreadsAndResumesToTheSameCounts(signal: Int32) throws {
        let directory = try TemporaryDirectory(prefix: "signal-dry")
        let corpus = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 3000, seed: 23).write(to: corpus)
        let replay = BuiltProducts.executable("replay")
        let out = directory.path("signalled"), wholeOut = directory.path("whole"), errors = directory.path("errors")
        let arguments = ["--dry-run", "--resume", "--checkpoint-every", "50", "--out", out, corpus]
        let key = try StateFixtures.processKey()

        let process = try ChildProcess(replay, arguments, errors: .file(errors))
        #expect(Self.wait(seconds: 120) { OutputDirectory(out, key: key).newestCompleteCheckpoint().state != nil || !process.isRunning })
        process.send(signal)
        let end = process.wait(timeout: 60)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(!end.signalled && end.status == ExitCode.stopped.rawValue, "\(said)")
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        #expect(said.contains("replay: \(name): stopping at the next thread line"), "\(said)")
        #expect(said.contains("replay: stopped by \(name): "), "\(said)")
        #expect(said.contains("the same command with --resume goes on from there"), "\(said)")
        #expect(Self.resultFilesLeft(in: out).isEmpty, "a stopped run leaves no result: \(Self.resultFilesLeft(in: out))")
        // The threads it says it kept are the newest checkpoint's.
        let newest = try #require(OutputDirectory(out, key: key).newestCompleteCheckpoint().state)
        let checkpointName = OutputDirectory.checkpointName(newest.checkpoint?.sequence ?? 0)
        #expect(said.contains("\(newest.corpus.threadsReplayed) threads kept in \(out)/\(checkpointName)"), "\(said)")
        #expect(newest.corpus.threadsReplayed < 3000)

        let resumed = try Subprocess.run(replay, arguments)
        #expect(resumed.status == 0, "\(resumed.errors)")
        #expect(resumed.errors.contains("resuming after \(checkpointName)"), "\(resumed.errors)")
        let never = try Subprocess.run(replay, ["--dry-run", "--out", wholeOut, corpus])
        #expect(never.status == 0, "\(never.errors)")
        let a = try StateFixtures.report(at: out + "/report.json"), b = try StateFixtures.report(at: wholeOut + "/report.json")
        #expect(StateFixtures.comparable(a) == StateFixtures.comparable(b))
        #expect(a.at("corpus.threads") == .int(3000))
        for name in ["report.md", "items.json.zst", "junit.xml"] {
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) == Data(contentsOf: URL(fileURLWithPath: wholeOut + "/" + name)), "\(name)")
        }
    }

    /// A second signal stops at once: the default action, not a checkpoint. The first comes once
    /// the reader is inside one long thread (200,000 screens that ask, each planned with its
    /// prompt counted: seconds of work before the next thread line, where the stop would be), so
    /// it is still on its way when the others come. (Sent before the first thread line, the first
    /// signal stops the run there at once.)
    @Test func aSecondSignalStopsAtOnce() throws {
        let directory = try TemporaryDirectory(prefix: "signal-twice")
        var lines = [#"{"type":"thread","id":"long","agent":"Coach","locale":"en-US"}"#]
        let asks = Array(repeating: "how did the long run feel on the hills this week", count: 4).joined(separator: " and ") + "?"
        for i in 0..<200_000 {
            lines.append(#"{"type":"message","thread":"long","id":"m\#(i)","at":"2026-09-01T07:00:00Z","from":"Coach","screen":[{"say":"\#(asks)"}]}"#)
        }
        lines.append(#"{"type":"thread","id":"next","agent":"Coach","locale":"en-US"}"#)
        let corpus = try directory.write("long.jsonl", text: lines.joined(separator: "\n") + "\n")
        let out = directory.path("out"), errors = directory.path("errors")
        let process = try ChildProcess(BuiltProducts.executable("replay"), ["--dry-run", "--job", "chips", "--resume", "--out", out, corpus],
                                       errors: .file(errors))
        #expect(Self.wait(seconds: 60) { Self.catches(process.processIdentifier, SIGTERM) || !process.isRunning })
        // Inside the long thread: the corpus hashed whole (its identity), then half of it read
        // again. The bytes read also count the vocabulary, loaded beside the hash (5.7 MB of
        // SmolLM2's, measured with strace): with a tenth of the corpus (3.3 MB) as the mark, the
        // signal could come before the first thread line, which stops the run at once.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: corpus)[.size] as? Int)
        #expect(Self.wait(seconds: 60) { (Self.bytesRead(process.processIdentifier) ?? .max) > size + size / 2 })
        process.send(SIGTERM)
        #expect(Self.wait(seconds: 60) { ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("stopping at the next thread line") })
        // The same signal again at once is the first delivered twice (Slurm's job and step): ignored.
        process.send(SIGTERM)
        usleep(useconds_t(StopSignals.duplicateWindowNanoseconds / 1000) + 100_000)
        #expect(process.isRunning, "a duplicate within the window does not stop the run at once")
        process.send(SIGTERM)
        let end = process.wait(timeout: 60)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(end.signalled && end.status == SIGTERM, "status \(end.status), signalled \(end.signalled): \(said)")
        #expect(!said.contains("replay: stopped by"), "the second signal does not wait for the stop: \(said)")
        #expect(Self.resultFilesLeft(in: out).isEmpty)
    }

    /// With the model: SIGTERM once a checkpoint is complete drops the call in flight, keeps the
    /// last thread boundary with every request answered, and the resumed run's answers are a
    /// never-signalled run's (the engine is deterministic; only host timings differ).
    @Test func aSignalledModelRunKeepsItsAnswersAndResumesToTheSameOnes() throws {
        let model = try #require(DefaultModel.path(), "the default model is missing: run scripts/setup")
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("corpora/sample.jsonl.zst").path
        let directory = try TemporaryDirectory(prefix: "signal-model")
        let replay = BuiltProducts.executable("replay")
        let out = directory.path("signalled"), wholeOut = directory.path("whole"), errors = directory.path("errors")
        let arguments = ["--job", "chips", "--model", model, "--limit", "6", "--resume", "--checkpoint-every", "2", "--out", out, sample]
        let key = try StateFixtures.processKey()

        let process = try ChildProcess(replay, arguments, errors: .file(errors))
        #expect(Self.wait(seconds: 600) { OutputDirectory(out, key: key).newestCompleteCheckpoint().state != nil || !process.isRunning })
        let sent = Date()
        process.send(SIGTERM)
        let end = process.wait(timeout: 120)
        let stopSeconds = Date().timeIntervalSince(sent)
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(!end.signalled && end.status == ExitCode.stopped.rawValue, "\(said)")
        // Within one engine step, not one call: far inside a scheduler's 30 s grace.
        #expect(stopSeconds < 30, "stopped \(stopSeconds) s after SIGTERM")
        #expect(Self.resultFilesLeft(in: out).isEmpty)

        let resumed = try Subprocess.run(replay, arguments)
        #expect(resumed.status == 0, "\(resumed.errors)")
        let never = try Subprocess.run(replay, ["--job", "chips", "--model", model, "--limit", "6", "--out", wholeOut, sample])
        #expect(never.status == 0, "\(never.errors)")
        let a = try StateFixtures.report(at: out + "/report.json"), b = try StateFixtures.report(at: wholeOut + "/report.json")
        for key in ["corpus.threads_replayed", "jobs.chips.eligible", "jobs.chips.asked", "jobs.chips.answered", "jobs.chips.fallbacks",
                    "jobs.chips.quality", "jobs.chips.tokens"] {
            #expect(a.at(key) == b.at(key), "\(key)")
        }
        #expect(a.at("corpus.threads_replayed") == .int(6))
    }
}
