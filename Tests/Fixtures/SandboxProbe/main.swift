// SandboxProbe: a test-only program that confines itself with Audit's Sandbox and then tries what a
// leaky program would, printing one line per attempt ("write-inside ok", "connect-tcp EPERM"),
// first on the main thread and then, prefixed "thread:", on a thread started after confinement.
// The tests run it as a subprocess because confinement cannot be lifted from a process.
//
//   SandboxProbe --allowed DIR --outside DIR --port PORT [--abstract NAME] [--unix-path PATH]
//                [--unix-datagram PATH] [--unconfined] [--no-seccomp] [--keep-removal]
//                [--thread-first] [--preopen-outside] [--preopen-pipe] [--preopen-socket] [--refuse-writers]
//                [--shared-mapping] [--time-calls N]
//
// PORT is a TCP listener on 127.0.0.1 (UDP datagrams go to the same port number); NAME an abstract
// and PATH a named UNIX stream socket listening outside the sandbox, and the datagram PATH a named
// UNIX datagram socket bound outside it.
// --unconfined skips confinement (every attempt must then succeed, which proves the attempts can);
// --no-seccomp confines with Landlock alone; --keep-removal grants every right beneath DIR (not
// createOnly); --thread-first starts a thread before confining; each --preopen-* keeps a descriptor
// open for writing across confinement, which confinement must point at /dev/null, or refuse with
// --refuse-writers.
//
// Before confining, the probe starts a child (itself with --child) that it later tries to signal;
// the child ignores SIGUSR1, and once the probe has exited it removes the System V objects the probe
// made for its attempts, which a confined probe cannot remove itself.
import Confinement
import CSandbox
import Foundation
import Privacy

/// Runs a raw system call with integer or pointer arguments; the result, or -errno.
func systemCall(_ number: Int32, _ arguments: Int...) -> Int {
    let a = arguments + Array(repeating: 0, count: 6 - arguments.count)
    return replay_system_call(Int(number), a[0], a[1], a[2], a[3], a[4], a[5])
}

/// A C string's address as a system call argument; valid only inside `body`.
func withAddress<R>(_ text: String, _ body: (Int) -> R) -> R {
    text.withCString { body(Int(bitPattern: $0)) }
}

if CommandLine.arguments.dropFirst().first == "--child" {
    // The signal target. SIGUSR1 is ignored already (inherited from the probe), so the unconfined
    // attempt does not kill it. It waits for the probe to exit (it is then reparented), then
    // removes the probe's System V objects: "shm:ID", "msg:ID", "sem:ID". The probe's pid comes as
    // an argument: the probe may be gone before this process has started up.
    let parent = pid_t(CommandLine.arguments.dropFirst(2).first ?? "") ?? 1
    while getppid() == parent { usleep(20_000) }
    for object in CommandLine.arguments.dropFirst(3) {
        let parts = object.split(separator: ":")
        guard parts.count == 2, let id = Int32(parts[1]) else { continue }
        switch parts[0] {
        case "shm": _ = shmctl(id, IPC_RMID, nil)
        case "msg": _ = msgctl(id, IPC_RMID, nil)
        case "sem": _ = systemCall(Int32(SYS_semctl), Int(id), 0, Int(IPC_RMID))
        default: break
        }
    }
    exit(0)
}

var options: [String: String] = [:]
var flags: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if ["--allowed", "--outside", "--port", "--abstract", "--unix-path", "--unix-datagram", "--time-calls"].contains(argument),
       let value = arguments.popFirst() {
        options[argument] = value
    } else {
        flags.insert(argument)
    }
}
guard let allowed = options["--allowed"], let outside = options["--outside"], let port = options["--port"].flatMap(UInt16.init) else {
    FileHandle.standardError.write(Data("usage: SandboxProbe --allowed DIR --outside DIR --port PORT [--abstract NAME] [--unix-path PATH] [--unix-datagram PATH] [--unconfined] [--no-seccomp] [--keep-removal] [--thread-first] [--preopen-outside] [--preopen-pipe] [--preopen-socket] [--refuse-writers]\n".utf8))
    exit(2)
}

/// Writes a line straight to stdout (no buffer to flush if the kernel kills the process).
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// What one run of the attempts works on, made before confinement.
struct Prepared: Sendable {
    /// A file beneath the allowed directory, open for writing.
    let preopened: Int32
    /// A file outside, open for reading only.
    let readOnly: Int32
    /// System V objects made before confinement, for shmat, msgsnd and semop.
    let sharedMemory: Int32
    let messageQueue: Int32
    let semaphores: Int32
}

/// The attempts, on the paths and port given; a value so a thread started later can take it.
struct Probe: Sendable {
    let allowed: String
    let outside: String
    let port: UInt16
    let abstractName: String?
    let unixPath: String?
    let unixDatagramPath: String?
    /// A process started before confinement (the probe's child), to signal.
    let child: pid_t
    /// A pseudo-terminal's follower (/dev/pts/N) whose leader the probe holds open read-only.
    let terminal: String?
    /// That leader's descriptor, or -1.
    var terminalLeader: Int32 = -1

