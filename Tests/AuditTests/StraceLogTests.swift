import Testing
@testable import Audit

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
        let findings = Auditor.judge(StraceLog(trace: trace, workingDirectory: "/"),
                                     allowed: AllowedPlaces(directory: "/out", streams: []), written: &written)
        #expect(findings.map(\.rule) == [.blockedWriteAttempt, .writeOutsideOut, .blockedNetworkAttempt])
        #expect(findings.first?.occurrences == 2)
        #expect(written == ["/elsewhere/y"])
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
