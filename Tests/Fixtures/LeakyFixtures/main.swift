// LeakyFixtures: test-only programs that leak on purpose, one mode per audit rule, so the tests
// can prove `replay audit` catches each (and passes the one that does everything right).
// Run by the auditor, they read REPLAY_AUDIT_* like replay does; they leak only invented words
// ("Where should we meet tomorrow?", "Sounds good"), the random canary, and only to loopback.
//
//   LeakyFixtures MODE [ARG]
//
//   write-canary-outside PATH   writes a canary-bearing prompt to PATH (outside the out directory)
//   canary-in-report            puts the canary-bearing prompt in report.json under the out directory
//   output-to-stderr            fingerprints a model output, then prints one of its chips on stderr
//   tcp-connect PORT            connects to 127.0.0.1:PORT
//   udp-send PORT               sends a datagram to 127.0.0.1:PORT
//   unsandboxed                 writes a report with sandbox.enforced false
//   confined-attempts PORT PATH confines itself, then tries to write PATH and connect to PORT (both refused)
//   clean                       confines itself, plants, fingerprints, writes only counts
//
// One mode per channel of docs/privacy.md's channel table, each unconfined so the audit must see it:
//   unix-dgram PATH             sends the canary in a datagram to the named AF_UNIX socket PATH
//   unix-abstract NAME          connects to the abstract AF_UNIX socket NAME
//   netlink                     opens a netlink socket
//   xattr-in-out                hangs the canary on a file under the out directory as an xattr value
//   chmod-in-out                changes a file's mode under the out directory
//   utime-outside PATH          changes PATH's times
//   name-in-out                 makes a directory named with the canary under the out directory
//   symlink-in-out              makes a symbolic link whose target is the canary
//   hardlink-outside PATH       links a file of the out directory to PATH
//   fifo-outside PATH           makes a FIFO at PATH
//   sysv-shm | sysv-msg | sysv-sem   makes (then removes) a SysV IPC object
//   signal PID                  sends SIGCONT to PID, a process outside the run
//   exec                        runs /bin/true (a replay never executes a program)
//   remove-in-out               writes the canary under the out directory, then removes the file
//   encoded FORM                writes the canary to report.json as FORM: base64-0, base64-1,
//                               base64-2, hex, utf16le, utf16be, json-u, percent, snake (words
//                               joined by _), camel (RavelKinship…), kebab-upper, url (%20 between
//                               words), lines (a word a line), middle (words 3-6 in a sentence),
//                               split, zstd, gzip
//   short-output-to-stderr      prints a one-word chip on stderr
//   cjk-output-to-stderr        prints part of a Japanese chip on stderr
//   unix-prefix DIR             sends the canary to the named AF_UNIX socket DIR/UNIX.sock, by the
//                               relative path `UNIX.sock` (a path, not a socketpair's annotation)
//
// Calls the allow-list has not reviewed, each a storage channel other processes can read:
//   thread-name                 names its thread (PR_SET_NAME: /proc/PID/task/TID/comm)
//   flock                       takes a whole-file lock on a file under the out directory (/proc/locks)
//   lockf                       takes a byte-range lock (fcntl F_SETLKW: /proc/locks)
//   rlimit                      lowers its own open-files limit (/proc/PID/limits)
//   priority                    lowers its own priority (setpriority: /proc/PID/stat)
//   affinity                    pins itself to one CPU (sched_setaffinity: /proc/PID/status)
//   process-vm-writev           writes into a process's memory by pid (its own here)
//   pidfd-getfd                 takes a copy of a process's descriptor by pidfd (its own here)
//   untraced-child              opens report.json under the out directory, then starts a child
//                               strace cannot follow (CLONE_UNTRACED), which sleeps, then appends
//                               the canary to it
//   write-stdin                 writes the canary to its standard input; exits 3 if it could
//   argv-canary PID FILLER      overwrites its argument area (from its first argument to the end of
//                               FILLER, no system call) with the canary, which /proc/PID/cmdline
//                               then shows; tries to read /proc/PID/cmdline of PID (a process
//                               outside the run) and counts the pids its /proc lists, writing
//                               both to peek.txt under the out directory; then stays 3 s for an
//                               observer outside
//
// Leaks a scan of the final files and streams alone would miss:
//   hex-output-to-stderr        prints a chip of a model output on stderr as `xxd -p` would (hex, 60 a line)
//   base64-output-in-out        writes a chip to a file under the out directory as base64 wrapped at 76
//   canary-truncated            writes the canary to a file under the out directory, then truncates it
//   canary-overwritten          writes the canary to a file under the out directory, then pwrites over it
//   canary-stdout-truncated     writes the canary to its standard output (a file), then truncates it
import Confinement
import CXattr
import Foundation
import Privacy

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    FileHandle.standardError.write(Data("usage: LeakyFixtures MODE [ARG...]\n".utf8))
    exit(2)
}
let environment = ProcessInfo.processInfo.environment
let out = environment[AuditEnvironment.out] ?? FileManager.default.currentDirectoryPath
guard let tap = AuditTap.fromEnvironment() else {
    FileHandle.standardError.write(Data("LeakyFixtures: run me under replay audit (no REPLAY_AUDIT_* variables)\n".utf8))
    exit(2)
}