    static let errnoNames: [Int32: String] = [
        EACCES: "EACCES", EPERM: "EPERM", EXDEV: "EXDEV", ENOENT: "ENOENT", EEXIST: "EEXIST", ECONNREFUSED: "ECONNREFUSED",
        EAFNOSUPPORT: "EAFNOSUPPORT", EROFS: "EROFS", EISCONN: "EISCONN", ENXIO: "ENXIO", EBADF: "EBADF", EINVAL: "EINVAL",
        ENOSYS: "ENOSYS", ENODATA: "ENODATA", ENOTSUP: "ENOTSUP", ENOTCONN: "ENOTCONN", ESRCH: "ESRCH", EIDRM: "EIDRM",
        ENOKEY: "ENOKEY", EDQUOT: "EDQUOT", ENOTTY: "ENOTTY", EPROTOTYPE: "EPROTOTYPE",
    ]

    /// "ok", or the errno's name.
    func outcome(_ result: Int32) -> String {
        result >= 0 ? "ok" : Self.errnoNames[errno] ?? "errno\(errno)"
    }

    /// "ok", or the errno's name, for a raw system call's result (-errno on failure).
    func outcome(raw result: Int) -> String {
        result >= 0 ? "ok" : Self.errnoNames[Int32(-result)] ?? "errno\(-result)"
    }

    func createFile(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor >= 0 { _ = write(descriptor, "x", 1); close(descriptor) }
    }

