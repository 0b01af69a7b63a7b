import Foundation
import Spawn
import Testing
import TestSupport
@testable import Audit
@testable import Confinement
import Privacy

/// The red team: one deliberately leaky program per channel of docs/privacy.md's channel table, run
/// unconfined, so that what the sandbox would have blocked is left to the audit to see. Each is
/// caught with its named rule; the clean program is not.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct RedTeamTests {
    /// A channel: the fixture's mode and arguments (`{outside}` is a directory outside the run),
    /// and the error rules the audit must name.
    struct Channel: Sendable, CustomTestStringConvertible {
        var mode: String
        var arguments: [String] = []
        var rules: Set<AuditRule>
        var isReplay = false
        var testDescription: String { ([mode] + arguments).joined(separator: " ") }
    }

    static let channels: [Channel] = [
        Channel(mode: "netlink", rules: [.networkEgress]),
        Channel(mode: "xattr-in-out", rules: [.metadataWrite, .canaryInOutput]),
        Channel(mode: "chmod-in-out", rules: [.metadataWrite]),
        Channel(mode: "utime-outside", arguments: ["{outside}"], rules: [.metadataWrite]),
        Channel(mode: "name-in-out", rules: [.canaryInOutput]),
        Channel(mode: "symlink-in-out", rules: [.canaryInOutput]),
        Channel(mode: "hardlink-outside", arguments: ["{outside}/linked"], rules: [.writeOutsideOut]),
        Channel(mode: "fifo-outside", arguments: ["{outside}/pipe"], rules: [.writeOutsideOut]),
        Channel(mode: "sysv-shm", rules: [.kernelObject]),
        Channel(mode: "sysv-msg", rules: [.kernelObject]),
        Channel(mode: "sysv-sem", rules: [.kernelObject]),
        // Audited as replay: its partial report.json (no writer writes one so) is a finding too.
        Channel(mode: "exec", rules: [.unexpectedResultContent, .programExecuted], isReplay: true),
        // The bytes written are in the trace: the canary is found though its file is gone.
        Channel(mode: "remove-in-out", rules: [.removedBeforeScan, .canaryInOutput]),
        Channel(mode: "canary-truncated", rules: [.canaryInOutput]),
        Channel(mode: "canary-overwritten", rules: [.canaryInOutput]),
        Channel(mode: "canary-stdout-truncated", rules: [.canaryInOutput]),
        Channel(mode: "hex-output-to-stderr", rules: [.modelOutputInOutput]),
        Channel(mode: "base64-output-in-out", rules: [.modelOutputInOutput]),
        Channel(mode: "short-output-to-stderr", rules: [.modelOutputInOutput]),
        Channel(mode: "cjk-output-to-stderr", rules: [.modelOutputInOutput]),
        // Calls the allow-list has not reviewed: state other processes read in /proc.
        Channel(mode: "thread-name", rules: [.unreviewedCall]),
        Channel(mode: "flock", rules: [.unreviewedCall]),
        Channel(mode: "lockf", rules: [.unreviewedCall]),
        Channel(mode: "rlimit", rules: [.unreviewedCall]),
        Channel(mode: "priority", rules: [.unreviewedCall]),
        Channel(mode: "affinity", rules: [.unreviewedCall]),
        Channel(mode: "process-vm-writev", rules: [.unreviewedCall]),
        Channel(mode: "pidfd-getfd", rules: [.unreviewedCall]),
    ] + ["base64-0", "base64-1", "base64-2", "hex", "utf16le", "utf16be", "json-u", "percent", "snake", "camel", "kebab-upper", "url", "lines", "middle",
       "split", "zstd", "gzip"].map {
        Channel(mode: "encoded", arguments: [$0], rules: [.canaryInOutput])
    }

    @Test(arguments: channels)
    func eachChannelIsCaughtByItsRule(_ channel: Channel) throws {
        let run = LeakyFixtureRun.audit(channel.mode, channel.arguments, isReplay: channel.isReplay)
        defer { run.remove() }
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == channel.rules)
        #expect(Set(run.sarifRuleIds).isSuperset(of: channel.rules.map(\.rawValue)))
    }

    @Test func aDatagramToANamedUnixSocketIsCaught() throws {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try UnixListener(path: root + "/listener.sock")
        let run = LeakyFixtureRun.audit("unix-dgram", [root + "/listener.sock"])
        defer { run.remove() }
        #expect(listener.pendingBytes > 0)   // the datagram really left: an unconfined run can
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.networkEgress])
        #expect(run.result.findings(.networkEgress).allSatisfy { !$0.message.contains("listener") })
    }

    @Test func aConnectionToAnAbstractUnixSocketIsCaught() throws {
        let name = "replay-red-team-\(UUID().uuidString)"
        let listener = try UnixListener(abstractName: name)
        let run = LeakyFixtureRun.audit("unix-abstract", [name])
        defer { run.remove() }
        withExtendedLifetime(listener) {}
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.networkEgress])
    }

    /// Where the auditor cannot make namespaces, a signal to another process by its pid arrives,
    /// and the audit names it.
    @Test func aSignalToAnotherProcessIsCaught() throws {
        // Killed and reaped when the test lets go of it.
        let sleeper = try ChildProcess("/bin/sleep", ["20"])
        let run = LeakyFixtureRun.audit("signal", [String(sleeper.processIdentifier)], isolated: false)
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.signalToOtherProcess])
        #expect(run.result.isolation == nil)
        withExtendedLifetime(sleeper) {}
    }

    /// The fallback as it happens, not as a plan asks for it: `replay audit` itself without
    /// CAP_SYS_ADMIN (setpriv drops it from the bounding set), so the reaper's unshare is refused.
    /// The audit still runs, says in its summary and its SARIF that the command shared the host's
    /// PID namespace and why, and the trace still catches a signal to another process by pid.
    @Test(.enabled(if: getuid() == 0, "setpriv drops a capability root holds"))
    func withoutTheCapabilityTheAuditFallsBackToTheHostsNamespaceAndSaysSo() throws {
        let sleeper = try ChildProcess("/bin/sleep", ["20"])
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let run = try Subprocess.run("/usr/bin/setpriv", ["--bounding-set=-sys_admin", "--inh-caps=-sys_admin",
                                                          BuiltProducts.executable("replay"), "audit", "--out", root + "/audit", "--",
                                                          LeakyFixtureRun.executable, "signal", String(sleeper.processIdentifier)])
        #expect(run.status == 6, "\(run.errors)")
        #expect(run.errors.contains("the command ran in the host's PID namespace (Operation not permitted"), "\(run.errors)")
        #expect(run.errors.contains("signal-to-other-process"), "\(run.errors)")
        let sarif = try #require(FileManager.default.contents(atPath: root + "/audit/audit.sarif"))
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        let properties = try #require((log["runs"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
        #expect(properties["own_pid_namespace"] as? Bool == false && properties["private_proc"] as? Bool == false)
        withExtendedLifetime(sleeper) {}
    }

    /// In a PID namespace of its own no pid outside the run names a process: the same signal
    /// finds nobody (ESRCH), and the sleeper is never stopped or continued.
    @Test(.enabled(if: getuid() == 0, "namespaces need CAP_SYS_ADMIN"))
    func aSignalToAnotherProcessFindsNobodyInTheRunsOwnNamespace() throws {
        let sleeper = try ChildProcess("/bin/sleep", ["20"])
        let run = LeakyFixtureRun.audit("signal", [String(sleeper.processIdentifier)])
        defer { run.remove() }
        #expect(run.result.isolation == Termination.Isolation(ownPidNamespace: true, privateProc: true))
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        #expect(run.result.verdict == .clean, "\(run.result.findings.map(\.message))")
        #expect(sleeper.isRunning)
    }

    /// What a PID namespace with its own /proc prevents, and what it does not. The fixture
    /// overwrites its argument area with the canary (plain memory, no system call: no audit can
    /// see it) and stays a while. From inside it can read nothing of a process outside the run
    /// (this test's own /proc/PID/cmdline) and sees only its namespace's few pids. From outside,
    /// the namespace hides nothing: the host's /proc lists it under its host pid, and its
    /// cmdline, with the canary, is readable by root and by any other user (`nobody` here); its
    /// environ by root only, not by another user. docs/privacy.md, "What stays open".
    @Test(.enabled(if: getuid() == 0, "namespaces need CAP_SYS_ADMIN, setpriv needs root"))
    func aRewrittenArgumentAreaIsReadableFromOutsideTheNamespace() throws {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let filler = String(repeating: "x", count: 120)
        let observed = ObservedFixture()
        let observer = Thread { observed.watch(filler: filler) }
        observer.start()
        let run = LeakyFixtureRun.audit("argv-canary", [String(getpid()), filler])
        defer { run.remove() }
        observed.done.wait()
        #expect(run.result.isolation == Termination.Isolation(ownPidNamespace: true, privateProc: true))
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        // Unseen by the audit: the argument area is memory.
        #expect(run.result.verdict == .clean, "\(run.result.findings.map(\.message))")
        // Prevented: from inside, nothing outside the run can be read, and few pids exist.
        let peek = String(decoding: FileManager.default.contents(atPath: run.auditDirectory + "/run/peek.txt") ?? Data(), as: UTF8.self)
        let lines = Dictionary(uniqueKeysWithValues: peek.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), String(parts.last!))
        })
        #expect(lines["outside-readable"] == "false")
        #expect((Int(lines["processes"] ?? "") ?? 99) <= 4)
        // Not prevented: from outside, root and another user read the canary in its cmdline;
        // another user cannot read its environ.
        #expect(observed.found)
        #expect(observed.rootReadsCanaryInCmdline)
        #expect(observed.otherUserReadsCanaryInCmdline)
        #expect(!observed.otherUserReadsEnviron)
    }

    /// A named socket whose relative path begins with `UNIX` is a socket like any other: the
    /// datagram reaches it, and the audit names it (it once took it for a socketpair's annotation).
    @Test func aSocketNamedLikeAnAnnotationIsCaught() throws {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try UnixListener(path: root + "/UNIX.sock")
        let run = LeakyFixtureRun.audit("unix-prefix", [root])
        defer { run.remove() }
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        #expect(listener.pendingBytes > 0)   // the datagram really left
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.networkEgress])
    }

    /// A child strace is not told of (CLONE_UNTRACED) outlives the trace, sleeping, to append the
    /// canary after the verdict to report.json, which its parent opened for it: the clone is a
    /// finding, the sleeper a survivor, killed before the scan, and nothing is written after the
    /// verdict.
    @Test func aChildThatEscapesTheTraceIsASurvivorAndCannotActAfterTheVerdict() throws {
        let run = LeakyFixtureRun.audit("untraced-child")
        defer { run.remove() }
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.unreviewedCall, .survivor])
        #expect(run.result.findings(.unreviewedCall).contains { $0.message.contains("CLONE_UNTRACED") })
        // The child meant to write 5 s after it started; give it more than that. The file its
        // parent opened for it stays empty.
        Thread.sleep(forTimeInterval: 6)
        let report = try #require(FileManager.default.contents(atPath: run.auditDirectory + "/run/report.json"))
        #expect(report.isEmpty)
    }

    /// The command's standard input is /dev/null, read-only, whatever the auditor's is: a caller
    /// whose own is a file open for reading and writing (here the test process's, for the length
    /// of one audit) hands the command nothing to write to.
    @Test func theCommandsStandardInputIsDevNull() throws {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = root + "/stdin.txt"
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        let saved = dup(0)
        let readWrite = open(file, O_RDWR)
        try #require(saved >= 0 && readWrite >= 0)
        dup2(readWrite, 0)
        close(readWrite)
        let run = LeakyFixtureRun.audit("write-stdin")
        dup2(saved, 0)
        close(saved)
        defer { run.remove() }
        // The fixture exits 3 (a problem, never clean) when its write succeeds.
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        #expect(run.result.verdict == .clean, "\(run.result.findings.map(\.message))")
        #expect((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) == 0)
    }

    /// The verdict of every leaky run names rules and places, never the canary or the words.
    @Test(arguments: ["xattr-in-out", "name-in-out", "symlink-in-out", "short-output-to-stderr"])
    func verdictsCarryNoLeakedText(_ mode: String) throws {
        let run = LeakyFixtureRun.audit(mode)
        defer { run.remove() }
        let canary = try #require(run.result.hashes).digests.isEmpty ? "" : "tomorrow"
        for name in [AuditVerdict.sarifName, AuditVerdict.junitName] {
            let text = String(decoding: FileManager.default.contents(atPath: run.auditDirectory + "/" + name) ?? Data(), as: UTF8.self)
            #expect(!text.isEmpty)
            #expect(!text.lowercased().contains(canary))
            #expect(!text.contains("notes/"))
        }
    }
}

