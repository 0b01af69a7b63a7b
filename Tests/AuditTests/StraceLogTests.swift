import Foundation
import Spawn
import Testing
import TestSupport
@testable import Audit
@testable import Confinement
import Privacy

/// Reading strace's output (`-f -qq -xx -yy -s 16`) into the events the audit judges.
@Suite struct StraceLogTests {
    static func hex(_ text: String) -> String { text.utf8.map { "\\x" + String($0, radix: 16).leftPadded }.joined() }

    @Test func writesResolveAgainstDirectoriesAndResults() {
        let trace = """
            10  openat(AT_FDCWD<\(Self.hex("/work"))>, "\(Self.hex("notes.txt"))", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 3<\(Self.hex("/work/notes.txt"))>
            10  openat(AT_FDCWD<\(Self.hex("/work"))>, "\(Self.hex("/etc/passwd"))", O_RDONLY|O_CLOEXEC) = 4<\(Self.hex("/etc/passwd"))>
            11  openat(5<\(Self.hex("/srv"))>, "\(Self.hex("a/../b"))", O_RDWR <unfinished ...>
            10  mkdir("\(Self.hex("sub"))", 0777) = -1 EACCES (Permission denied)
            11  <... openat resumed>) = -1 EACCES (Permission denied)
            10  renameat2(AT_FDCWD<\(Self.hex("/work"))>, "\(Self.hex("x"))", AT_FDCWD<\(Self.hex("/work"))>, "\(Self.hex("/tmp/y"))", 0) = 0
            10  --- SIGCHLD {si_signo=SIGCHLD} ---
            """
        let log = StraceLog(trace: trace, workingDirectory: "/start")
        #expect(log.entries.map(\.event) == [
            .write(call: "openat", paths: ["/work/notes.txt"], outcome: .succeeded),
            .write(call: "mkdir", paths: ["/work/sub"], outcome: .failed("EACCES")),
            .write(call: "openat", paths: ["/srv/b"], outcome: .failed("EACCES")),
            .write(call: "renameat2", paths: ["/work/x", "/tmp/y"], outcome: .succeeded),
        ])
    }

    @Test func socketsAndAddresses() {
        let trace = """
            7  socket(AF_INET, SOCK_DGRAM|SOCK_CLOEXEC, IPPROTO_IP) = 3<UDP:[1]>
            7  connect(3<UDP:[1]>, {sa_family=AF_INET, sin_port=htons(9), sin_addr=inet_addr("\(Self.hex("127.0.0.1"))")}, 16) = 0
            7  sendto(3<UDP:[127.0.0.1:5->127.0.0.1:9]>, ""..., 24, 0, NULL, 0) = 24
            7  socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0) = 4<UNIX:[2]>
            7  sendmsg(4<UNIX:[2]>, {msg_name=NULL, msg_namelen=0}, 0) = 1
            7  socket(AF_INET6, SOCK_STREAM, IPPROTO_IP) = -1 EPERM (Operation not permitted)
            """
        let events = StraceLog(trace: trace, workingDirectory: "/").entries.map(\.event)
        #expect(events == [
            .socket(family: "AF_INET", outcome: .succeeded),
            .send(call: "connect", family: "AF_INET", address: .inet(host: "127.0.0.1", port: "9"), outcome: .succeeded),
            .send(call: "sendto", family: "AF_INET", address: .connected("UDP:[127.0.0.1:5->127.0.0.1:9]"), outcome: .succeeded),
            .socket(family: "AF_UNIX", outcome: .succeeded),
            .send(call: "sendmsg", family: "AF_UNIX", address: .connected("UNIX:[2]"), outcome: .succeeded),
            .socket(family: "AF_INET6", outcome: .failed("EPERM")),
        ])
    }

    /// Addresses are read by their family's structure: a named socket whose path begins with
    /// `UNIX` (once mistaken for a socketpair's annotation and skipped) is a path, and egress.
    @Test func socketAddressesAreDecodedByFamilyNotByPrefix() {
        let trace = """
            7  sendto(3<UNIX-DGRAM:[9]>, ""..., 40, 0, {sa_family=AF_UNIX, sun_path="\(Self.hex("UNIX.sock"))"}, 12) = 40
            7  connect(4<UNIX-STREAM:[10]>, {sa_family=AF_UNIX, sun_path=@"\(Self.hex("UNIX:[1]"))"}, 11) = 0
            7  bind(5<UNIX-DGRAM:[11]>, {sa_family=AF_UNIX}, 2) = 0
            7  connect(6<TCPv6:[12]>, {sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "\(Self.hex("::1"))", &sin6_addr), sin6_scope_id=0}, 28) = 0
            7  sendmsg(8<UNIX-STREAM:[13->14]>, {msg_name=NULL, msg_namelen=0}, 0) = 3
            """
        let log = StraceLog(trace: trace, workingDirectory: "/")
        #expect(log.entries.map(\.event) == [
            .send(call: "sendto", family: "AF_UNIX", address: .unixPath("UNIX.sock"), outcome: .succeeded),
            .send(call: "connect", family: "AF_UNIX", address: .unixAbstract("UNIX:[1]"), outcome: .succeeded),
            .send(call: "bind", family: "AF_UNIX", address: .unixUnnamed, outcome: .succeeded),
            .send(call: "connect", family: "AF_INET6", address: .inet(host: "[::1]", port: "53"), outcome: .succeeded),
            .send(call: "sendmsg", family: "AF_UNIX", address: .connected("UNIX-STREAM:[13->14]"), outcome: .succeeded),
        ])
        var written: [String] = []
        let findings = Auditor.judge(log, Self.judging("/out"), written: &written)
        // Each address is its own finding; the socketpair-like send on a connected socket is none.
        #expect(findings.map(\.rule) == [.networkEgress, .networkEgress, .networkEgress, .networkEgress])
        #expect(findings.allSatisfy { !$0.message.contains("UNIX.sock") })
    }

    @Test func judgingSeparatesErrorsNotesAndAllowedPlaces() {
        let trace = """
            1  openat(AT_FDCWD<\(Self.hex("/a"))>, "\(Self.hex("/out/report.json"))", O_WRONLY|O_CREAT, 0666) = 3<\(Self.hex("/out/report.json"))>
            1  openat(AT_FDCWD<\(Self.hex("/a"))>, "\(Self.hex("/dev/null"))", O_WRONLY) = 3<\(Self.hex("/dev/null"))>
            1  openat(AT_FDCWD<\(Self.hex("/a"))>, "\(Self.hex("/elsewhere/x"))", O_WRONLY|O_CREAT, 0666) = -1 EACCES (Permission denied)
            1  openat(AT_FDCWD<\(Self.hex("/a"))>, "\(Self.hex("/elsewhere/x"))", O_WRONLY|O_CREAT, 0666) = -1 EACCES (Permission denied)
            1  unlink("\(Self.hex("/elsewhere/y"))") = 0
            1  openat(AT_FDCWD<\(Self.hex("/a"))>, "\(Self.hex("/nodir/z"))", O_WRONLY|O_CREAT, 0666) = -1 ENOENT (No such file or directory)
            1  socket(AF_NETLINK, SOCK_RAW, 0) = -1 EPERM (Operation not permitted)
            """
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), Self.judging("/out"), written: &written)
        #expect(findings.map(\.rule) == [.blockedWriteAttempt, .writeOutsideOut, .blockedNetworkAttempt])
        #expect(findings.first?.occurrences == 2)
        #expect(written == ["/elsewhere/y"])
    }
}

