import Testing
@testable import Audit
import Privacy

/// Reading strace's output (`-f -qq -xx -yy -s 0`) into the events the audit judges.
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
            .send(call: "connect", family: "AF_INET", address: "127.0.0.1:9", outcome: .succeeded),
            .send(call: "sendto", family: "AF_INET", address: "UDP:[127.0.0.1:5->127.0.0.1:9]", outcome: .succeeded),
            .socket(family: "AF_UNIX", outcome: .succeeded),
            .send(call: "sendmsg", family: "AF_UNIX", address: "UNIX:[2]", outcome: .succeeded),
            .socket(family: "AF_INET6", outcome: .failed("EPERM")),
        ])
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
@Suite struct StraceChannelTests {
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
    ])
    func eachChannelIsJudgedByItsRule(line: String, rule: AuditRule) {
        // Pid 1 starts the command (the first execve is strace's own), then makes the call.
        let trace = "1  execve(\"\(Self.hex("/bin/run"))\", [\"run\"], 0x0 /* 1 var */) = 0\n1  " + line
        var written: [String] = []
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"), StraceLogTests.judging("/out"), written: &written)
        #expect(!findings.isEmpty && Set(findings.map(\.rule)) == [rule])
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