/// Watches the host's /proc for the `argv-canary` fixture, as an observer outside its namespace.
final class ObservedFixture: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var found = false
    var rootReadsCanaryInCmdline = false
    var otherUserReadsCanaryInCmdline = false
    var otherUserReadsEnviron = false

    func watch(filler: String) {
        defer { done.signal() }
        let deadline = Date().addingTimeInterval(60)
        let fixture = LeakyFixtureRun.executable
        while Date() < deadline {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
                let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe")) ?? ""
                guard exe == fixture,
                      let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                      let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                      !cmdline.contains(Data(filler.utf8)) else { continue }
                // The canary the auditor gave it, from its environment (root may read it).
                let prefix = Data((AuditEnvironment.canary + "=").utf8)
                guard let variable = environ.split(separator: 0).first(where: { $0.starts(with: prefix) }) else { continue }
                let canary = Data(variable.dropFirst(prefix.count))
                found = true
                // The fixture zeroes its argument area before it copies the canary in: between
                // the two the filler is gone and the canary not yet there. Look again.
                rootReadsCanaryInCmdline = cmdline.range(of: canary) != nil
                guard rootReadsCanaryInCmdline else { continue }
                let other = { (file: String) in
                    try? ChildProcess.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/cat",
                                                               "/proc/\(entry)/" + file], timeout: 10)
                }
                if let read = other("cmdline") { otherUserReadsCanaryInCmdline = read.succeeded && read.standardOutput.range(of: canary) != nil }
                if let read = other("environ") { otherUserReadsEnviron = read.succeeded && !read.standardOutput.isEmpty }
                return
            }
            usleep(10_000)
        }
    }
}