/// A prompt as replay would build it, with the canary planted in the person's words.
let prompt = tap.plant(SealedText("Where should we meet tomorrow?"))
/// A model output as the chips job gets it.
let output = SealedText(#"{"replies": ["Sounds good", "Not yet, sorry"]}"#)
/// A one-word chip, and a Japanese one (a script written without spaces).
let shortOutput = SealedText(#"{"replies": ["Tomorrow", "Maybe"]}"#)
let japaneseOutput = SealedText(#"{"replies": ["明日の午後に会いましょう"]}"#)

func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

/// Writes `text` to `path` with open/write, failing loudly so a test sees a broken fixture.
@discardableResult
func write(_ text: String, to path: String) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    _ = text.withCString { Glibc.write(descriptor, $0, strlen($0)) }
    return 0
}

/// The report a run leaves: counts only, and the sandbox as it was.
func writeReport(sandbox: SandboxReport, extra: [(String, ReportValue)] = []) {
    let report = ReportValue.object([("schema", .label("replay.report/1")), ("sandbox", ReportValue(encoding: sandbox)),
                                     ("audit", ReportValue(encoding: tap.reportCounts))] + extra)
    write(report.json(), to: out + "/report.json")
}

/// Confines the fixture as replay confines itself (writes only beneath `out`, no network).
func confine() -> SandboxReport {
    do {
        return try Sandbox.confine(SandboxPolicy(writableDirectories: [out]))
    } catch {
        return .unsandboxed(because: error)
    }
}

func loopback(_ port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    return address
}

/// Connects a TCP socket to 127.0.0.1:`port`; the errno, or 0.
func connectTCP(_ port: UInt16) -> Int32 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    var address = loopback(port)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    return result == 0 ? 0 : errno
}

func port(_ index: Int) -> UInt16 {
    guard arguments.count > index, let port = UInt16(arguments[index]) else { say("LeakyFixtures: \(mode) needs a port"); exit(2) }
    return port
}

func finish() {
    do { try tap.finish() } catch { say("LeakyFixtures: \(error)"); exit(4) }
}

tap.notePrompt(prompt)
tap.record(output: output)
tap.record(output: shortOutput)
tap.record(output: japaneseOutput)

/// glibc's `syscall`, which Swift cannot call directly (it is variadic): integer arguments only,
/// passed in registers alike on x86-64 and arm64.
let rawSyscall: @convention(c) (Int, Int, Int, Int, Int, Int, Int) -> Int = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "syscall") else { say("LeakyFixtures: no syscall()"); exit(3) }
    return unsafeBitCast(symbol, to: (@convention(c) (Int, Int, Int, Int, Int, Int, Int) -> Int).self)
}()

/// System call numbers Swift's Glibc does not export.
#if arch(x86_64)
let callNumbers = (clone: 56, prctl: 157, schedSetaffinity: 203, processVMWritev: 311)
#else
let callNumbers = (clone: 220, prctl: 167, schedSetaffinity: 122, processVMWritev: 271)
#endif
let pidfdOpen = 434, pidfdGetfd = 438