extension StraceLogTests {
    static func judging(_ directory: String, isReplay: Bool = true) -> Auditor.Judging {
        Auditor.Judging(allowed: AllowedPlaces(directory: directory, streams: []),
                        places: PlaceNames(salt: [1, 2, 3], allowedDirectory: directory), isReplay: isReplay)
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}

/// The channels besides file contents and sockets: each call strace shows is read into the event
/// the audit judges, and judged by its rule.
@Suite(.tags(.slow), .enabled(if: TestSelection.includesSlow, "slow: scripts/test --fast leaves it out")) struct StraceChannelTests {
    static func hex(_ text: String) -> String { StraceLogTests.hex(text) }

    @Test func deviceAnnotationsDoNotBreakPaths() {
        let trace = """
            3  openat(AT_FDCWD<\(Self.hex("/w"))>, "\(Self.hex("/dev/null"))", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3<\(Self.hex("/dev/null"))<char 1:3>>
            """
        let log = StraceLog(trace: trace, workingDirectory: "/")
        #expect(log.entries.map(\.event) == [.write(call: "openat", paths: ["/dev/null"], outcome: .succeeded)])
        var written: [String] = []
        #expect(Auditor.judge(log, StraceLogTests.judging("/out"), written: &written).isEmpty)
    }

    @Test func unixAddressesNamedAndAbstractAreEgress() {
        let trace = """
            4  sendto(3<UNIX-DGRAM:[9]>, ""..., 40, 0, {sa_family=AF_UNIX, sun_path="\(Self.hex("/run/listener.sock"))"}, 21) = 40
            4  connect(5<UNIX-STREAM:[10]>, {sa_family=AF_UNIX, sun_path=@"\(Self.hex("hidden"))"}, 9) = 0
            4  sendmsg(6<UNIX-STREAM:[11->12]>, {msg_name=NULL, msg_namelen=0}, 0) = 3
            4  bind(7<UNIX-DGRAM:[13]>, {sa_family=AF_UNIX, sun_path="\(Self.hex("/tmp/x.sock"))"}, 14) = -1 EPERM (Operation not permitted)
            """
        let log = StraceLog(trace: trace, workingDirectory: "/")
        var written: [String] = []
        let findings = Auditor.judge(log, StraceLogTests.judging("/out"), written: &written)
        #expect(findings.map(\.rule) == [.networkEgress, .networkEgress, .blockedNetworkAttempt])
        // Addresses are the run's choice: shown hashed, never as written.
        #expect(findings.allSatisfy { !$0.message.contains("listener") && !$0.message.contains("hidden") })
    }

    @Test(arguments: [
        ("fsetxattr(3<\(StraceLogTests.hex("/out/report.json"))>, \"\(StraceLogTests.hex("user.x"))\", \"\"..., 32, 0) = 0", AuditRule.metadataWrite),
        ("chmod(\"\(StraceLogTests.hex("/out/a"))\", 0600) = 0", .metadataWrite),
        ("utimensat(AT_FDCWD<\(StraceLogTests.hex("/w"))>, \"\(StraceLogTests.hex("/etc/x"))\", [{tv_sec=1, tv_nsec=0}, {tv_sec=2, tv_nsec=0}], 0) = -1 EPERM (Operation not permitted)", .blockedAttempt),
        ("shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = 5", .kernelObject),
        ("mq_open(\"\(StraceLogTests.hex("q"))\", O_WRONLY|O_CREAT, 0600, NULL) = -1 EPERM (Operation not permitted)", .blockedAttempt),
        ("add_key(\"user\", \"\(StraceLogTests.hex("k"))\", \"\"..., 32, KEY_SPEC_SESSION_KEYRING) = 123", .kernelObject),
        ("io_uring_setup(8, {flags=0}) = 4", .kernelObject),
        ("kill(999999, SIGUSR1) = 0", .signalToOtherProcess),
        ("kill(999999, SIGCONT)              = 0", .signalToOtherProcess),
        ("tgkill(999999, 999999, SIGTERM) = -1 EPERM (Operation not permitted)", .blockedAttempt),
        ("unlinkat(AT_FDCWD<\(StraceLogTests.hex("/w"))>, \"\(StraceLogTests.hex("/out/gone.txt"))\", 0) = 0", .removedBeforeScan),
        ("renameat2(AT_FDCWD<\(StraceLogTests.hex("/w"))>, \"\(StraceLogTests.hex("/out/a"))\", AT_FDCWD<\(StraceLogTests.hex("/w"))>, \"\(StraceLogTests.hex("/out/b"))\", 0) = -1 EACCES (Permission denied)", .blockedAttempt),
        ("mknodat(AT_FDCWD<\(StraceLogTests.hex("/w"))>, \"\(StraceLogTests.hex("/tmp/fifo"))\", S_IFIFO|0600) = 0", .writeOutsideOut),
        // Calls nobody reviewed, and judged calls asked for what is not harmless.
        ("open_by_handle_at(3</>, {handle_bytes=8, handle_type=FILEID_INO32_GEN}, O_WRONLY) = 4", .unreviewedCall),
        ("process_vm_writev(999999, [{iov_base=\"\"..., iov_len=32}], 1, [{iov_base=0x1, iov_len=32}], 1, 0) = 32", .unreviewedCall),
        ("pidfd_getfd(3<anon_inode:[pidfd]>, 1, 0) = 4", .unreviewedCall),
        ("syscall_0x1d3(0, 0, 0, 0, 0, 0) = 0", .unreviewedCall),
        ("umask(022) = 022", .unreviewedCall),
        ("setsid() = 5", .unreviewedCall),
        ("mlock(0x7f0000000000, 4096) = 0", .unreviewedCall),
        ("prctl(PR_SET_NAME, \"\(StraceLogTests.hex("not-dispatch"))\") = 0", .unreviewedCall),
        ("prctl(PR_SET_MM, PR_SET_MM_ARG_START, 0x1000, 0, 0) = 0", .unreviewedCall),
        ("prlimit64(0, RLIMIT_NOFILE, {rlim_cur=300, rlim_max=1048576}, NULL) = 0", .unreviewedCall),
        ("prlimit64(4242, RLIMIT_CORE, {rlim_cur=0, rlim_max=0}, NULL) = 0", .unreviewedCall),
        ("setrlimit(RLIMIT_NOFILE, {rlim_cur=300, rlim_max=1048576}) = 0", .unreviewedCall),
        ("setpriority(PRIO_PROCESS, 4242, 7) = 0", .unreviewedCall),
        ("sched_setaffinity(4242, 128, [0]) = 0", .unreviewedCall),
        ("fcntl(3<\(StraceLogTests.hex("/out/a"))>, F_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=0, l_len=0}) = 0", .unreviewedCall),
        ("fcntl(3<\(StraceLogTests.hex("/out/a"))>, F_SETOWN, 4242) = 0", .unreviewedCall),
        ("flock(3<\(StraceLogTests.hex("/out/a"))>, LOCK_EX|LOCK_NB) = 0", .unreviewedCall),
        ("ioctl(0</dev/pts/1>, TIOCSTI, \"x\") = 0", .unreviewedCall),
        ("clone(child_stack=NULL, flags=CLONE_UNTRACED|SIGCHLD) = 4243", .unreviewedCall),
        ("clone3({flags=CLONE_VM|CLONE_UNTRACED, exit_signal=SIGCHLD, stack=NULL, stack_size=0}, 88) = 4244", .unreviewedCall),
        ("shmat(5, NULL, 0) = 0x7f0000000000", .kernelObject),
        ("sched_setaffinity(0, 128, [0]) = -1 EPERM (Operation not permitted)", .blockedAttempt),
    ])
    func eachChannelIsJudgedByItsRule(line: String, rule: AuditRule) {
        // Pid 1 starts the command (the first execve is strace's own), then makes the call.
        let trace = "1  execve(\"\(Self.hex("/bin/run"))\", [\"run\"], 0x0 /* 1 var */) = 0\n1  " + line
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written)
        #expect(!findings.isEmpty && Set(findings.map(\.rule)) == [rule])
    }

