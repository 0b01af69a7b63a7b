import Foundation
import Testing
import TestSupport
@testable import Audit
@testable import Confinement
import Privacy

/// `replay audit` against deliberately leaky programs: each leak is caught and named, the clean
/// program passes, and an audit that cannot run never passes.
@Suite(.serialized, .tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct AuditorTests {
    @Test func cleanProgramPassesWithZeroFindings() {
        let run = LeakyFixtureRun.audit("clean")
        defer { run.remove() }
        #expect(run.result.findings.isEmpty, "\(run.result.findings.map(\.message))")
        #expect(run.result.problems.isEmpty, "\(run.result.problems)")
        #expect(run.result.verdict == .clean)
        #expect(run.result.sandboxEnforced == true)
        #expect(run.result.hashes?.prompts == 1)
        #expect(run.result.hashes?.promptsWithCanary == 1)
        #expect(run.result.hashes?.outputs == 3)
        #expect(run.result.scannedSources >= 4)   // stdout, stderr, report.json, the hashes file
        #expect(run.sarifRuleIds.isEmpty)
        #expect(run.junit.contains(#"failures="0" errors="0""#))
    }

    @Test func canaryWrittenOutsideTheDirectoryIsCaught() throws {
        let run = LeakyFixtureRun.audit("write-canary-outside", ["{outside}/prompt.txt"])
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.writeOutsideOut, .canaryInOutput])
        let write = try #require(run.result.findings(.writeOutsideOut).first)
        // A place outside the run's directory is named by a salted hash, never by its path.
        #expect(write.location == run.result.places?.show(run.root + "/outside/prompt.txt"))
        #expect(write.location?.contains("prompt") == false)
        let canary = try #require(run.result.findings(.canaryInOutput).first)
        #expect(canary.location == write.location)
        #expect(canary.line == 1)
        #expect(Set(run.sarifRuleIds) == ["write-outside-out", "canary-in-output"])
    }

    @Test func canaryInTheReportIsCaught() throws {
        let run = LeakyFixtureRun.audit("canary-in-report")
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.canaryInOutput])
        let finding = try #require(run.result.findings(.canaryInOutput).first)
        #expect(finding.location?.hasSuffix("/audit/run/report.json") == true)
        #expect(finding.byteOffset != nil)
    }

    @Test func modelOutputOnStderrIsCaught() throws {
        let run = LeakyFixtureRun.audit("output-to-stderr")
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.modelOutputInOutput])
        let finding = try #require(run.result.findings(.modelOutputInOutput).first)
        #expect(finding.location == "stderr")
        #expect(finding.line == 2)   // "chips ready" is line 1 and is not an output
    }

    @Test func tcpConnectionToLoopbackIsCaught() throws {
        let listener = try TCPListener()
        let run = LeakyFixtureRun.audit("tcp-connect", [String(listener.port)])
        defer { run.remove() }
        withExtendedLifetime(listener) {}
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.networkEgress])
        let messages = run.result.findings(.networkEgress).map(\.message)
        #expect(messages.contains { $0.contains("socket of family AF_INET") })
        let place = try #require(run.result.places).show(address: "127.0.0.1:\(listener.port)", family: "AF_INET")
        #expect(messages.contains { $0.contains("connect to \(place)") })
    }

    @Test func udpDatagramToLoopbackIsCaught() throws {
        let listener = try TCPListener()   // any free port number; the datagram needs no listener
        let run = LeakyFixtureRun.audit("udp-send", [String(listener.port)])
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.networkEgress])
        let place = try #require(run.result.places).show(address: "127.0.0.1:\(listener.port)", family: "AF_INET")
        #expect(run.result.findings(.networkEgress).contains { $0.message.contains("sendto to \(place)") })
    }

    @Test func unsandboxedRunIsCaught() {
        let run = LeakyFixtureRun.audit("unsandboxed")
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.unsandboxed])
        #expect(run.result.sandboxEnforced == false)
        #expect(run.junit.contains(#"name="unsandboxed">"#))
    }

    /// The sandbox itself, seen by the audit: inside a confined run, writing outside and
    /// connecting to 127.0.0.1 both fail, and show up as notes that do not fail the audit.
    @Test func confinedRunsAttemptsAreRefusedAndNoted() throws {
        let listener = try TCPListener()
        let run = LeakyFixtureRun.audit("confined-attempts", [String(listener.port), "{outside}/escape.txt"])
        defer { run.remove() }
        withExtendedLifetime(listener) {}
        #expect(run.result.verdict == .clean, "\(run.result.findings.map(\.message)) \(run.result.problems)")
        #expect(run.errorRules.isEmpty)
        // Landlock's refusal reaches the trace; seccomp's (the socket) returns before strace's own
        // filter (`--seccomp-bpf`) would report it, so it leaves no note: nothing was sent either way.
        #expect(run.rules == [.blockedWriteAttempt])
        #expect(run.result.findings(.blockedWriteAttempt).first?.location == run.result.places?.show(run.root + "/outside/escape.txt"))
        #expect(!FileManager.default.fileExists(atPath: run.root + "/outside/escape.txt"))
    }

    /// Devices that hold nothing, opened by an ordinary program, are never a finding (strace's
    /// `-yy` annotates them: `3</dev/null<char 1:3>>`).
    @Test func devicesThatHoldNothingAreNotFindings() {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let script = "open('/dev/null', 'w').write('x'); open('/dev/urandom', 'rb').read(4); open('/dev/zero', 'rb').read(4)"
        let result = Auditor.run(command: ["/usr/bin/env", "python3", "-c", script], outDirectory: root + "/audit")
        #expect(result.verdict == .clean, "\(result.findings.map(\.message)) \(result.problems)")
        #expect(result.findings.isEmpty)
    }

    /// The terminal the audit was given is the person's own screen: a run that opens it is not
    /// writing anywhere else.
    @Test func theAuditorsOwnTerminalIsAllowed() {
        let allowed = AllowedPlaces(directory: "/out", streams: [], terminals: ["/dev/pts/7", "/dev/tty"])
        #expect(allowed.contains("/dev/pts/7"))
        #expect(allowed.contains("/dev/tty"))
        #expect(!allowed.contains("/dev/pts/8"))
        #expect(!allowed.contains("/dev/shm/x"))
    }

    @Test func missingCommandCannotRun() {
        let run = LeakyFixtureRun.audit("clean")
        defer { run.remove() }
        let result = Auditor.run(command: ["/nonexistent/replay-audit-test"], outDirectory: run.root + "/other")
        #expect(result.verdict == .couldNotRun)
        #expect(result.problems == [.commandNotFound("/nonexistent/replay-audit-test")])
        #expect(FileManager.default.fileExists(atPath: run.root + "/other/audit.sarif"))
    }

    /// Past its time limit the command is killed with everything it started, and the audit says so.
    @Test func aCommandPastTheTimeLimitIsKilledAndCannotPass() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audit-limit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let start = Date()
        let result = Auditor.run(command: ["/bin/sh", "-c", "sleep 60 & sleep 60"], outDirectory: root, timeLimit: 1)
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(result.verdict == .couldNotRun)
        #expect(result.problems == [.commandTimedOut(seconds: 1)])
        #expect(FileManager.default.fileExists(atPath: root + "/audit.sarif"))
    }

    @Test func missingStraceCannotRun() {
        let run = LeakyFixtureRun.audit("clean", strace: "/nonexistent/strace")
        defer { run.remove() }
        #expect(run.result.verdict == .couldNotRun)
        #expect(run.result.problems == [.straceMissing(path: "/nonexistent/strace")])
        #expect(run.junit.contains("<error"))
    }

    @Test func failingCommandCannotPass() {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = Auditor.run(command: ["/bin/false"], outDirectory: root + "/audit")
        #expect(result.verdict == .couldNotRun)
        #expect(result.problems == [.commandFailed(status: 1)])
    }

    @Test func replayWithoutFingerprintsCannotPass() {
        let root = LeakyFixtureRun.freshRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = Auditor.run(command: ["/bin/true"], outDirectory: root + "/audit", isReplay: true)
        #expect(result.verdict == .couldNotRun)
        #expect(result.problems.contains(.hashesMissing(path: root + "/audit/run/" + Auditor.hashesFileName)))
    }

    @Test func aSecondAuditReusesItsOwnDirectoryButNotAForeignOne() throws {
        let first = LeakyFixtureRun.audit("clean")
        defer { first.remove() }
        let again = Auditor.run(command: [LeakyFixtureRun.executable, "clean"], outDirectory: first.auditDirectory)
        #expect(again.verdict == .clean)
        let foreign = first.root + "/foreign"
        try FileManager.default.createDirectory(atPath: foreign + "/run", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: foreign + "/run/keep.txt", contents: Data("mine".utf8))
        let refused = Auditor.run(command: [LeakyFixtureRun.executable, "clean"], outDirectory: foreign)
        #expect(refused.verdict == .couldNotRun)
        #expect(FileManager.default.fileExists(atPath: foreign + "/run/keep.txt"))
    }

    /// The verdict never carries the canary or the words: only rule ids, places and counts.
    @Test func verdictFilesHoldNoLeakedText() {
        let run = LeakyFixtureRun.audit("output-to-stderr")
        defer { run.remove() }
        for name in ["audit.sarif", "audit-junit.xml"] {
            let text = String(decoding: FileManager.default.contents(atPath: run.auditDirectory + "/" + name) ?? Data(), as: UTF8.self)
            #expect(!text.isEmpty)
            #expect(!text.lowercased().contains("sounds good"), "\(name)")
        }
        #expect(!run.result.summary.lowercased().contains("sounds good"))
    }

    @Test func sarifIsVersion210WithEveryRule() throws {
        let run = LeakyFixtureRun.audit("unsandboxed")
        defer { run.remove() }
        #expect(run.sarif["version"] as? String == "2.1.0")
        #expect(run.sarif["$schema"] as? String != nil)
        let runs = try #require(run.sarif["runs"] as? [[String: Any]])
        let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "replay-audit")
        let ids = (driver["rules"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        #expect(ids == AuditRule.allCases.map(\.rawValue))
        let result = try #require((runs.first?["results"] as? [[String: Any]])?.first)
        #expect(result["level"] as? String == "error")
        let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        let uri = (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri?.hasPrefix("file:///") == true)
    }
}