    func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }

    func withSockaddr<R>(_ address: sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = address
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// A UNIX socket address; a name starting with NUL is abstract, and its length counts exactly.
    func withUnixAddress<R>(_ name: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.prefix(path.count - 1).enumerated() { path[index] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + min(bytes.count, 107) + (name.hasPrefix("\0") ? 0 : 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }

    /// A socket of this family and type, then `then` on it; the outcome of whichever failed first.
    func withSocket(_ family: Int32, _ type: Int32, then: (Int32) -> Int32 = { _ in 0 }) -> String {
        let descriptor = socket(family, type, 0)
        if descriptor < 0 { return outcome(descriptor) }
        defer { close(descriptor) }
        return outcome(then(descriptor))
    }

    /// An `AF_UNIX` socket pair of this type, then `then` on one end; the outcome of whichever failed first.
    func withSocketPair(_ type: Int32, then: (Int32) -> Int32 = { _ in 0 }) -> String {
        var pair: [Int32] = [-1, -1]
        let made = socketpair(AF_UNIX, type, 0, &pair)
        if made != 0 { return outcome(made) }
        defer { close(pair[0]); close(pair[1]) }
        return outcome(then(pair[0]))
    }

    /// Files and kernel objects a run of the attempts works on, made before confinement.
    func prepare(_ scope: String) -> Prepared {
        for name in ["inner", "unlink", "rename", "truncate", "open-trunc", "ftruncate", "overwrite", "link", "meta"] {
            createFile("\(allowed)/\(scope)-\(name)")
        }
        mkdir("\(allowed)/\(scope)-kept-dir", 0o755)
        for name in ["user.replay-remove", "user.replay-lremove", "user.replay-fremove"] {
            _ = withAddress("\(allowed)/\(scope)-meta") { path in
                withAddress(name) { attribute in withAddress("x") { systemCall(Int32(SYS_setxattr), path, attribute, $0, 1, 0) } }
            }
        }
        for name in ["existing", "victim", "rename-source", "truncated", "meta"] { createFile("\(outside)/\(scope)-\(name)") }
        let create = IPC_CREAT | 0o600
        return Prepared(preopened: open("\(allowed)/\(scope)-preopened", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644),
                        readOnly: open("\(outside)/\(scope)-existing", O_RDONLY | O_CLOEXEC),
                        sharedMemory: shmget(IPC_PRIVATE, 4096, create), messageQueue: msgget(IPC_PRIVATE, create),
                        semaphores: semget(IPC_PRIVATE, 1, create))
    }

    func attempt(_ scope: String, _ prepared: Prepared) {
        let prefix = scope == "main" ? "" : "\(scope):"
        func report(_ name: String, _ result: String) { say(prefix + name + " " + result) }
        func report(_ name: String, _ result: Int32) { report(name, outcome(result)) }
        func report(_ name: String, raw result: Int) { report(name, outcome(raw: result)) }
        func openAndWrite(_ path: String, _ flags: Int32) -> Int32 {
            let descriptor = open(path, flags | O_CLOEXEC, 0o644)
            if descriptor < 0 { return descriptor }
            defer { close(descriptor) }
            return Int32(write(descriptor, "x", 1))
        }
        /// Opens `path` for writing, then `body` on the descriptor.
        func withWritable(_ path: String, _ body: (Int32) -> Int32) -> Int32 {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            if descriptor < 0 { return descriptor }
            defer { close(descriptor) }
            return body(descriptor)
        }
        let inside = "\(allowed)/\(scope)"
        let out = "\(outside)/\(scope)"

        // Files beneath the allowed directory: created and written, never taken back.
        report("write-inside", openAndWrite("\(inside)-new", O_WRONLY | O_CREAT | O_EXCL))
        report("mkdir-inside", mkdir("\(inside)-dir", 0o755))
        report("overwrite-inside", openAndWrite("\(inside)-overwrite", O_WRONLY))
        report("rename-inside", rename("\(inside)-rename", "\(inside)-renamed"))
        report("unlink-inside", unlink("\(inside)-unlink"))
        report("rmdir-inside", rmdir("\(inside)-kept-dir"))
        report("truncate-inside", truncate("\(inside)-truncate", 0))
        report("open-trunc-inside", openAndWrite("\(inside)-open-trunc", O_WRONLY | O_TRUNC))
        report("ftruncate-inside", withWritable("\(inside)-ftruncate") { ftruncate($0, 0) })
        report("symlink-inside", symlink("target", "\(inside)-symlink"))
        report("link-inside", link("\(inside)-link", "\(inside)-linked"))
        report("mkfifo-inside", mkfifo("\(inside)-fifo", 0o600))
        report("mknod-char-inside", mknod("\(inside)-null", S_IFCHR | 0o600, 0x103))  // 1:3, /dev/null's numbers

        // Files elsewhere.
        report("write-outside", openAndWrite("\(out)-existing", O_WRONLY))
        report("create-outside", openAndWrite("\(out)-created", O_WRONLY | O_CREAT | O_EXCL))
        report("mkdir-outside", mkdir("\(out)-dir", 0o755))
        report("symlink-outside", symlink("target", "\(out)-link"))
        report("link-outside", link("\(out)-victim", "\(out)-linked"))
        report("mkfifo-outside", mkfifo("\(out)-fifo", 0o600))
        report("rename-outside", rename("\(out)-rename-source", "\(out)-renamed"))
        report("move-out", rename("\(inside)-inner", "\(out)-escaped"))
        report("unlink-outside", unlink("\(out)-victim"))
        report("truncate-outside", truncate("\(out)-truncated", 0))
        let sharedMemoryName = "/dev/shm/replay-probe-\(getpid())-\(scope)"
        let shared = openAndWrite(sharedMemoryName, O_RDWR | O_CREAT | O_EXCL)
        if shared >= 0 { unlink(sharedMemoryName) }
        report("shm-open", shared)
        report("write-devnull", openAndWrite("/dev/null", O_WRONLY | O_TRUNC))
        report("write-dev-tty", openAndWrite("/dev/tty", O_WRONLY | O_NOCTTY))
        if let terminal { report("write-pts", openAndWrite(terminal, O_WRONLY | O_NOCTTY)) }

        // Descriptors opened before confinement: stderr and one beneath the allowed directory.
        report("write-preopened", Int32(write(prepared.preopened, "x", 1)))
        var byte: UInt8 = 0
        report("read-preopened", Int32(pread(prepared.readOnly, &byte, 1, 0)))
        report("write-stderr", Int32(write(2, "probe\n", 6)))

        // Metadata, on a file beneath the allowed directory (Landlock lets it be written) and outside.
        let meta = "\(inside)-meta"
        report("chmod-inside", chmod(meta, 0o600))
        report("chmod-outside", chmod("\(out)-meta", 0o600))
        report("fchmod", withWritable(meta) { fchmod($0, 0o600) })
        report("fchmodat", fchmodat(AT_FDCWD, meta, 0o600, 0))
        report("fchmodat2", raw: withAddress(meta) { systemCall(Int32(__NR_fchmodat2), Int(AT_FDCWD), $0, 0o600, 0) })
        report("chown", chown(meta, getuid(), getgid()))
        report("lchown", lchown(meta, getuid(), getgid()))
        report("fchown", withWritable(meta) { fchown($0, getuid(), getgid()) })
        report("fchownat", fchownat(AT_FDCWD, meta, getuid(), getgid(), 0))
        report("utimes", utimes(meta, nil))
        report("utimensat", utimensat(AT_FDCWD, meta, nil, 0))
        report("futimens", withWritable(meta) { futimens($0, nil) })
        let value = "x"
        report("setxattr", raw: withAddress(meta) { path in
            withAddress("user.replay-set") { name in withAddress(value) { systemCall(Int32(SYS_setxattr), path, name, $0, 1, 0) } }
        })
        report("lsetxattr", raw: withAddress(meta) { path in
            withAddress("user.replay-lset") { name in withAddress(value) { systemCall(Int32(SYS_lsetxattr), path, name, $0, 1, 0) } }
        })
        let metaDescriptor = open(meta, O_WRONLY | O_CLOEXEC)   // Landlock allows it: the file is beneath the allowed directory
        defer { close(metaDescriptor) }
        report("fsetxattr", raw: withAddress("user.replay-fset") { name in
            withAddress(value) { systemCall(Int32(SYS_fsetxattr), Int(metaDescriptor), name, $0, 1, 0) }
        })
        report("removexattr", raw: withAddress(meta) { path in
            withAddress("user.replay-remove") { systemCall(Int32(SYS_removexattr), path, $0) }
        })
        report("lremovexattr", raw: withAddress(meta) { path in
            withAddress("user.replay-lremove") { systemCall(Int32(SYS_lremovexattr), path, $0) }
        })
        report("fremovexattr", raw: withAddress("user.replay-fremove") { systemCall(Int32(SYS_fremovexattr), Int(metaDescriptor), $0) })

        // Sockets.
        let stream = Int32(SOCK_STREAM.rawValue)
        let datagram = Int32(SOCK_DGRAM.rawValue)
        let sequenced = Int32(SOCK_SEQPACKET.rawValue)
        report("connect-tcp", withSocket(AF_INET, stream) { descriptor in
            withSockaddr(loopback(port)) { connect(descriptor, $0, $1) }
        })
        report("bind-tcp", withSocket(AF_INET, stream) { descriptor in
            withSockaddr(loopback(0)) { bind(descriptor, $0, $1) }
        })
        report("udp-sendto", withSocket(AF_INET, datagram) { descriptor in
            withSockaddr(loopback(port)) { Int32(sendto(descriptor, "x", 1, 0, $0, $1)) }
        })
        report("inet6-socket", withSocket(AF_INET6, stream))
        report("netlink-socket", withSocket(AF_NETLINK, datagram))
        report("unix-socket", withSocket(AF_UNIX, stream))
        report("unix-datagram-socket", withSocket(AF_UNIX, datagram))
        if let abstractName {
            report("connect-abstract-unix", withSocket(AF_UNIX, stream) { descriptor in
                withUnixAddress("\0" + abstractName) { connect(descriptor, $0, $1) }
            })
        }
        if let unixPath {
            report("connect-named-unix", withSocket(AF_UNIX, stream) { descriptor in
                withUnixAddress(unixPath) { connect(descriptor, $0, $1) }
            })
        }
        report("unix-socketpair", withSocketPair(stream) { Int32(write($0, "x", 1)) })
        report("unix-socketpair-datagram", withSocketPair(datagram))
        report("socketpair-sendmsg", withSocketPair(stream) { descriptor in
            var byte: UInt8 = 0x78
            return withUnsafeMutablePointer(to: &byte) { pointer in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(pointer), iov_len: 1)
                return withUnsafeMutablePointer(to: &vector) { vectors in
                    var message = msghdr()
                    message.msg_iov = vectors
                    message.msg_iovlen = 1
                    return Int32(sendmsg(descriptor, &message, 0))
                }
            }
        })
        if let unixDatagramPath {
            // A datagram socket pair's end can send to any named datagram socket (/dev/log).
            report("sendto-named-unix", withSocketPair(datagram) { descriptor in
                withUnixAddress(unixDatagramPath) { Int32(sendto(descriptor, "x", 1, 0, $0, $1)) }
            })
            // A seqpacket pair ignores the address, so only the filter's rule on sendto stops it.
            report("socketpair-sendto-address", withSocketPair(sequenced) { descriptor in
                withUnixAddress(unixDatagramPath) { Int32(sendto(descriptor, "x", 1, 0, $0, $1)) }
            })
        }
        var ringParameters = [UInt8](repeating: 0, count: 120)   // struct io_uring_params, zeroed
        let ring = ringParameters.withUnsafeMutableBytes { systemCall(Int32(SYS_io_uring_setup), 1, Int(bitPattern: $0.baseAddress)) }
        if ring >= 0 { close(Int32(ring)) }
        report("io-uring-setup", raw: ring)

        // Kernel objects that outlive the process; those made here unconfined are removed at once.
        let create = IPC_CREAT | 0o600
        let memory = shmget(IPC_PRIVATE, 4096, create)
        if memory >= 0 { shmctl(memory, IPC_RMID, nil) }
        report("shmget", memory)
        let attached = shmat(prepared.sharedMemory, nil, 0)
        if attached != UnsafeMutableRawPointer(bitPattern: -1) { shmdt(attached) }
        report("shmat", attached == UnsafeMutableRawPointer(bitPattern: -1) ? -1 : 0)
        let queue = msgget(IPC_PRIVATE, create)
        if queue >= 0 { msgctl(queue, IPC_RMID, nil) }
        report("msgget", queue)
        var message: (Int, UInt8) = (1, 0x78)   // struct msgbuf: mtype, then the text
        report("msgsnd", msgsnd(prepared.messageQueue, &message, 1, IPC_NOWAIT))
        let semaphore = semget(IPC_PRIVATE, 1, create)
        if semaphore >= 0 { _ = systemCall(Int32(SYS_semctl), Int(semaphore), 0, Int(IPC_RMID)) }
        report("semget", semaphore)
        var operation = sembuf(sem_num: 0, sem_op: 1, sem_flg: 0)
        report("semop", semop(prepared.semaphores, &operation, 1))
        let queueName = "replay-probe-\(getpid())-\(scope)"   // the system call takes it without glibc's leading slash
        // struct mq_attr with one message of one byte: the default (ten of 8 KiB) soon meets the
        // user's RLIMIT_MSGQUEUE when several probes run at once.
        var queueAttributes = [Int](repeating: 0, count: 8)
        queueAttributes[1] = 1   // mq_maxmsg
        queueAttributes[2] = 1   // mq_msgsize
        let posixQueue = queueAttributes.withUnsafeMutableBytes { attributes in
            withAddress(queueName) {
                systemCall(Int32(SYS_mq_open), $0, Int(O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC), 0o600,
                           Int(bitPattern: attributes.baseAddress))
            }
        }
        if posixQueue >= 0 {
            close(Int32(posixQueue))
            _ = withAddress(queueName) { systemCall(Int32(SYS_mq_unlink), $0) }
        }
        report("mq-open", raw: posixQueue)
        let processKeyring = -2   // KEY_SPEC_PROCESS_KEYRING: gone with the process
        let keyName = "replay-probe-\(scope)"
        report("add-key", raw: withAddress("user") { type in
            withAddress(keyName) { name in withAddress("x") { systemCall(Int32(SYS_add_key), type, name, $0, 1, processKeyring) } }
        })
        report("request-key", raw: withAddress("user") { type in
            withAddress(keyName) { systemCall(Int32(SYS_request_key), type, $0, 0, 0) }
        })
        report("keyctl", raw: systemCall(Int32(SYS_keyctl), 0 /* KEYCTL_GET_KEYRING_ID */, processKeyring, 1))
        // The host name set to what it is already (root only): the call, not a change, is the point.
        var hostName = [CChar](repeating: 0, count: 256)
        gethostname(&hostName, hostName.count - 1)
        report("sethostname", sethostname(hostName, strlen(hostName)))

        // Other processes.
        report("signal-child", kill(child, 0))
        report("signal-child-usr1", kill(child, SIGUSR1))
        report("signal-self", kill(getpid(), 0))
        var spawned: pid_t = 0
        let program = "/bin/true"
        let spawnArguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        defer { free(spawnArguments[0]) }
        let spawnResult = posix_spawn(&spawned, program, nil, nil, spawnArguments, environ)
        if spawnResult == 0 { var status: Int32 = 0; waitpid(spawned, &status, 0) }
        report("exec", spawnResult == 0 ? "ok" : Self.errnoNames[spawnResult] ?? "errno\(spawnResult)")

        // Attributes of this process and of others that the kernel shows other processes: each
        // attempt sets a value to what it is already, so unconfined nothing changes but the call.
        storageChannels(report: { (name: String, result: Int32) in report(name, result) },
                        reportRaw: { (name: String, result: Int) in report(name, raw: result) }, scope: scope, prepared: prepared)

        // Core dumps: read back, then try to turn them on again.
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_CORE.rawValue)
        getrlimit(resource, &limit)
        report("dumpable", String(replay_dumpable()))
        report("core-limit", "\(limit.rlim_cur)/\(limit.rlim_max)")
        report("set-dumpable", raw: systemCall(Int32(SYS_prctl), 4 /* PR_SET_DUMPABLE */, Int(replay_dumpable())))
        report("set-core-limit", setrlimit(resource, &limit))
    }
}

