import Corpus
import Foundation
@testable import ReplayKit
@testable import Replay
import Spawn
import Testing
import TestSupport

/// One run per `--out`: a second process is refused while the first runs, a finished run is
/// never cleared without `--force`, and a killed run leaves no claim behind.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct OutClaimTests {
    /// Whether process `pid` holds a flock (in /proc/locks).
    static func holdsALock(_ pid: pid_t) -> Bool {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.contains("FLOCK") && fields.contains(Substring(String(pid)))
        }
    }

    /// A run reading its corpus from a pipe this test holds: it keeps --out until the corpus comes.
    static func waitingRun(out: String) throws -> (process: ChildProcess, feed: Int32) {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let process = try ChildProcess(BuiltProducts.executable("replay"), ["--dry-run", "--job", "chips", "--out", out, "-"],
                                       input: .descriptor(ends[0]))
        close(ends[0])
        #expect(SignalTests.wait(seconds: 60) { holdsALock(process.processIdentifier) || !process.isRunning }, "the run took no claim")
        return (process, ends[1])
    }

    /// A second run on a directory a running one holds is refused at once (exit 2), and the first
    /// finishes with its results whole.
    @Test func aSecondRunOnTheSameOutIsRefusedWhileTheFirstRuns() throws {
        let directory = try TemporaryDirectory(prefix: "claim-busy")
        let corpus = try directory.write("c.jsonl", text: ExitStatusTests.corpus)
        let out = directory.path("out")
        let (first, feed) = try Self.waitingRun(out: out)
        #expect(first.isRunning)
        let second = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--limit", "3", "--out", out, corpus])
        #expect(second.status == ExitCode.usage.rawValue, "\(second.errors)")
        #expect(second.errors.contains("--out \(out) is in use by another replay process running now"), "\(second.errors)")
        let text = Array(ExitStatusTests.corpus.utf8)
        #expect(write(feed, text, text.count) == text.count)
        close(feed)
        let end = first.wait(timeout: 120)
        #expect(!end.signalled && end.status == 0)
        let verified = try Subprocess.run(BuiltProducts.executable("replay"), ["verify", out])
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
    /// run takes the directory at once.
    @Test func aKilledRunLeavesNoClaim() throws {
        let directory = try TemporaryDirectory(prefix: "claim-killed")
        let corpus = try directory.write("c.jsonl", text: ExitStatusTests.corpus)
        let out = directory.path("out")
        let (killed, feed) = try Self.waitingRun(out: out)
        #expect(Self.holdsALock(killed.processIdentifier))
        killed.send(SIGKILL)
        #expect(killed.wait(timeout: 60).signalled)
        close(feed)
        let next = try Subprocess.run(BuiltProducts.executable("replay"), ["--dry-run", "--limit", "3", "--out", out, corpus])
        #expect(next.status == 0, "\(next.errors)")
    }
}