    /// What a clean replay does, read from its trace: the sandbox's one-way settings, reads of
    /// limits, descriptor flags, terminal queries, threads strace follows, and libdispatch naming
    /// and prioritising its workers. None is a finding.
    @Test func harmlessJudgedCallsAreNotFindings() {
        let trace = """
            1  execve("\(Self.hex("/usr/bin/replay"))", ["replay"], 0x0 /* 1 var */) = 0
            1  prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0
            1  ioctl(1<\(Self.hex("/dev/null"))<char 1:3>>, TCGETS, 0x7fff600d4020) = -1 ENOTTY (Inappropriate ioctl for device)
            1  fcntl(10<\(Self.hex("/dev/null"))<char 1:3>>, F_GETFL) = 0x8000 (flags O_RDONLY|O_LARGEFILE)
            1  fcntl(3<\(Self.hex("/out/a"))>, F_SETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=0, l_len=0}) = 0
            1  flock(3<\(Self.hex("/out/a"))>, LOCK_UN) = 0
            1  flock(4<\(Self.hex("/out"))>, LOCK_EX|LOCK_NB) = 0
            1  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) = 0
            1  prctl(PR_SET_DUMPABLE, SUID_DUMP_DISABLE) = 0
            1  prctl(PR_SET_MM, PR_SET_MM_MAP, 0x7ffca6f28ed0, 0x68, 0) = 0
            1  prlimit64(0, RLIMIT_CORE, {rlim_cur=0, rlim_max=0}, NULL) = 0
            1  setrlimit(RLIMIT_CORE, {rlim_cur=0, rlim_max=0}) = 0
            1  prctl(PR_GET_DUMPABLE)            = 0 (SUID_DUMP_DISABLE)
            1  seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, {len=160, filter=0x7fff600cf154}) = 0
            1  landlock_restrict_self(3, 0) = 0
            1  clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7fd0c5cfc990, exit_signal=0, stack=0x7fd0c54fc000, stack_size=0x7fff00}, 88) = 2
            2  prctl(PR_SET_NAME, "\(Self.hex("oot.default-qos"))"...) = 0
            2  setpriority(PRIO_PROCESS, 0, 0)   = 0
            2  prctl(PR_SET_NAME, "\(Self.hex("-qos.overcommit"))"...) = 0
            2  setpriority(PRIO_PROCESS, 0, -4)  = 0
            1  chdir("\(Self.hex("/w"))") = 0
            """
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// The claim on --out passes once per process and only on the run directory itself: a
    /// second claim (a toggled lock spells bits), or a lock on anything else, is a finding.
    @Test(arguments: [
        ("1  flock(4<\(StraceLogTests.hex("/out"))>, LOCK_EX|LOCK_NB) = 0\n1  flock(4<\(StraceLogTests.hex("/out"))>, LOCK_UN) = 0\n1  flock(4<\(StraceLogTests.hex("/out"))>, LOCK_EX|LOCK_NB) = 0", 1),
        ("1  flock(4<\(StraceLogTests.hex("/out/a"))>, LOCK_EX|LOCK_NB) = 0", 1),
        ("1  flock(4<\(StraceLogTests.hex("/elsewhere"))>, LOCK_EX|LOCK_NB) = 0", 1),
        ("1  flock(4<\(StraceLogTests.hex("/out"))>, LOCK_EX|LOCK_NB) = 0\n2  flock(5<\(StraceLogTests.hex("/out"))>, LOCK_EX|LOCK_NB) = -1 EWOULDBLOCK (Resource temporarily unavailable)", 0),
    ])
    func onlyOneClaimOnTheRunDirectoryPasses(trace: String, findings expected: Int) {
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written)
        #expect(findings.count == expected, "\(findings.map(\.message))")
        #expect(findings.allSatisfy { $0.rule == .unreviewedCall })
    }