extension Probe {
    /// The storage channels of issue 16: state another process (of any user, through /proc, or
    /// sharing a descriptor) can read, each tried with a value it has already.
    func storageChannels(report: (String, Int32) -> Void, reportRaw: (String, Int) -> Void, scope: String, prepared: Prepared) {
        func say(_ name: String, _ text: String) { sayLine(scope, name, text) }
        // Names: the thread's (PR_SET_NAME, /proc/self/comm, a thread's comm file).
        var name = [UInt8](repeating: 0, count: 16)
        _ = name.withUnsafeMutableBytes { systemCall(Int32(SYS_prctl), 16 /* PR_GET_NAME */, Int(bitPattern: $0.baseAddress)) }
        reportRaw("set-name", name.withUnsafeBytes { systemCall(Int32(SYS_prctl), 15 /* PR_SET_NAME */, Int(bitPattern: $0.baseAddress)) })
        let current = String(decoding: name.prefix { $0 != 0 }, as: UTF8.self)
        for (attempt, path) in [("write-proc-comm", "/proc/self/comm"), ("write-thread-comm", "/proc/thread-self/comm")] {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            if descriptor >= 0 {
                let written = Glibc.write(descriptor, current, current.utf8.count)
                close(descriptor)
                report(attempt, Int32(written))
            } else {
                report(attempt, descriptor)
            }
        }
        let adjustment = (try? String(contentsOfFile: "/proc/self/oom_score_adj", encoding: .utf8)) ?? "0\n"
        let adjust = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC)
        if adjust >= 0 {
            report("write-oom-score-adj", Int32(Glibc.write(adjust, adjustment, adjustment.utf8.count)))
            close(adjust)
        } else {
            report("write-oom-score-adj", adjust)
        }