/// Says whether `result` (0 or more: success) worked, and exits 3 when it did not: a fixture
/// whose channel failed proves nothing about the audit.
func expectWorked(_ what: String, _ result: Int) {
    guard result >= 0 else { say("LeakyFixtures: \(what) failed \(errno)"); exit(3) }
    say("LeakyFixtures: \(what) ok")
}

/// The argument at `index`, or exit 2 naming what is missing.
func argument(_ index: Int, _ what: String) -> String {
    guard arguments.count > index else { say("LeakyFixtures: \(mode) needs \(what)"); exit(2) }
    return arguments[index]
}

/// A UNIX socket address for `path` (or an abstract name when `abstract`).
func unixAddress(_ path: String, abstract: Bool) -> (sockaddr_un, socklen_t) {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = (abstract ? [0] : []) + Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in bytes.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let length = MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1)
    return (address, socklen_t(length))
}

/// The canary in one of the forms a program could turn it into.
func encoded(_ form: String) -> [UInt8] {
    let canary = Array(tap.canary.utf8)
    func hex(_ byte: UInt8) -> String { String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
    switch form {
    case "base64-0", "base64-1", "base64-2":
        let padding = Int(String(form.last!))!
        return Array(Data(Array("ab".utf8.prefix(padding)) + canary).base64EncodedString().utf8)
    case "hex": return Array(canary.map(hex).joined().utf8)
    case "utf16le": return canary.flatMap { [$0, 0] }
    case "utf16be": return canary.flatMap { [0, $0] }
    case "json-u": return Array(canary.map { "\\u00" + hex($0).uppercased() }.joined().utf8)
    case "percent": return Array(canary.map { "%" + hex($0).uppercased() }.joined().utf8)
    case "snake": return Array(tap.canary.replacingOccurrences(of: " ", with: "_").utf8)
    case "camel": return Array(tap.canary.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined().utf8)
    case "kebab-upper": return Array(tap.canary.uppercased().replacingOccurrences(of: " ", with: "-").utf8)
    case "url": return Array(tap.canary.replacingOccurrences(of: " ", with: "%20").utf8)
    case "lines": return Array(tap.canary.split(separator: " ").map { "  - " + $0 }.joined(separator: "\n").utf8)
    case "middle": return Array(("note: " + tap.canary.split(separator: " ")[2..<6].joined(separator: ", ") + ".").utf8)
    default: say("LeakyFixtures: unknown form \(form)"); exit(2)
    }
}

/// Writes `bytes` to `path` in pieces (one write each), creating it.
func write(pieces: [[UInt8]], to path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { say("LeakyFixtures: cannot create \(path)"); exit(3) }
    for piece in pieces { _ = piece.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } }
    close(descriptor)
}