    /// An unreviewed call is named by strace's names only, never by a value the run chose.
    @Test func unreviewedCallsAreNamedWithoutTheirArguments() {
        let name = Self.hex("meet-at-noon")
        let trace = """
            1  prctl(PR_SET_NAME, "\(name)") = 0
            1  prctl(0x59616d61 /* PR_??? */, 0x1234) = 0
            1  sethostname("\(name)", 12) = 0
            """
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written)
        #expect(findings.map(\.rule) == [.unreviewedCall, .unreviewedCall, .unreviewedCall])
        #expect(findings.map(\.message).allSatisfy { !$0.contains("meet") && !$0.contains("\\x") && !$0.contains("0x") })
        #expect(findings.first?.message.contains("prctl PR_SET_NAME") == true)
    }

    /// A call whose process was killed in it (never resumed) is judged as though it had worked.
    @Test func aCallThatNeverReturnedIsStillJudged() {
        let trace = """
            5  sched_setaffinity(0, 128, [0] <unfinished ...>
            6  getpid() = 6
            5  +++ killed by SIGKILL +++
            """
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written)
        #expect(findings.map(\.rule) == [.unreviewedCall])
    }

    /// The allow-list and the judged calls are apart, each entry has a reason, and strace accepts
    /// the trace expression made from them (it refuses a malformed one).
    @Test func theAllowListIsReviewedAndStraceTakesIt() throws {
        #expect(Set(AuditedCalls.allowed.keys).isDisjoint(with: AuditedCalls.judgedNames))
        #expect(Set(AuditedCalls.allowed.keys).isDisjoint(with: StraceLog.fileCalls.keys))
        #expect(AuditedCalls.allowed.values.allSatisfy { $0.count >= 5 })
        #expect(AuditedCalls.judged.values.allSatisfy { $0.count >= 5 })
        // What carries data out is never allowed untraced.
        for call in ["openat", "connect", "sendto", "prctl", "prlimit64", "fcntl", "flock", "ioctl", "clone", "clone3",
                     "process_vm_writev", "pidfd_getfd", "open_by_handle_at", "setpriority", "sched_setaffinity", "umask",
                     "setsid", "setpgid", "capset", "ptrace", "kill", "setxattr", "shmat", "execve", "mount", "unshare"] {
            #expect(AuditedCalls.allowed[call] == nil, "\(call)")
        }
        let strace = try #require(["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let ran = try ChildProcess.run(strace, Auditor.straceOptions + ["-o", "/dev/null", "--", "/bin/true"], timeout: 60)
        #expect(ran.succeeded, "\(String(decoding: ran.standardError, as: UTF8.self))")
    }

    @Test func signalsWithinTheRunAndProbesAreNotFindings() {
        let trace = """
            10  kill(11, SIGTERM) = 0
            11  kill(11, SIGUSR1) = 0
            10  kill(4242, 0) = 0
            10  kill(11, SIGCONT)                   = 0
            """
        var written: [String] = []
        #expect(Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written).isEmpty)
    }

    @Test func aReplayThatExecutesAProgramIsCaughtButACommandMayRunOthers() {
        let trace = """
            1  execve("\(Self.hex("/usr/bin/replay"))", ["replay"], 0x0 /* 1 var */) = 0
            2  execve("\(Self.hex("/usr/bin/gdb"))", ["gdb"], 0x0 /* 1 var */) = 0
            """
        var written: [String] = []
        let log = StraceLog(trace: trace, workingDirectory: "/")
        #expect(Auditor.judge(log, StraceLogTests.judging("/out"), written: &written).map(\.rule) == [.programExecuted])
        #expect(Auditor.judge(log, StraceLogTests.judging("/out", isReplay: false), written: &written).isEmpty)
    }

    @Test func placesOutsideAreHashedAndPlainNamesInsideShown() {
        let places = PlaceNames(salt: [9, 9], allowedDirectory: "/a/run")
        #expect(places.show("/a/run/report.json") == "/a/run/report.json")
        #expect(places.show("/a/run/sub/metrics.csv") == "/a/run/sub/metrics.csv")
        let odd = places.show("/a/run/what we said")
        #expect(odd.hasPrefix("/a/run/(a name withheld, h:") && !odd.contains("said"))
        let outside = places.show("/home/me/secret-words.txt")
        #expect(outside.hasPrefix("(outside /a/run, h:") && !outside.contains("secret"))
        #expect(places.show("/home/me/secret-words.txt") == outside)
        #expect(PlaceNames(salt: [1], allowedDirectory: "/a/run").show("/home/me/secret-words.txt") != outside)
    }
}
