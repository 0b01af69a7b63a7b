#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import Privacy
import Spawn
import Testing

/// `ChildProcess`: what a child is given and not given, how it ends, and that no wait is endless.
@Suite struct ChildProcessTests {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    @Test func outputErrorsAndStatusAreKeptApart() throws {
        let ended = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(String(decoding: ended.standardOutput, as: UTF8.self) == "out\n")
        #expect(String(decoding: ended.standardError, as: UTF8.self) == "err\n")
        #expect(ended.status == 3)
        #expect(!ended.signalled && !ended.timedOut && !ended.succeeded)
    }

    @Test func aSignalThatEndsTheChildIsReportedAsOne() throws {
        let ended = try ChildProcess.run("/bin/sh", ["-c", "kill -TERM $$"])
        #expect(ended.signalled)
        #expect(ended.status == SIGTERM)
    }

    /// A megabyte each way through both pipes at once: neither side can block the other.
    @Test func inputAndOutputLargerThanAPipeDoNotDeadlock() throws {
        let input = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let ended = try ChildProcess.run("/bin/sh", ["-c", "tee /dev/stderr"], input: .bytes(input), timeout: 60)
        #expect(ended.succeeded)
        #expect(ended.standardOutput == input)
        #expect(ended.standardError == input)
    }

    /// The time limit kills the whole group: a grandchild holding the output pipe goes too.
    @Test func aChildPastItsTimeIsKilledWithItsGroup() throws {
        var ended: Termination?
        let elapsed = try Self.seconds {
            ended = try ChildProcess.run("/bin/sh", ["-c", "sleep 60 & sleep 60"], timeout: 0.5)
        }
        #expect(ended?.timedOut == true)
        #expect(ended?.signalled == true)
        #expect(elapsed < 30, "the wait went on after the kill: \(elapsed) s")
    }

    /// A child that ends while something it started in another session keeps its output open is
    /// over once it ends, not once that other program does.
    @Test func theWaitEndsWithTheChildNotWithWhatItLeftBehind() throws {
        var ended: Termination?
        let elapsed = try Self.seconds {
            ended = try ChildProcess.run("/bin/sh", ["-c", "setsid sleep 20 & echo done"], timeout: 60)
        }
        #expect(ended?.succeeded == true)
        #expect(String(decoding: ended?.standardOutput ?? Data(), as: UTF8.self) == "done\n")
        #expect(elapsed < 15, "waited for the program left behind: \(elapsed) s")
    }

    /// A descriptor this process holds without close-on-exec (as Foundation's and C libraries'
    /// often are) does not reach the child: it sees 0, 1 and 2 only.
    @Test func theChildHasOnlyItsThreeStreams() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        // ls's own listing of the directory is the fourth (3); anything more was inherited.
        let ended = try ChildProcess.run("/bin/sh", ["-c", "exec ls /proc/self/fd"])
        let descriptors = String(decoding: ended.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(ended.succeeded)
        #expect(descriptors.sorted() == ["0", "1", "2", "3"], "inherited: \(descriptors)")
    }

    @Test func theDirectoryAndEnvironmentAreTheGivenOnes() throws {
        let directory = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        let ended = try ChildProcess.run("/bin/sh", ["-c", "pwd; echo \"$GIVEN\"; echo \"${HOME:-none}\""],
                                         environment: ["GIVEN": "yes"], directory: directory)
        #expect(String(decoding: ended.standardOutput, as: UTF8.self) == directory + "\nyes\nnone\n")
    }

    /// A name without a slash is looked up in PATH; a path that is not there is an error naming it.
    @Test func programsAreFoundOrTheErrorNamesThem() throws {
        #expect(try ChildProcess.run("true").succeeded)
        let missing = "/nonexistent/program-\(UUID().uuidString)"
        #expect(throws: SpawnError.programCouldNotStart(program: missing, reason: SystemError(ENOENT))) {
            try ChildProcess.run(missing)
        }
    }

    @Test func outputStopsAtItsLimitAndTheChildIsKilled() throws {
        let ended = try ChildProcess.run("/usr/bin/yes", output: .capture, errors: .null, timeout: 60, outputLimit: 100_000)
        #expect(ended.outputTruncated)
        #expect(ended.standardOutput.count == 100_000)
        #expect(ended.signalled)
    }

    /// This process ignoring SIGPIPE (as it does once input is written) is not passed on: a
    /// pipeline's writer still ends quietly when its reader stops.
    @Test func ignoredSignalsAreNotInherited() throws {
        signal(SIGPIPE, SIG_IGN)
        let ended = try ChildProcess.run("/bin/sh", ["-c", "yes | head -n 1 > /dev/null"], timeout: 60)
        #expect(ended.succeeded)
        #expect(ended.standardError.isEmpty, "yes saw a broken pipe instead of SIGPIPE")
    }

    @Test func outputToAFileAndAWatchedChild() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)").path
        defer { unlink(path) }
        let child = try ChildProcess("/bin/sh", ["-c", "echo written; exec sleep 60"], output: .file(path))
        #expect(child.isRunning)
        var waited = 0
        while (try? String(contentsOfFile: path, encoding: .utf8)) != "written\n", waited < 3000 {
            usleep(10_000)
            waited += 10
        }
        child.send(SIGKILL)
        let ended = child.wait(timeout: 30)
        #expect(ended.signalled && ended.status == SIGKILL)
        #expect(!child.isRunning)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "written\n")
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }
}

