import Corpus
import Foundation
@testable import ReplayKit
import Spawn
import Testing
import TestSupport

/// One run per `--out`: a second process is refused while the first runs, a finished run is
/// never cleared without `--force`, and a killed run leaves no claim behind.
@Suite struct OutClaimTests {
    /// A second run on a directory a running one holds is refused at once (exit 2), and the first
    /// finishes with its results whole.
    @Test func aSecondRunOnTheSameOutIsRefusedWhileTheFirstRuns() throws {
        let directory = try TemporaryDirectory(prefix: "claim-busy")
        let corpus = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 3000, seed: 29).write(to: corpus)
        let replay = BuiltProducts.executable("replay")
        let out = directory.path("out")
        let first = try ChildProcess(replay, ["--dry-run", "--resume", "--checkpoint-every", "50", "--out", out, corpus])
        // Running once its first checkpoint is written: it holds the directory by then.
        #expect(SignalTests.wait(seconds: 120) { OutputDirectory(out).newestCompleteCheckpoint().state != nil || !first.isRunning })
        #expect(first.isRunning, "the first run ended before the second could try")
        let second = try Subprocess.run(replay, ["--dry-run", "--limit", "3", "--out", out, corpus])
        #expect(second.status == ExitCode.usage.rawValue, "\(second.errors)")
        #expect(second.errors.contains("--out \(out) is in use by another replay process running now"), "\(second.errors)")
        let end = first.wait(timeout: 300)
        #expect(!end.signalled && end.status == 0)
        let verified = try Subprocess.run(replay, ["verify", out])
        #expect(verified.status == 0, "the first run's results are whole: \(verified.errors)")
    }

    /// A finished run is refused as --out (exit 2, its results untouched) until --force; the
    /// same for a merge's and a flywheel's directory.
    @Test func aFinishedRunIsNotClearedWithoutForce() throws {
        let directory = try TemporaryDirectory(prefix: "claim-finished")
        let corpus = try directory.write("c.jsonl", text: ExitStatusTests.corpus)
        let out = directory.path("out"), flywheelOut = directory.path("flywheel")
        func replay(_ arguments: [String]) -> (ExitCode, String) {
            var said = ""
            let code = ReplayTool.main(arguments, diagnostics: { said += $0 + "\n" }, sandboxed: false)
            return (code, said)
        }
        #expect(replay(["--dry-run", "--job", "chips", "--out", out, corpus]).0 == .success)
        let report = try Data(contentsOf: URL(fileURLWithPath: out + "/report.json"))
        for arguments in [["--dry-run", "--job", "chips", "--out", out, corpus],
                          ["--dry-run", "--job", "chips", "--resume", "--out", out, corpus]] {
            let (code, said) = replay(arguments)
            #expect(code == .usage)
            #expect(said.contains("--out \(out) holds a finished run (its manifest.json), which this run would clear"), "\(said)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/report.json")) == report)
            #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
        }
        #expect(replay(["--dry-run", "--job", "chips", "--force", "--out", out, corpus]).0 == .success)
        #expect(replay(["flywheel", "--out", flywheelOut, corpus]).0 == .success)
        #expect(replay(["flywheel", "--out", flywheelOut, corpus]).0 == .usage)
        #expect(replay(["flywheel", "--force", "--out", flywheelOut, corpus]).0 == .success)
    }

    /// A run killed with SIGKILL holds nothing afterwards: the kernel drops its lock, and the next
    /// run (resuming or not) takes the directory at once.
    @Test func aKilledRunLeavesNoClaim() throws {
        let directory = try TemporaryDirectory(prefix: "claim-killed")
        let corpus = directory.path("generated.jsonl.zst")
        _ = try CorpusGenerator(threads: 3000, seed: 31).write(to: corpus)
        let replay = BuiltProducts.executable("replay")
        let out = directory.path("out")
        let arguments = ["--dry-run", "--resume", "--checkpoint-every", "50", "--out", out, corpus]
        let killed = try ChildProcess(replay, arguments)
        #expect(SignalTests.wait(seconds: 120) { OutputDirectory(out).newestCompleteCheckpoint().state != nil || !killed.isRunning })
        killed.send(SIGKILL)
        #expect(killed.wait(timeout: 60).signalled)
        let resumed = try Subprocess.run(replay, arguments)
        #expect(resumed.status == 0, "\(resumed.errors)")
        #expect(resumed.errors.contains("resuming after checkpoint-"), "\(resumed.errors)")
    }
}
