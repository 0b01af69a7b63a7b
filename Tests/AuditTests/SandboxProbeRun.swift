import Foundation
import Testing
import TestSupport

/// One run of the SandboxProbe executable in fresh directories, with what it printed per attempt.
///
/// The probe confines itself, never the test process: Landlock and seccomp cannot be lifted, and
/// the test runner has many threads, which confinement would refuse anyway.
struct SandboxProbeRun {
    let status: Int32
    /// Attempt name ("write-outside", "thread:connect-tcp") to outcome ("ok", "EACCES", …).
    let outcomes: [String: String]
    let lines: [String]
    /// The directory the probe was allowed to write beneath (deleted after the run).
    let allowed: String
    /// What the directory outside held after the run.
    let outsideNames: Set<String>

    /// The probe is built next to the test bundle (`swift build` builds every executable target).
    static var executable: URL {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("SandboxProbe")
    }

    static func run(_ flags: [String] = []) throws -> SandboxProbeRun {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-probe-\(UUID().uuidString)").path
        let allowed = root + "/allowed", outside = root + "/outside"
        for directory in [allowed, outside] { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try LoopbackListener(directory: outside)
        let datagrams = try UnixDatagramListener(directory: outside)

        let probe = try Subprocess.run(executable.path, ["--allowed", allowed, "--outside", outside, "--port", String(listener.tcpPort),
                                        "--abstract", listener.abstractName, "--unix-path", listener.unixPath,
                                        "--unix-datagram", datagrams.path] + flags)
        let data = probe.standardOutput
        withExtendedLifetime((listener, datagrams)) {}

        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        var outcomes: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { outcomes[parts[0]] = parts[1] }
        }
        let outsideNames = Set((try? FileManager.default.contentsOfDirectory(atPath: outside)) ?? [])
        return SandboxProbeRun(status: probe.signalled ? 128 + probe.status : probe.status, outcomes: outcomes, lines: lines, allowed: allowed,
                               outsideNames: outsideNames)
    }

    /// The outcome of an attempt on the main thread and on the thread started after confinement.
    func both(_ attempt: String) -> [String?] { [outcomes[attempt], outcomes["thread:" + attempt]] }

    /// The `sandbox` report the probe printed after confining, parsed back.
    var report: [String: Any]? {
        guard let json = outcomes["confined"], let data = json.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}