/// Runs `tool arguments` with `input` on its standard input, returning its standard output.
///
/// With posix_spawn and pipes rather than Foundation's `Process`, which opens a pair of UDP
/// sockets on 127.0.0.1 to wake itself: the audit rightly reports those, and a fixture must leak
/// through its own channel only.
func filter(_ tool: String, _ arguments: [String], _ input: [UInt8]) -> [UInt8] {
    var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { say("LeakyFixtures: no pipe"); exit(3) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    for descriptor in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
    var argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, tool, &actions, nil, &argv, environ)
    posix_spawn_file_actions_destroy(&actions)
    for pointer in argv { free(pointer) }
    close(toChild[0]); close(fromChild[1])
    guard spawned == 0 else { say("LeakyFixtures: cannot run \(tool)"); exit(3) }
    _ = input.withUnsafeBytes { Glibc.write(toChild[1], $0.baseAddress, $0.count) }
    close(toChild[1])
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(fromChild[0], &buffer, buffer.count)
        if count <= 0 { break }
        output += buffer[..<count]
    }
    close(fromChild[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return output
}

switch mode {
case "write-canary-outside":
    guard arguments.count > 1 else { say("LeakyFixtures: write-canary-outside needs a path"); exit(2) }
    _ = prompt.withUnsealedText { write($0, to: arguments[1]) }
case "canary-in-report":
    writeReport(sandbox: confine(), extra: [("debug_prompt", prompt.withUnsealedText { .label($0) })])
case "output-to-stderr":
    writeReport(sandbox: confine())
    finish()
    say("LeakyFixtures: chips ready")
    say("Sounds good")
case "tcp-connect":
    let result = connectTCP(port(1))
    say("LeakyFixtures: connect " + (result == 0 ? "ok" : "failed \(result)"))
case "udp-send":
    let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
    var address = loopback(port(1))
    let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(descriptor, "x", 1, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    close(descriptor)
    say("LeakyFixtures: sendto " + (sent == 1 ? "ok" : "failed \(errno)"))
case "unsandboxed":
    writeReport(sandbox: .unsandboxed(because: .landlockTooOld(abi: 3, needed: Sandbox.minimumABI)))
case "confined-attempts":
    guard arguments.count > 2 else { say("LeakyFixtures: confined-attempts needs a port and a path"); exit(2) }
    let sandbox = confine()
    let wrote = write("x", to: arguments[2])
    let connected = connectTCP(port(1))
    say("LeakyFixtures: write outside \(wrote == 0 ? "ok" : "refused \(wrote)"), connect \(connected == 0 ? "ok" : "refused \(connected)")")
    writeReport(sandbox: sandbox)
case "clean":
    writeReport(sandbox: confine())
    say("LeakyFixtures: 1 prompt, 3 outputs, report in \(out)/report.json")
case "unix-dgram", "unix-abstract":
    let abstract = mode == "unix-abstract"
    let descriptor = socket(AF_UNIX, Int32(abstract ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue), 0)
    var (address, length) = unixAddress(argument(1, "a socket"), abstract: abstract)
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
            abstract ? connect(descriptor, target, length)
                : Int32(prompt.withUnsealedText { sendto(descriptor, $0, $0.utf8.count, 0, target, length) })
        }
    }
    close(descriptor)
    say("LeakyFixtures: \(mode) " + (result >= 0 ? "ok" : "failed \(errno)"))
case "netlink":
    let descriptor = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue), 0)
    say("LeakyFixtures: netlink " + (descriptor >= 0 ? "ok" : "failed \(errno)"))
    close(descriptor)
case "xattr-in-out":
    write("counts only\n", to: out + "/note.txt")
    let result = tap.canary.withCString { setxattr(out + "/note.txt", "user.note", $0, strlen($0), 0) }
    say("LeakyFixtures: setxattr " + (result == 0 ? "ok" : "failed \(errno)"))
case "chmod-in-out":
    write("counts only\n", to: out + "/mode.txt")
    say("LeakyFixtures: chmod " + (chmod(out + "/mode.txt", 0o600) == 0 ? "ok" : "failed \(errno)"))
case "utime-outside":
    say("LeakyFixtures: utimes " + (utimes(argument(1, "a path"), nil) == 0 ? "ok" : "failed \(errno)"))
case "name-in-out":
    say("LeakyFixtures: mkdir " + (mkdir(out + "/run-" + tap.canary, 0o755) == 0 ? "ok" : "failed \(errno)"))
case "symlink-in-out":
    say("LeakyFixtures: symlink " + (symlink("notes/" + tap.canary, out + "/latest") == 0 ? "ok" : "failed \(errno)"))
case "hardlink-outside":
    write("counts only\n", to: out + "/linked.txt")
    say("LeakyFixtures: link " + (link(out + "/linked.txt", argument(1, "a path")) == 0 ? "ok" : "failed \(errno)"))
case "fifo-outside":
    say("LeakyFixtures: mkfifo " + (mkfifo(argument(1, "a path"), 0o600) == 0 ? "ok" : "failed \(errno)"))
case "sysv-shm":
    let id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600)
    if id >= 0 { shmctl(id, IPC_RMID, nil) }
    say("LeakyFixtures: shmget " + (id >= 0 ? "ok" : "failed \(errno)"))
case "sysv-msg":
    let id = msgget(IPC_PRIVATE, IPC_CREAT | 0o600)
    if id >= 0 { msgctl(id, IPC_RMID, nil) }
    say("LeakyFixtures: msgget " + (id >= 0 ? "ok" : "failed \(errno)"))