        // The argument and environment areas: plain memory, written without a system call.
        let marker: UInt8 = scope == "main" ? 0x4d : 0x54   // "M", "T"
        CommandLine.unsafeArgv[0]?.pointee = CChar(bitPattern: marker)
        let shown = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/cmdline"))) ?? Data()
        say("cmdline-shows-memory", shown.first == marker ? "ok" : "hidden")
        if let variable = environ[0] { variable.pointee = CChar(bitPattern: marker) }
        let environment = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/environ"))) ?? Data()
        say("environ-shows-memory", environment.first == marker ? "ok" : "hidden")

        // Locks and leases, which /proc/locks lists for every user: a whole-file read lock is a
        // struct flock of zeros (F_RDLCK, SEEK_SET, 0, 0).
        let file = prepared.readOnly
        let locked = flock(file, LOCK_SH | LOCK_NB)
        if locked == 0 { flock(file, LOCK_UN) }
        report("flock", locked)
        var lock = [UInt8](repeating: 0, count: 64)
        for (attempt, command) in [("fcntl-lock", 6 /* F_SETLK */), ("ofd-lock", 37 /* F_OFD_SETLK */)] {
            let result = lock.withUnsafeMutableBytes { systemCall(Int32(SYS_fcntl), Int(file), command, Int(bitPattern: $0.baseAddress)) }
            if result >= 0 {
                lock[0] = 2   // F_UNLCK
                _ = lock.withUnsafeMutableBytes { systemCall(Int32(SYS_fcntl), Int(file), command, Int(bitPattern: $0.baseAddress)) }
                lock[0] = 0
            }
            reportRaw(attempt, result)
        }
        let lease = systemCall(Int32(SYS_fcntl), Int(file), 1024 /* F_SETLEASE */, 0 /* F_RDLCK */)
        if lease >= 0 { _ = systemCall(Int32(SYS_fcntl), Int(file), 1024, 2 /* F_UNLCK */) }
        reportRaw("lease", lease)

