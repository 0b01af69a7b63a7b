import Foundation
import Testing
import TestSupport
@testable import Audit
@testable import Confinement
import Privacy

/// One probe attempt and how a confined probe must fail it, on the main thread and on a thread
/// started after confinement; unconfined, the same attempt must succeed.
struct Channel: Sendable, CustomTestStringConvertible {
    let attempt: String
    /// The errno's name a confined probe gets: EPERM from seccomp, EACCES or EXDEV from Landlock.
    let confined: String
    var testDescription: String { attempt }

    init(_ attempt: String, _ confined: String) {
        self.attempt = attempt
        self.confined = confined
    }
}

/// The sandbox as the kernel enforces it, observed from a confined subprocess (SandboxProbe).
///
/// Each channel is one attempt the probe makes twice: confined, where it must fail with the errno
/// of the mechanism that blocks it, and with `--unconfined`, where it must succeed, so the failure
/// is the sandbox's doing and not the machine's.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct SandboxTests {
    /// One confined and one unconfined run, shared by the tests that only read what they printed.
    static let confined = Result { try SandboxProbeRun.run() }
    static let unconfined = Result { try SandboxProbeRun.run(["--unconfined"]) }

    /// Writes and calls that stay allowed: new files beneath the allowed directory, /dev/null,
    /// descriptors open before confinement, a socket pair, signals to itself.
    static let allowed = ["write-inside", "mkdir-inside", "overwrite-inside", "write-devnull", "write-preopened",
                          "read-preopened", "write-stderr", "unix-socketpair", "signal-self"]
    /// Files outside the allowed directory, /dev/shm and terminals included.
    static let filesOutside = [
        Channel("write-outside", "EACCES"), Channel("create-outside", "EACCES"), Channel("mkdir-outside", "EACCES"),
        Channel("symlink-outside", "EPERM"), Channel("link-outside", "EPERM"), Channel("mkfifo-outside", "EPERM"),
        Channel("rename-outside", "EACCES"), Channel("move-out", "EACCES"), Channel("unlink-outside", "EACCES"),
        Channel("truncate-outside", "EACCES"), Channel("shm-open", "EACCES"), Channel("write-pts", "EACCES"),
    ]
    /// Files beneath the allowed directory: what a run wrote cannot be removed, moved or cut, and
    /// no link or special file can be made there.
    static let takeBack = [
        Channel("rename-inside", "EACCES"), Channel("unlink-inside", "EACCES"), Channel("rmdir-inside", "EACCES"),
        Channel("truncate-inside", "EACCES"), Channel("open-trunc-inside", "EACCES"), Channel("ftruncate-inside", "EACCES"),
        Channel("symlink-inside", "EPERM"), Channel("link-inside", "EPERM"), Channel("mkfifo-inside", "EPERM"),
        Channel("mknod-char-inside", "EPERM"),
    ]
    /// Metadata writes, which Landlock does not check: refused beneath the allowed directory too.
    static let metadata = ["chmod-inside", "chmod-outside", "fchmod", "fchmodat", "fchmodat2", "chown", "lchown", "fchown", "fchownat",
                           "utimes", "utimensat", "futimens", "setxattr", "lsetxattr", "fsetxattr", "removexattr",
                           "lremovexattr", "fremovexattr"].map { Channel($0, "EPERM") }
    /// Sockets of every family, sending to an address, and io_uring.
    static let sockets = ["connect-tcp", "bind-tcp", "udp-sendto", "inet6-socket", "netlink-socket", "unix-socket",
                          "unix-datagram-socket", "connect-abstract-unix", "connect-named-unix", "unix-socketpair-datagram",
                          "socketpair-sendmsg", "sendto-named-unix", "socketpair-sendto-address", "io-uring-setup"]
        .map { Channel($0, "EPERM") }
    /// Kernel state that outlives the process: System V IPC, POSIX message queues, keys, the host name.
    static let kernelObjects = ["shmget", "shmat", "msgget", "msgsnd", "semget", "semop", "mq-open",
                                "add-key", "request-key", "keyctl", "sethostname"].map { Channel($0, "EPERM") }
    /// Other processes: signals to a process started before confinement, running a program, and
    /// turning core dumps back on.
    static let otherProcesses = ["signal-child", "signal-child-usr1", "exec", "set-dumpable", "set-core-limit"]
        .map { Channel($0, "EPERM") }

    /// Storage channels: attributes of this process or of another, or of an object shared with
    /// another, that the kernel shows other processes (most to every user, through /proc). The
    /// seccomp filter allows none of the calls that set them (EPERM), and Landlock refuses the
    /// /proc files that would (EACCES); each attempt sets a value to what it already is.
    static let storageChannels = [
        // Thread names (/proc/PID/comm, stat, task/TID/comm) and the OOM score adjustment.
        Channel("set-name", "EPERM"), Channel("write-proc-comm", "EACCES"), Channel("write-thread-comm", "EACCES"),
        Channel("write-oom-score-adj", "EACCES"),
        // Locks and leases, listed in /proc/locks.
        Channel("flock", "EPERM"), Channel("fcntl-lock", "EPERM"), Channel("ofd-lock", "EPERM"), Channel("lease", "EPERM"),
        // What other holders of a descriptor read: stdin's flags, a pipe's size, a socket's
        // buffers, a terminal's size.
        Channel("setfl-stdin", "EPERM"), Channel("set-pipe-size", "EPERM"), Channel("setsockopt", "EPERM"),
        Channel("set-terminal-size", "EPERM"),
        // Limits (/proc/PID/limits), nice (stat), affinity (status), policy (stat), I/O priority:
        // this process's and another's.
        Channel("set-limit", "EPERM"), Channel("set-priority", "EPERM"), Channel("set-affinity", "EPERM"),
        Channel("set-scheduler", "EPERM"), Channel("set-io-priority", "EPERM"),
        Channel("set-other-limit", "EPERM"), Channel("set-other-priority", "EPERM"), Channel("set-other-affinity", "EPERM"),
        Channel("set-other-scheduler", "EPERM"), Channel("set-other-io-priority", "EPERM"), Channel("pidfd-open", "EPERM"),
        // The process's own settings: umask (status), process group (stat), personality, THP
        // (status), timer slack, namespaces; anonymous files and timers; a child process.
        Channel("umask", "EPERM"), Channel("setpgid", "EPERM"), Channel("set-personality", "EPERM"), Channel("set-thp", "EPERM"),
        Channel("set-timer-slack", "EPERM"), Channel("unshare", "EPERM"), Channel("memfd-create", "EPERM"),
        Channel("timer-create", "EPERM"), Channel("fork", "EPERM"),
    ]

    /// The kernel here must enforce it, or every other test would pass for the wrong reason.
    @Test func kernelOffersLandlockWithNetworkRulesAndScopes() {
        #expect(Sandbox.probe() >= Sandbox.minimumABI)
        #expect(Sandbox.probe() >= Sandbox.scopeABI, "signals_scoped needs ABI 6")
    }

    @Test(arguments: SandboxTests.allowed)
    func allowedAttemptsStillWork(_ attempt: String) throws {
        #expect(try Self.confined.get().both(attempt) == ["ok", "ok"])
    }

    @Test(arguments: SandboxTests.filesOutside + SandboxTests.takeBack + SandboxTests.metadata + SandboxTests.sockets
                     + SandboxTests.kernelObjects + SandboxTests.otherProcesses + SandboxTests.storageChannels)
    func channelIsBlockedConfinedAndOpenUnconfined(_ channel: Channel) throws {
        let confined = try Self.confined.get()
        #expect(confined.status == 0, "\(confined.lines)")
        #expect(confined.both(channel.attempt) == [channel.confined, channel.confined])
        let unconfined = try Self.unconfined.get()
        // A character device or a host name only root can make or set; the tests run as root on CI.
        if ["mknod-char-inside", "sethostname"].contains(channel.attempt), geteuid() != 0 { return }
        #expect(unconfined.both(channel.attempt) == ["ok", "ok"])
    }

    /// /dev/tty: refused by Landlock before the kernel even looks for a controlling terminal
    /// (unconfined, a process without one gets ENXIO, so write-pts is the channel's proof).
    @Test func controllingTerminalCannotBeOpenedForWriting() throws {
        #expect(try Self.confined.get().both("write-dev-tty") == ["EACCES", "EACCES"])
    }

    /// The argument and environment areas are plain memory: the probe writes a letter into
    /// argv[0] and the first variable without any system call. Unconfined, /proc/self/cmdline and
    /// environ show it; confined they show nothing at all.
    @Test(arguments: ["cmdline-shows-memory", "environ-shows-memory"])
    func argumentAreaWrittenInMemoryIsNotShown(_ attempt: String) throws {
        #expect(try Self.confined.get().both(attempt) == ["hidden", "hidden"])
        #expect(try Self.unconfined.get().both(attempt) == ["ok", "ok"])
        #expect(try Self.confined.get().report?["argument_area_hidden"] as? Bool == true)
    }

    @Test func coreDumpsAreOffAndStayOff() throws {
        let confined = try Self.confined.get()
        #expect(confined.both("dumpable") == ["0", "0"])
        #expect(confined.both("core-limit") == ["0/0", "0/0"])
        #expect(confined.report?["core_dumps_disabled"] as? Bool == true)
        #expect(try Self.unconfined.get().outcomes["dumpable"] == "1")
    }

    @Test func confinedProbeLeftNothingOutside() throws {
        let run = try Self.confined.get()
        #expect(run.status == 0)
        // What the probe made before confining is all there is; nothing was created, moved or cut.
        let names = run.outsideNames
        #expect(names.isSuperset(of: ["main-victim", "main-rename-source", "thread-victim", "thread-rename-source"]))
        #expect(names.isDisjoint(with: ["main-created", "main-dir", "main-link", "main-linked", "main-fifo", "main-renamed",
                                         "main-escaped", "thread-created", "thread-escaped"]))
    }

    /// A descriptor open for writing from before confinement would escape Landlock: confine points
    /// it at /dev/null, so the byte written through it afterwards never arrives.
    @Test(arguments: [("--preopen-outside", "preopened-file-size"), ("--preopen-pipe", "pipe-received"),
                      ("--preopen-socket", "socket-received")])
    func descriptorOpenForWritingPointsAtDevNull(_ flag: String, _ arrived: String) throws {
        let run = try SandboxProbeRun.run([flag])
        #expect(run.status == 0, "\(run.lines)")
        #expect(run.outcomes[arrived] == "0")
        #expect((run.report?["descriptors_redirected_to_dev_null"] as? [Int])?.isEmpty == false)
        #expect(try SandboxProbeRun.run([flag, "--unconfined"]).outcomes[arrived] == "1")
    }

    /// With `openWriters: .refuse` confine refuses instead, before changing anything.
    @Test(arguments: ["--preopen-outside", "--preopen-pipe", "--preopen-socket"])
    func descriptorOpenForWritingIsRefusedWhenAsked(_ flag: String) throws {
        let run = try SandboxProbeRun.run([flag, "--refuse-writers"])
        #expect(run.status == 3)
        let failure = try #require(run.outcomes["confine-failed"])
        #expect(failure.hasPrefix("Descriptor "), "\(failure)")
        #expect(failure.contains("is open for writing from before confinement"), "\(failure)")
        #expect(run.outcomes["write-outside"] == nil, "nothing may run after a refused confinement")
    }

    /// A writable shared mapping made before confinement (by a preloaded library, say, shared
    /// with a process it forked) would carry words out without a system call: confine refuses.
    @Test func sharedWritableMemoryIsRefused() throws {
        let run = try SandboxProbeRun.run(["--shared-mapping"])
        #expect(run.outcomes["shared-mapping"] == "made")
        #expect(run.status == 3)
        let failure = try #require(run.outcomes["confine-failed"])
        #expect(failure.contains("an anonymous shared mapping open for writing"), "\(failure)")
        #expect(run.outcomes["write-outside"] == nil, "nothing may run after a refused confinement")
    }

    /// Why redirecting is the default: Foundation's `Process` hands every child one end of a socket
    /// pair (to learn when it ends), so a `replay` started that way has a writable socket open and
    /// refusing would stop it. Spawn's `ChildProcess` hands a child its three streams only, so a
    /// probe it starts has nothing to refuse and confines itself even when asked to refuse.
    @Test func aChildOfChildProcessHasNoWriterToRefuse() throws {
        let run = try SandboxProbeRun.run(["--refuse-writers"])
        #expect(run.status == 0, "\(run.lines)")
        #expect(run.outcomes["confine-failed"] == nil)
        #expect(run.outcomes["write-outside"] != nil, "the probe went on after confining itself")
    }

    /// `replay suite run --endpoint`'s connection (`SandboxPolicy.keptConnections`): kept through
    /// confinement, it still carries bytes to its peer, and it cannot be pointed at another port
    /// or address (connect(2), sendto(2) with an address), nor can a new socket reach them. Each
    /// attempt meets the filter's own answer (as a new TCP connect does), not the kernel's, which
    /// the unconfined run shows: EISCONN to a connected socket's connect, and a sendto whose
    /// address a connected stream socket ignores.
    @Test func aKeptLoopbackConnectionReachesItsPeerAndNothingElse() throws {
        let attempts = ["kept-connect-other-port", "kept-connect-other-address", "kept-sendto-other-port", "kept-sendto-other-address"]
        let confined = try SandboxProbeRun.run(["--kept-loopback"])
        #expect(confined.status == 0, "\(confined.lines)")
        #expect(confined.outcomes["kept-connected"] == "ok" && confined.outcomes["kept-send"] == "ok")
        let refused = try #require(confined.outcomes["connect-tcp"])
        #expect(refused != "ok")
        for attempt in attempts + ["new-connect-other-port"] { #expect(confined.outcomes[attempt] == refused, "\(attempt)") }
        let unconfined = try SandboxProbeRun.run(["--kept-loopback", "--unconfined"])
        #expect(unconfined.outcomes["kept-send"] == "ok")
        #expect(unconfined.outcomes["kept-connect-other-port"] == "EISCONN" && unconfined.outcomes["kept-connect-other-address"] == "EISCONN")
        #expect(unconfined.outcomes["kept-sendto-other-port"] == "ok" && unconfined.outcomes["kept-sendto-other-address"] == "ok")
    }

    /// Landlock alone denies TCP and file writes, but not UDP, UNIX sockets or metadata: the reason
    /// seccomp is there.
    @Test func landlockAloneLeavesWhatSeccompCloses() throws {
        let run = try SandboxProbeRun.run(["--no-seccomp"])
        #expect(run.status == 0)
        #expect(run.both("connect-tcp") == ["EACCES", "EACCES"])
        #expect(run.both("bind-tcp") == ["EACCES", "EACCES"])
        for attempt in ["udp-sendto", "inet6-socket", "unix-socket", "connect-named-unix", "sendto-named-unix",
                        "chmod-inside", "setxattr", "shmget", "exec", "set-name", "flock", "set-limit",
                        "set-other-priority", "umask", "fork"] {
            #expect(run.both(attempt) == ["ok", "ok"], "\(attempt)")
        }
        // Its own rights still withhold symbolic links and FIFOs beneath the allowed directory,
        // but a hard link within one directory needs only make_reg, which is granted.
        #expect(run.both("symlink-inside") == ["EACCES", "EACCES"])
        #expect(run.both("mkfifo-inside") == ["EACCES", "EACCES"])
        #expect(run.both("link-inside") == ["ok", "ok"])
        // Its signal scope works without seccomp.
        #expect(run.both("signal-child") == ["EPERM", "EPERM"])
        #expect(run.report?["enforced"] as? Bool == false)
        #expect(run.report?["all_sockets_denied"] as? Bool == false)
    }

    /// Without createOnly every right is granted beneath the directory, and the report says so.
    @Test func grantingRemovalIsNotEnforced() throws {
        let run = try SandboxProbeRun.run(["--keep-removal"])
        #expect(run.status == 0)
        #expect(run.both("unlink-inside") == ["ok", "ok"])
        #expect(run.both("truncate-inside") == ["ok", "ok"])
        #expect(run.report?["withheld_in_writable_directories"] as? [String] == [])
        #expect(run.report?["enforced"] as? Bool == false)
    }

    @Test func reportSaysWhatTheKernelEnforces() throws {
        let run = try Self.confined.get()
        let report = try #require(run.report)
        #expect(report["enforced"] as? Bool == true)
        #expect((report["landlock_abi"] as? Int ?? 0) >= 4)
        let allowed = URL(fileURLWithPath: run.allowed).resolvingSymlinksInPath().path
        #expect(report["writable_directories"] as? [String] == [allowed])
        #expect(report["writable_files"] as? [String] == ["/dev/null"])
        let denied = report["denied_filesystem_access"] as? [String] ?? []
        #expect(Set(denied).isSuperset(of: ["write_file", "remove_file", "remove_dir", "make_reg", "make_dir", "make_sym",
                                            "refer", "truncate"]))
        let withheld = Set(report["withheld_in_writable_directories"] as? [String] ?? [])
        #expect(withheld == Set(denied).subtracting(["write_file", "make_reg", "make_dir"]))
        for key in ["tcp_denied", "abstract_unix_sockets_scoped", "signals_scoped", "non_unix_sockets_denied",
                    "all_sockets_denied", "metadata_writes_denied", "ipc_denied", "exec_denied", "process_attributes_fixed",
                    "core_dumps_disabled", "argument_area_hidden", "all_threads_confined"] {
            #expect(report[key] as? Bool == true, "\(key)")
        }
        #expect(report["threads_at_confinement"] as? Int == 1)
        #expect(report["unsandboxed_reason"] is NSNull)
        #expect(run.outcomes["threads-before"] == "1")
        #expect(run.outcomes["child"] == "started")
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
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-probe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        let probe = try Subprocess.run(SandboxProbeRun.executable.path, ["--allowed", missing, "--outside", outside, "--port", "1"])
        let text = probe.output
        #expect(probe.status == 3 && !probe.signalled)
        #expect(text.contains("confine-failed Writes beneath \(missing) could not be allowed"))
    }
}
