@testable import Audit
import Foundation
import Testing
import TestSupport

/// `replay audit` accepts exactly `replay suite run --endpoint URL`'s one loopback connection,
/// made before the process confines itself, and still calls every other socket, connect or send
/// network egress: another command's, another address's, a second one, one made after confinement.
@Suite struct EndpointAuditTests {
    static func hex(_ text: String) -> String { StraceLogTests.hex(text) }

    /// A trace of the endpoint's connection as the command makes it, to `port`, with `before`
    /// and `after` lines around the confinement.
    static func trace(port: Int = 1976, before: [String] = [], after: [String] = []) -> String {
        ([
            #"7  socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 3<TCP:[2173592]>"#,
            #"7  connect(3<TCP:[2173592]>, {sa_family=AF_INET, sin_port=htons(\#(port)), sin_addr=inet_addr(""# + hex("127.0.0.1") + #"")}, 16) = 0"#,
        ] + before + [
            #"7  landlock_restrict_self(5<anon_inode:[landlock-ruleset]>, 0) = 0"#,
        ] + after + [
            #"7  sendto(3<TCP:[127.0.0.1:39334->127.0.0.1:\#(port)]>, "\x50\x4f", 843, MSG_NOSIGNAL, NULL, 0) = 843"#,
        ]).joined(separator: "\n")
    }

    static func rules(_ trace: String, command: [String]) -> [AuditRule] {
        var judging = StraceLogTests.judging("/out", isReplay: false)
        judging.endpoint = EndpointConnection.of(command)
        var written: [String] = []
        return Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), judging, written: &written).map(\.rule)
    }

    static let suiteRun = ["/usr/local/bin/replay", "suite", "run", "--endpoint", "http://127.0.0.1:1976", "--out", "/out", "s.json"]

    @Test func theEndpointConnectionMadeBeforeConfinementIsAccepted() {
        #expect(Self.rules(Self.trace(), command: Self.suiteRun) == [])
        #expect(Self.rules(Self.trace(), command: ["replay", "suite", "run", "--out", "/out", "--endpoint", "http://localhost:1976/v1", "s.json"]) == [])
    }

    @Test func everyOtherNetworkUseIsStillEgress() {
        // The same trace from a command that is not `replay suite run --endpoint`.
        for command in [["/usr/bin/python3", "suite", "run", "--endpoint", "http://127.0.0.1:1976"],
                        ["replay", "suite", "run", "--out", "/out", "s.json"],
                        ["replay", "--endpoint", "http://127.0.0.1:1976", "corpus.jsonl"],
                        ["replay", "suite", "run", "--", "--endpoint", "http://127.0.0.1:1976"],
                        ["replay", "suite", "run", "--endpoint", "http://10.0.0.1:1976", "s.json"]] {
            #expect(Self.rules(Self.trace(), command: command).contains(.networkEgress), "\(command)")
        }
        // Another port than the URL's.
        #expect(Self.rules(Self.trace(port: 1977), command: Self.suiteRun) == [.networkEgress, .networkEgress, .networkEgress])
        // A second socket before confinement: neither is the endpoint's.
        let second = #"7  socket(AF_INET6, SOCK_DGRAM, IPPROTO_IP) = 4<UDPv6:[1]>"#
        #expect(Self.rules(Self.trace(before: [second]), command: Self.suiteRun).contains(.networkEgress))
        // A socket, connect or send after confinement, to anywhere.
        let late = [#"7  socket(AF_INET, SOCK_STREAM, IPPROTO_IP) = 6<TCP:[9]>"#,
                    #"7  connect(6<TCP:[9]>, {sa_family=AF_INET, sin_port=htons(1976), sin_addr=inet_addr(""# + Self.hex("127.0.0.1") + #"")}, 16) = 0"#,
                    #"7  sendto(6<UDP:[127.0.0.1:5->10.1.1.1:53]>, "\x50", 1, 0, NULL, 0) = 1"#]
        for line in late {
            #expect(Self.rules(Self.trace(after: [line]), command: Self.suiteRun) == [.networkEgress], "\(line)")
        }
        // Made after confinement only (no connection before it): nothing is accepted.
        let afterOnly = #"7  landlock_restrict_self(5<anon_inode:[landlock-ruleset]>, 0) = 0"# + "\n" + Self.trace()
        #expect(Self.rules(afterOnly, command: Self.suiteRun).contains(.networkEgress))
        // Never confined at all.
        let unconfined = Self.trace().split(separator: "\n").filter { !$0.contains("landlock") }.joined(separator: "\n")
        #expect(Self.rules(unconfined, command: Self.suiteRun).contains(.networkEgress))
    }

    @Test func anAuditedSuiteRunAgainstAnEndpointIsClean() throws {
        let directory = try TemporaryDirectory(prefix: "audit-endpoint")
        let server = try ChatStubServer(responses: [ChatStubServer.answer(#"{"replies":["Yes","Later"]}"#)], in: directory)
        defer { server.stop() }
        let suite = try directory.write("suite.json", text: SuiteText.file([SuiteText.chips("asks", expect: #"{"parses": true}"#)]))
        let audit = directory.path("audit")
        let replay = BuiltProducts.executable("replay")
        let result = Auditor.run(command: [replay, "suite", "run", "--endpoint", server.url, "--out", audit + "/run", suite],
                                 outDirectory: audit, timeLimit: 300)
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(result.verdict == .clean, "\(result.findings.map { "\($0.rule): \($0.message)" })")
        #expect(result.sandboxEnforced == true)
        #expect(server.requests.count == 1)
        // The same run without --endpoint's allowance (another program name) is caught.
        let copy = directory.path("not-replay")
        try FileManager.default.copyItem(atPath: replay, toPath: copy)
        let other = Auditor.run(command: [copy, "suite", "run", "--endpoint", server.url, "--out", directory.path("audit2") + "/run", suite],
                                outDirectory: directory.path("audit2"), timeLimit: 300)
        #expect(other.findings.contains { $0.rule == .networkEgress })
    }
}