        // Descriptors shared with other processes: stdin's flags, a pipe's size, a socket's buffers.
        reportRaw("setfl-stdin", systemCall(Int32(SYS_fcntl), 0, Int(F_SETFL), Int(fcntl(0, F_GETFL))))
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            let size = systemCall(Int32(SYS_fcntl), Int(ends[1]), 1032 /* F_GETPIPE_SZ */)
            reportRaw("set-pipe-size", systemCall(Int32(SYS_fcntl), Int(ends[1]), 1031 /* F_SETPIPE_SZ */, size))
            close(ends[0]); close(ends[1])
        }
        var pair: [Int32] = [-1, -1]
        if socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 {
            var buffer: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &buffer, &length)
            buffer /= 2   // the kernel doubles what it is given
            report("setsockopt", setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &buffer, length))
            close(pair[0]); close(pair[1])
        }
        // A terminal's size, which every process on it reads: through the pseudo-terminal's
        // leader, opened before confinement as stdout may be a terminal.
        if terminalLeader >= 0 {
            var size = winsize()
            let TIOCGWINSZ = UInt(0x5413), TIOCSWINSZ = UInt(0x5414)
            if ioctl(terminalLeader, TIOCGWINSZ, &size) == 0 {
                report("set-terminal-size", ioctl(terminalLeader, TIOCSWINSZ, &size))
            } else {
                say("set-terminal-size", "unavailable")
            }
        }

        // Limits, priorities, affinity and scheduling, of this process and of another.
        for (prefix, pid) in [("", 0), ("other-", Int(child))] {
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
            reportRaw("set-\(prefix)limit", withUnsafePointer(to: &limit) {
                systemCall(Int32(SYS_prlimit64), pid, Int(RLIMIT_NOFILE.rawValue), Int(bitPattern: $0), 0)
            })
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid))
            reportRaw("set-\(prefix)priority", systemCall(Int32(SYS_setpriority), Int(PRIO_PROCESS.rawValue), pid, Int(nice)))
            var mask = [UInt8](repeating: 0, count: 128)
            let size = mask.withUnsafeMutableBytes { systemCall(Int32(SYS_sched_getaffinity), pid, 128, Int(bitPattern: $0.baseAddress)) }
            reportRaw("set-\(prefix)affinity", mask.withUnsafeMutableBytes {
                systemCall(Int32(SYS_sched_setaffinity), pid, max(size, 8), Int(bitPattern: $0.baseAddress))
            })
            var parameter: Int32 = 0
            reportRaw("set-\(prefix)scheduler", withUnsafeMutablePointer(to: &parameter) {
                systemCall(Int32(SYS_sched_setscheduler), pid, 0 /* SCHED_OTHER */, Int(bitPattern: $0))
            })
            let priority = systemCall(Int32(SYS_ioprio_get), 1 /* IOPRIO_WHO_PROCESS */, pid)
            reportRaw("set-\(prefix)io-priority", systemCall(Int32(SYS_ioprio_set), 1, pid, max(priority, 0)))
        }
        reportRaw("pidfd-open", { let fd = systemCall(Int32(SYS_pidfd_open), Int(child), 0); if fd >= 0 { close(Int32(fd)) }; return fd }())

        // The process's own settings: umask, group, personality, THP, timer slack, namespaces.
        let mask = systemCall(Int32(SYS_umask), 0o022)
        if mask >= 0 { _ = systemCall(Int32(SYS_umask), mask) }
        reportRaw("umask", mask)
        report("setpgid", setpgid(0, getpgrp() == getpid() ? 0 : getpgrp()))
        let persona = systemCall(Int32(SYS_personality), 0xffff_ffff)
        reportRaw("set-personality", systemCall(Int32(SYS_personality), persona))
        let transparent = systemCall(Int32(SYS_prctl), 42 /* PR_GET_THP_DISABLE */)
        reportRaw("set-thp", systemCall(Int32(SYS_prctl), 41 /* PR_SET_THP_DISABLE */, max(transparent, 0)))
        let slack = systemCall(Int32(SYS_prctl), 30 /* PR_GET_TIMERSLACK */)
        reportRaw("set-timer-slack", systemCall(Int32(SYS_prctl), 29 /* PR_SET_TIMERSLACK */, max(slack, 1)))
        reportRaw("unshare", systemCall(Int32(SYS_unshare), 0x200 /* CLONE_FS */))
        reportRaw("memfd-create", withAddress("probe") { name in
            let fd = systemCall(Int32(SYS_memfd_create), name, 1 /* MFD_CLOEXEC */)
            if fd >= 0 { close(Int32(fd)) }
            return fd
        })
        var timer: Int32 = 0
        var event = [UInt8](repeating: 0, count: 64)   // struct sigevent: SIGEV_NONE (1) at offset 12
        event[12] = 1
        let made = event.withUnsafeMutableBytes { notify in
            withUnsafeMutablePointer(to: &timer) { systemCall(Int32(SYS_timer_create), Int(CLOCK_MONOTONIC), Int(bitPattern: notify.baseAddress), Int(bitPattern: $0)) }
        }
        if made >= 0 { _ = systemCall(Int32(SYS_timer_delete), Int(timer)) }
        reportRaw("timer-create", made)
        // A child process (clone without CLONE_THREAD, as fork makes): it leaves at once.
        let forked = systemCall(Int32(SYS_clone), Int(SIGCHLD), 0, 0, 0, 0)
        if forked == 0 { _ = systemCall(Int32(SYS_exit_group), 0) }
        if forked > 0 { var status: Int32 = 0; waitpid(pid_t(forked), &status, 0) }
        reportRaw("fork", forked)
    }
}