case "sysv-sem":
    let id = semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600)
    say("LeakyFixtures: semget " + (id >= 0 ? "ok" : "failed \(errno)"))
    if id >= 0 { _ = filter("/usr/bin/ipcrm", ["-s", String(id)], []) }
case "signal":
    guard let target = Int32(argument(1, "a pid")) else { exit(2) }
    say("LeakyFixtures: kill " + (kill(target, SIGCONT) == 0 ? "ok" : "failed \(errno)"))
case "exec":
    _ = filter("/bin/true", [], [])
    writeReport(sandbox: confine())
case "remove-in-out":
    _ = prompt.withUnsealedText { write($0, to: out + "/draft.txt") }
    say("LeakyFixtures: unlink " + (unlink(out + "/draft.txt") == 0 ? "ok" : "failed \(errno)"))
case "encoded":
    let form = argument(1, "a form")
    let path = out + "/report.json"
    switch form {
    case "split":
        let canary = Array(tap.canary.utf8)
        write(pieces: [Array("{\"note\": \"".utf8) + canary[..<11], Array(canary[11...]) + Array("\"}\n".utf8)], to: path)
    case "zstd": write(pieces: [filter("/usr/bin/zstd", ["-q", "-c"], Array(tap.canary.utf8))], to: out + "/report.json.zst")
    case "gzip": write(pieces: [filter("/bin/gzip", ["-c"], Array(tap.canary.utf8))], to: out + "/report.json.gz")
    default: write(pieces: [encoded(form)], to: path)
    }
case "short-output-to-stderr":
    say("LeakyFixtures: chips ready")
    say("Tomorrow")
case "cjk-output-to-stderr":
    say("LeakyFixtures: chips ready")
    say("午後に会")
case "unix-prefix":
    guard chdir(argument(1, "a directory")) == 0 else { say("LeakyFixtures: cannot enter the directory"); exit(3) }
    let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var (address, length) = unixAddress("UNIX.sock", abstract: false)
    let sent = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
            prompt.withUnsealedText { sendto(descriptor, $0, $0.utf8.count, 0, target, length) }
        }
    }
    close(descriptor)
    expectWorked("sendto UNIX.sock", sent)
case "thread-name":
    let named = String(tap.canary.prefix(15)).withCString { rawSyscall(callNumbers.prctl, 15 /* PR_SET_NAME */, Int(bitPattern: $0), 0, 0, 0, 0) }
    expectWorked("prctl PR_SET_NAME", named)
case "flock", "lockf":
    write("counts only\n", to: out + "/locked.txt")
    let descriptor = open(out + "/locked.txt", O_RDWR)
    expectWorked(mode, Int(mode == "flock" ? flock(descriptor, LOCK_EX) : lockf(descriptor, F_LOCK, 0)))
case "rlimit":
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = min(limit.rlim_cur, 200 + rlim_t(tap.canary.utf8.first ?? 0))
    expectWorked("setrlimit", Int(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)))
case "priority":
    expectWorked("setpriority", Int(setpriority(Int32(PRIO_PROCESS.rawValue), 0, 7)))
case "affinity":
    var set = cpu_set_t()
    withUnsafeMutableBytes(of: &set) { $0[0] = 1 }
    let pinned = withUnsafePointer(to: &set) {
        rawSyscall(callNumbers.schedSetaffinity, 0, MemoryLayout<cpu_set_t>.size, Int(bitPattern: $0), 0, 0, 0)
    }
    expectWorked("sched_setaffinity", pinned)
case "process-vm-writev":
    // The target holds the whole canary: process_vm_writev writes as many bytes as the local
    // vector has, past the end of a shorter buffer.
    var source = Array(tap.canary.utf8)
    var target = [UInt8](repeating: 0, count: source.count)
    let written = target.withUnsafeMutableBytes { remote in
        source.withUnsafeMutableBytes { local in
            var localVector = iovec(iov_base: local.baseAddress, iov_len: local.count)
            var remoteVector = iovec(iov_base: remote.baseAddress, iov_len: local.count)
            return withUnsafeMutablePointer(to: &localVector) { localPointer in
                withUnsafeMutablePointer(to: &remoteVector) { remotePointer in
                    rawSyscall(callNumbers.processVMWritev, Int(getpid()), Int(bitPattern: localPointer), 1,
                               Int(bitPattern: remotePointer), 1, 0)
                }
            }
        }
    }
    expectWorked("process_vm_writev", written)
