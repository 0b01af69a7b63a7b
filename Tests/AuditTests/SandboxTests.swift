import Foundation
import Testing
@testable import Audit
import Privacy

/// The sandbox as the kernel enforces it, observed from a confined subprocess (SandboxProbe).
@Suite struct SandboxTests {
    static let fileWrites = ["write-outside", "create-outside", "mkdir-outside", "symlink-outside", "rename-outside",
                             "move-out", "unlink-outside", "truncate-outside"]
    static let allowedWrites = ["write-inside", "rename-inside", "mkdir-inside", "unlink-inside",
                                "write-devnull", "write-preopened", "write-stderr"]
    static let networkSockets = ["connect-tcp", "bind-tcp", "udp-sendto", "inet6-socket", "netlink-socket"]
    static let unixSockets = ["unix-socket", "unix-socketpair", "connect-named-unix"]

    /// The kernel here must enforce it, or every other test would pass for the wrong reason.
    @Test func kernelOffersLandlockWithNetworkRules() {
        #expect(Sandbox.probe() >= Sandbox.minimumABI)
    }

    @Test func confinedProbeWritesOnlyInsideTheAllowedDirectory() throws {
        let run = try SandboxProbeRun.run()
        #expect(run.status == 0, "\(run.lines)")
        for attempt in Self.allowedWrites {
            #expect(run.both(attempt) == ["ok", "ok"], "\(attempt)")
        }
        for attempt in Self.fileWrites {
            for outcome in run.both(attempt) {
                #expect(outcome == "EACCES" || outcome == "EPERM" || outcome == "EXDEV", "\(attempt): \(outcome ?? "missing")")
            }
        }
    }

    @Test func confinedProbeLeftNothingOutside() throws {
        let run = try SandboxProbeRun.run()
        #expect(run.status == 0)
        // What the probe made before confining is all there is; nothing was created, moved or cut.
        let names = run.outsideNames
        #expect(names.isSuperset(of: ["main-victim", "main-rename-source", "thread-victim", "thread-rename-source"]))
        #expect(names.isDisjoint(with: ["main-created", "main-dir", "main-link", "main-renamed", "main-escaped",
                                         "thread-created", "thread-escaped"]))
    }

    @Test func confinedProbeOpensNoNetworkSocket() throws {
        let run = try SandboxProbeRun.run()
        #expect(run.status == 0)
        for attempt in Self.networkSockets {
            #expect(run.both(attempt) == ["EPERM", "EPERM"], "\(attempt)")
        }
        for attempt in Self.unixSockets {
            #expect(run.both(attempt) == ["ok", "ok"], "\(attempt)")
        }
        // Landlock's scope (ABI 6) also stops abstract UNIX sockets made outside the sandbox.
        #expect(run.both("connect-abstract-unix") == ["EPERM", "EPERM"])
    }

    /// Landlock alone denies TCP but not UDP or other families: the reason seccomp is there.
    @Test func landlockAloneDeniesTCPButNotUDP() throws {
        let run = try SandboxProbeRun.run(["--no-seccomp"])
        #expect(run.status == 0)
        #expect(run.both("connect-tcp") == ["EACCES", "EACCES"])
        #expect(run.both("bind-tcp") == ["EACCES", "EACCES"])
        #expect(run.both("udp-sendto") == ["ok", "ok"])
        #expect(run.both("inet6-socket") == ["ok", "ok"])
        #expect(run.report?["enforced"] as? Bool == false)
        #expect(run.report?["non_unix_sockets_denied"] as? Bool == false)
    }

    /// Without confinement every attempt succeeds, so the denials above are the sandbox's doing.
    @Test func unconfinedProbeSucceedsAtEverything() throws {
        let run = try SandboxProbeRun.run(["--unconfined"])
        #expect(run.status == 0)
        #expect(run.outcomes["confined"] == nil)
        for attempt in Self.allowedWrites + Self.fileWrites + Self.networkSockets + Self.unixSockets + ["connect-abstract-unix"] {
            #expect(run.both(attempt) == ["ok", "ok"], "\(attempt)")
        }
    }

    @Test func reportSaysWhatTheKernelEnforces() throws {
        let run = try SandboxProbeRun.run()
        let report = try #require(run.report)
        #expect(report["enforced"] as? Bool == true)
        #expect((report["landlock_abi"] as? Int ?? 0) >= 4)
        let allowed = URL(fileURLWithPath: run.allowed).resolvingSymlinksInPath().path
        #expect(report["writable_directories"] as? [String] == [allowed])
        #expect(report["writable_files"] as? [String] == ["/dev/null"])
        let denied = report["denied_filesystem_access"] as? [String] ?? []
        #expect(Set(denied).isSuperset(of: ["write_file", "remove_file", "remove_dir", "make_reg", "make_dir", "make_sym",
                                            "refer", "truncate"]))
        #expect(report["tcp_denied"] as? Bool == true)
        #expect(report["non_unix_sockets_denied"] as? Bool == true)
        #expect(report["threads_at_confinement"] as? Int == 1)
        #expect(report["all_threads_confined"] as? Bool == true)
        #expect(report["unsandboxed_reason"] is NSNull)
        #expect(run.outcomes["threads-before"] == "1")
    }

    /// A thread that runs before confinement would escape Landlock (up to ABI 7): confine refuses.
    @Test func threadStartedBeforeConfinementIsRefusedOrSynced() throws {
        let run = try SandboxProbeRun.run(["--thread-first"])
        if Sandbox.probe() >= Sandbox.threadSyncABI {
            #expect(run.status == 0)
            #expect(run.report?["all_threads_confined"] as? Bool == true)
        } else {
            #expect(run.status == 3)
            let failure = try #require(run.outcomes["confine-failed"])
            #expect(failure.contains("already runs 2 threads"))
            #expect(run.outcomes["write-outside"] == nil, "nothing may run after a refused confinement")
        }
    }

    @Test func missingWritableDirectoryIsRefusedBeforeConfining() throws {
        // A directory that does not exist cannot be allowed; the error names it.
        let missing = "/nonexistent-\(UUID().uuidString)"
        let process = Process()
        process.executableURL = SandboxProbeRun.executable
        process.arguments = ["--allowed", missing, "--outside", "/tmp", "--port", "1"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        #expect(text.contains("confine-failed Writes beneath \(missing) could not be allowed"))
    }
}
