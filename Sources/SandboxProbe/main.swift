// SandboxProbe: a test-only program that confines itself with Audit's Sandbox and then tries what a
// leaky program would, printing one line per attempt ("write-inside ok", "connect-tcp EPERM"),
// first on the main thread and then, prefixed "thread:", on a thread started after confinement.
// The tests run it as a subprocess because confinement cannot be lifted from a process.
//
//   SandboxProbe --allowed DIR --outside DIR --port PORT [--abstract NAME] [--unix-path PATH]
//                [--unconfined] [--no-seccomp] [--thread-first]
//
// PORT is a TCP listener on 127.0.0.1 (UDP datagrams go to the same port number); NAME an abstract
// and PATH a named UNIX socket listening outside the sandbox.
// --unconfined skips confinement (every attempt must then succeed, which proves the attempts can);
// --no-seccomp confines with Landlock alone; --thread-first starts a thread before confining.
import Audit
import Foundation
import Privacy

var options: [String: String] = [:]
var flags: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if ["--allowed", "--outside", "--port", "--abstract", "--unix-path"].contains(argument), let value = arguments.popFirst() {
        options[argument] = value
    } else {
        flags.insert(argument)
    }
}
guard let allowed = options["--allowed"], let outside = options["--outside"], let port = options["--port"].flatMap(UInt16.init) else {
    FileHandle.standardError.write(Data("usage: SandboxProbe --allowed DIR --outside DIR --port PORT [--abstract NAME] [--unix-path PATH] [--unconfined] [--no-seccomp] [--thread-first]\n".utf8))
    exit(2)
}

/// Writes a line straight to stdout (no buffer to flush if the kernel kills the process).
@Sendable func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The attempts, on the paths and port given; a value so a thread started later can take it.
struct Probe: Sendable {
    let allowed: String
    let outside: String
    let port: UInt16
    let abstractName: String?
    let unixPath: String?

    /// "ok", or the errno's name.
    func outcome(_ result: Int32) -> String {
        if result >= 0 { return "ok" }
        let names: [Int32: String] = [EACCES: "EACCES", EPERM: "EPERM", EXDEV: "EXDEV", ENOENT: "ENOENT", EEXIST: "EEXIST",
                                      ECONNREFUSED: "ECONNREFUSED", EAFNOSUPPORT: "EAFNOSUPPORT", EROFS: "EROFS"]
        return names[errno] ?? "errno\(errno)"
    }

    func createFile(_ path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
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

    /// Files each run of the attempts works on, made before confinement.
    func prepare(_ scope: String) -> Int32 {
        createFile("\(allowed)/\(scope)-inner")
        for name in ["existing", "victim", "rename-source", "truncated"] { createFile("\(outside)/\(scope)-\(name)") }
        return open("\(outside)/\(scope)-preopened", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }

    func attempt(_ scope: String, preopened: Int32) {
        let prefix = scope == "main" ? "" : "\(scope):"
        func report(_ name: String, _ result: String) { say(prefix + name + " " + result) }
        func report(_ name: String, _ result: Int32) { report(name, outcome(result)) }
        func openAndWrite(_ path: String, _ flags: Int32) -> Int32 {
            let descriptor = open(path, flags, 0o644)
            if descriptor < 0 { return descriptor }
            defer { close(descriptor) }
            return Int32(write(descriptor, "x", 1))
        }
        let inside = "\(allowed)/\(scope)"
        let out = "\(outside)/\(scope)"

        report("write-inside", openAndWrite("\(inside)-new", O_WRONLY | O_CREAT | O_TRUNC))
        report("rename-inside", rename("\(inside)-new", "\(inside)-renamed"))
        report("mkdir-inside", mkdir("\(inside)-dir", 0o755))
        report("unlink-inside", unlink("\(inside)-renamed"))
        report("write-outside", openAndWrite("\(out)-existing", O_WRONLY))
        report("create-outside", openAndWrite("\(out)-created", O_WRONLY | O_CREAT | O_EXCL))
        report("mkdir-outside", mkdir("\(out)-dir", 0o755))
        report("symlink-outside", symlink("target", "\(out)-link"))
        report("rename-outside", rename("\(out)-rename-source", "\(out)-renamed"))
        report("move-out", rename("\(inside)-inner", "\(out)-escaped"))
        report("unlink-outside", unlink("\(out)-victim"))
        report("truncate-outside", truncate("\(out)-truncated", 0))
        report("write-devnull", openAndWrite("/dev/null", O_WRONLY | O_TRUNC))
        report("write-preopened", Int32(write(preopened, "x", 1)))
        report("write-stderr", Int32(write(2, "probe\n", 6)))

        let stream = Int32(SOCK_STREAM.rawValue)
        let datagram = Int32(SOCK_DGRAM.rawValue)
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
        var pair: [Int32] = [-1, -1]
        let paired = socketpair(AF_UNIX, stream, 0, &pair)
        if paired == 0 {
            let sent = write(pair[0], "x", 1)
            close(pair[0]); close(pair[1])
            report("unix-socketpair", Int32(sent))
        } else {
            report("unix-socketpair", paired)
        }
    }
}

let probe = Probe(allowed: allowed, outside: outside, port: port, abstractName: options["--abstract"], unixPath: options["--unix-path"])
let preopened = (main: probe.prepare("main"), thread: probe.prepare("thread"))

if flags.contains("--thread-first") {
    Thread { while true { sleep(60) } }.start()
    while (Sandbox.threadCount() ?? 0) < 2 { usleep(1000) }
}
say("threads-before \(Sandbox.threadCount() ?? -1)")
if !flags.contains("--unconfined") {
    do {
        let policy = SandboxPolicy(writableDirectories: [allowed], denyNonUnixSockets: !flags.contains("--no-seccomp"))
        let report = try Sandbox.confine(policy)
        say("confined " + report.reportValue.json().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined())
    } catch {
        say("confine-failed \(error)")
        exit(3)
    }
}

probe.attempt("main", preopened: preopened.main)
let done = DispatchSemaphore(value: 0)
let threadPreopened = preopened.thread
Thread {
    probe.attempt("thread", preopened: threadPreopened)
    done.signal()
}.start()
done.wait()
say("done")