/// A contained child (`contained: true`): beneath a reaper of its own, whatever its tree leaves
/// behind is found, counted and killed before the wait returns; a tidy child leaves nothing.
@Suite struct ContainedChildTests {
    /// Without and, where this process may make namespaces (root), with `isolated`.
    static let isolations = getuid() == 0 ? [false, true] : [false]

    @Test(arguments: isolations) func aTidyChildLeavesNoSurvivor(isolated: Bool) throws {
        let ended = try ChildProcess.run("/bin/sh", ["-c", "echo out; (sleep 0.1) ; exit 4"], timeout: 60, contained: true,
                                         isolated: isolated)
        #expect(ended.isolation.ownPidNamespace == isolated && ended.isolation.privateProc == isolated)
        #expect(ended.status == 4 && !ended.signalled)
        #expect(ended.survivors == 0)
        #expect(String(decoding: ended.standardOutput, as: UTF8.self) == "out\n")
    }

    /// A double fork into a new session (a daemon) outlives its parent: it falls to the reaper,
    /// which kills it; it never writes the file it meant to write after the wait.
    @Test(arguments: isolations) func aDaemonIsASurvivorAndIsKilledBeforeTheWaitReturns(isolated: Bool) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("contained-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let late = root + "/late"
        let script = "setsid sh -c 'sleep 2; echo late > \(late)' > /dev/null 2>&1 < /dev/null & exit 0"
        let ended = try ChildProcess.run("/bin/sh", ["-c", script], output: .null, errors: .null, timeout: 60, contained: true,
                                         isolated: isolated)
        #expect(ended.status == 0)
        #expect(ended.survivors >= 1)
        Thread.sleep(forTimeInterval: 3)
        #expect(!FileManager.default.fileExists(atPath: late))
    }

    /// Past the time limit the reaper kills the program's group, then what escaped it.
    @Test(arguments: isolations) func theTimeLimitStillEmptiesTheTree(isolated: Bool) throws {
        let start = Date()
        let ended = try ChildProcess.run("/bin/sh", ["-c", "setsid sleep 30 & sleep 30"], output: .null, errors: .null,
                                         timeout: 1, contained: true, isolated: isolated)
        #expect(Date().timeIntervalSince(start) < 20)
        #expect(ended.timedOut)
        #expect(ended.survivors >= 1)
    }

    @Test(arguments: isolations) func aProgramThatCannotStartEndsWith127(isolated: Bool) throws {
        let ended = try ChildProcess.run("/nonexistent/program", [], timeout: 60, contained: true, isolated: isolated)
        #expect(ended.status == 127)
        #expect(ended.survivors == 0)
    }

    /// An isolated tree is pid 2 of a namespace of its own (its reaper is 1), its /proc lists only
    /// that namespace, and no process outside (this one) can be read there by its pid.
    @Test(.enabled(if: getuid() == 0, "namespaces need CAP_SYS_ADMIN"))
    func anIsolatedTreeSeesOnlyItsOwnNamespace() throws {
        let script = "echo $$; ls /proc | grep -c '^[0-9]'; cat /proc/\(getpid())/cmdline > /dev/null 2>&1 && echo readable || echo unreadable"
        let ended = try ChildProcess.run("/bin/sh", ["-c", script], timeout: 60, contained: true, isolated: true)
        #expect(ended.succeeded)
        #expect(ended.isolation == Termination.Isolation(ownPidNamespace: true, privateProc: true))
        let lines = String(decoding: ended.standardOutput, as: UTF8.self).split(separator: "\n")
        try #require(lines.count == 3)
        #expect(lines[0] == "2")
        #expect((Int(lines[1]) ?? 99) <= 5)
        #expect(lines[2] == "unreadable")
        // The host's /proc is untouched: this process still reads its own there.
        #expect(FileManager.default.contents(atPath: "/proc/\(getpid())/cmdline") != nil)
    }
}