/// One attempt's line, prefixed with the scope as `attempt`'s own lines are.
func sayLine(_ scope: String, _ name: String, _ text: String) {
    say((scope == "main" ? "" : "\(scope):") + name + " " + text)
}

// Before confinement: a pseudo-terminal to try to write to, and a child to signal.
let ptmx = open("/dev/ptmx", O_RDONLY | O_NOCTTY | O_CLOEXEC)
var terminal: String? = nil
if ptmx >= 0 {
    var locked: Int32 = 0
    var number: UInt32 = 0
    let TIOCSPTLCK = UInt(0x4004_5431), TIOCGPTN = UInt(0x8004_5430)   // _IOW('T', 0x31, int), _IOR('T', 0x30, unsigned int)
    if ioctl(ptmx, TIOCSPTLCK, &locked) == 0, ioctl(ptmx, TIOCGPTN, &number) == 0 { terminal = "/dev/pts/\(number)" }
}

let probe0 = Probe(allowed: allowed, outside: outside, port: port, abstractName: options["--abstract"],
                   unixPath: options["--unix-path"], unixDatagramPath: options["--unix-datagram"], child: 0, terminal: terminal)
let prepared = (main: probe0.prepare("main"), thread: probe0.prepare("thread"))

signal(SIGUSR1, SIG_IGN)   // inherited by the child through exec
var child: pid_t = 0
do {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    for descriptor in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0) }
    let objects = [prepared.main, prepared.thread].flatMap { ["shm:\($0.sharedMemory)", "msg:\($0.messageQueue)", "sem:\($0.semaphores)"] }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let childArguments: [UnsafeMutablePointer<CChar>?] = ([executable, "--child", String(getpid())] + objects).map { strdup($0) } + [nil]
    if posix_spawn(&child, executable, &actions, nil, childArguments, environ) != 0 { child = 0 }
    posix_spawn_file_actions_destroy(&actions)
    for argument in childArguments { free(argument) }
}
let probe = Probe(allowed: allowed, outside: outside, port: port, abstractName: probe0.abstractName, unixPath: probe0.unixPath,
                  unixDatagramPath: probe0.unixDatagramPath, child: child, terminal: terminal,
                  terminalLeader: terminal == nil ? -1 : ptmx)
say("child \(child > 0 ? "started" : "failed")")