case "pidfd-getfd":
    let pidfd = rawSyscall(pidfdOpen, Int(getpid()), 0, 0, 0, 0, 0)
    expectWorked("pidfd_getfd", pidfd < 0 ? pidfd : rawSyscall(pidfdGetfd, pidfd, 1, 0, 0, 0, 0))
case "untraced-child":
    // The file is opened before the clone (strace sees that open, inside the out directory: no
    // finding), because strace's seccomp filter, which the child inherits, fails every traced
    // call of a process no tracer follows with ENOSYS; writing an open descriptor is allowed.
    // After the clone the child (a copy of one thread) only sleeps and writes.
    let bytes = Array(tap.canary.utf8)
    let descriptor = open(out + "/report.json", O_WRONLY | O_APPEND | O_CREAT, 0o644)
    let child = bytes.withUnsafeBytes { canary in
        let child = rawSyscall(callNumbers.clone, 0x0080_0000 /* CLONE_UNTRACED */ | Int(SIGCHLD), 0, 0, 0, 0, 0)
        if child == 0 {
            sleep(5)
            _ = Glibc.write(descriptor, canary.baseAddress, canary.count)
            _exit(0)
        }
        return child
    }
    expectWorked("clone", descriptor < 0 ? -1 : child)
case "hex-output-to-stderr":
    let chip = Array("Not yet, sorry".utf8).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    say("LeakyFixtures: chips ready")
    say(stride(from: 0, to: chip.count, by: 60).map { String(chip.dropFirst($0).prefix(60)) }.joined(separator: "\n"))
case "base64-output-in-out":
    let encoded = Data("chips: Not yet, sorry".utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
    write(pieces: [Array((encoded + "\n").utf8)], to: out + "/debug.b64")
case "canary-truncated", "canary-overwritten":
    let descriptor = open(out + "/draft.txt", O_RDWR | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { say("LeakyFixtures: cannot create draft.txt"); exit(3) }
    let length = prompt.withUnsealedText { text in text.withCString { Glibc.write(descriptor, $0, strlen($0)) } }
    if mode == "canary-truncated" {
        expectWorked("ftruncate", Int(ftruncate(descriptor, 0)))
    } else {
        let blank = [UInt8](repeating: UInt8(ascii: " "), count: max(length, 0))
        expectWorked("pwrite", blank.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) })
    }
    close(descriptor)
case "canary-stdout-truncated":
    _ = prompt.withUnsealedText { text in text.withCString { Glibc.write(1, $0, strlen($0)) } }
    expectWorked("ftruncate of standard output", Int(ftruncate(1, 0)))
case "write-stdin":
    let wrote = tap.canary.withCString { Glibc.write(0, $0, strlen($0)) }
    if wrote > 0 { say("LeakyFixtures: wrote to standard input"); exit(3) }
    say("LeakyFixtures: standard input refused the write (\(errno))")
case "argv-canary":
    guard let target = Int32(argument(1, "a pid")) else { exit(2) }
    _ = argument(2, "a filler")
    // The area /proc/PID/cmdline reads: the argument strings, one after another in memory.
    let argv = CommandLine.unsafeArgv
    let start = UnsafeMutableRawPointer(argv[1]!)
    let last = argv[Int(CommandLine.argc) - 1]!
    let length = UnsafeMutableRawPointer(last) - start + strlen(last)
    let canary = Array(tap.canary.utf8.prefix(length))
    memset(start, 0, length)
    canary.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
    let outside = FileManager.default.contents(atPath: "/proc/\(target)/cmdline") != nil
    let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }.count
    write("outside-readable \(outside)\nprocesses \(pids)\n", to: out + "/peek.txt")
    sleep(3)
default:
    say("LeakyFixtures: unknown mode \(mode)")
    exit(2)
}
finish()
