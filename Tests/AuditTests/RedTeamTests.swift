import Foundation
import Spawn
import Testing
@testable import Audit
import Privacy

/// The red team: one deliberately leaky program per channel of the README's privacy table, run
/// unconfined, so that what the sandbox would have blocked is left to the audit to see. Each is
/// caught with its named rule; the clean program is not.
@Suite(.serialized) struct RedTeamTests {
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
        Channel(mode: "exec", rules: [.programExecuted], isReplay: true),
        Channel(mode: "remove-in-out", rules: [.removedBeforeScan]),
        Channel(mode: "short-output-to-stderr", rules: [.modelOutputInOutput]),
        Channel(mode: "cjk-output-to-stderr", rules: [.modelOutputInOutput]),
    ] + ["base64-0", "base64-1", "base64-2", "hex", "utf16le", "utf16be", "json-u", "percent", "split", "zstd", "gzip"].map {
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

    @Test func aSignalToAnotherProcessIsCaught() throws {
        // Killed and reaped when the test lets go of it.
        let sleeper = try ChildProcess("/bin/sleep", ["20"])
        let run = LeakyFixtureRun.audit("signal", [String(sleeper.processIdentifier)])
        defer { run.remove() }
        #expect(run.result.verdict == .findings)
        #expect(run.errorRules == [.signalToOtherProcess])
        withExtendedLifetime(sleeper) {}
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