// Descriptors open for writing across confinement, which must then point at /dev/null (or, with
// --refuse-writers, make confinement refuse). Each --preopen-* writes one byte through its
// descriptor after confining and reports how many arrived: 1 unconfined, 0 confined.
let preopenedOutside = "\(outside)/preopened-outside"
let fileWriter = flags.contains("--preopen-outside") ? open(preopenedOutside, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) : -1
var pipeEnds: [Int32] = [-1, -1]
if flags.contains("--preopen-pipe") { _ = pipe(&pipeEnds) }
var socketEnds: [Int32] = [-1, -1]
if flags.contains("--preopen-socket") { _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &socketEnds) }
// --kept-loopback: a TCP connection to the listener on 127.0.0.1:PORT made before confining and
// kept through it (`SandboxPolicy.keptConnections`, as `replay suite run --endpoint` keeps its
// server's). After confining: a byte sent on it, then the same socket pointed at another port and
// at another address, by connect(2) and by sendto(2) with an address.
var kept: Int32 = -1
if flags.contains("--kept-loopback") {
    kept = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if probe.withSockaddr(probe.loopback(port), { connect(kept, $0, $1) }) != 0 { close(kept); kept = -1 }
    say("kept-connected \(kept >= 0 ? "ok" : "failed")")
}

/// Writes a byte into `writer`, then counts the bytes waiting at `reader` without blocking.
func arrived(_ writer: Int32, _ reader: Int32) -> Int {
    _ = write(writer, "x", 1)
    _ = fcntl(reader, F_SETFL, O_NONBLOCK)
    var buffer = [UInt8](repeating: 0, count: 8)
    return max(0, read(reader, &buffer, buffer.count))
}

// --shared-mapping: memory shared for writing, as a library could map before confinement and
// share with a process it forks; confinement must refuse.
if flags.contains("--shared-mapping") {
    let shared = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0)
    say("shared-mapping \(shared == MAP_FAILED ? "failed" : "made")")
}
if flags.contains("--thread-first") {
    Thread { while true { sleep(60) } }.start()
    while (Sandbox.threadCount() ?? 0) < 2 { usleep(1000) }
}
say("threads-before \(Sandbox.threadCount() ?? -1)")
if !flags.contains("--unconfined") {
    do {
        let policy = SandboxPolicy(writableDirectories: [allowed], createOnly: !flags.contains("--keep-removal"),
                                   filterSystemCalls: !flags.contains("--no-seccomp"),
                                   openWriters: flags.contains("--refuse-writers") ? .refuse : .redirectToDevNull,
                                   keptConnections: kept >= 0 ? [kept] : [])
        let report = try Sandbox.confine(policy)
        say("confined " + ReportValue(encoding: report).json().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined())
    } catch {
        say("confine-failed \(error)")
        exit(3)
    }
}

if fileWriter >= 0 {
    _ = write(fileWriter, "x", 1)
    var status = stat()
    say("preopened-file-size \(stat(preopenedOutside, &status) == 0 ? Int(status.st_size) : -1)")
}
if pipeEnds[1] >= 0 { say("pipe-received \(arrived(pipeEnds[1], pipeEnds[0]))") }
if socketEnds[1] >= 0 { say("socket-received \(arrived(socketEnds[0], socketEnds[1]))") }
if kept >= 0 {
    say("kept-send \(probe.outcome(Int32(send(kept, "x", 1, 0))))")
    let otherPort = probe.loopback(port == UInt16.max ? port - 1 : port + 1)
    var otherAddress = probe.loopback(port)
    otherAddress.sin_addr.s_addr = UInt32(0x7f00_0002).bigEndian   // 127.0.0.2
    say("kept-connect-other-port \(probe.withSockaddr(otherPort) { probe.outcome(connect(kept, $0, $1)) })")
    say("kept-connect-other-address \(probe.withSockaddr(otherAddress) { probe.outcome(connect(kept, $0, $1)) })")
    say("kept-sendto-other-port \(probe.withSockaddr(otherPort) { probe.outcome(Int32(sendto(kept, "x", 1, 0, $0, $1))) })")
    say("kept-sendto-other-address \(probe.withSockaddr(otherAddress) { probe.outcome(Int32(sendto(kept, "x", 1, 0, $0, $1))) })")
    let fresh = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    let freshOutcome = fresh < 0 ? probe.outcome(fresh) : probe.withSockaddr(otherPort) { probe.outcome(connect(fresh, $0, $1)) }
    if fresh >= 0 { close(fresh) }
    say("new-connect-other-port \(freshOutcome)")
}

// --time-calls N: the filter's cost, as the time of N calls of two kinds: read(2) of /dev/null,
// which the filter passes first, and getppid(2), which it passes after most of its list.
if let count = options["--time-calls"].flatMap(Int.init) {
    let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
    var byte: UInt8 = 0
    for (name, call) in [("read", { _ = read(null, &byte, 1) }), ("getppid", { _ = systemCall(Int32(SYS_getppid)) })] as [(String, () -> Void)] {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<count { call() }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        say("ns-per-\(name) \(Double(elapsed) / Double(count))")
    }
    exit(0)
}

probe.attempt("main", prepared.main)
let done = DispatchSemaphore(value: 0)
let threadPrepared = prepared.thread
Thread {
    probe.attempt("thread", threadPrepared)
    done.signal()
}.start()
done.wait()
say("done")
