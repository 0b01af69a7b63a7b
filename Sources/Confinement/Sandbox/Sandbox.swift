import CSandbox
import Foundation
import Privacy

/// Confines the running process with Landlock and seccomp-bpf so the kernel itself stops every way
/// words could leave it, whatever code runs afterwards: no write outside the output directory, no
/// socket, no signal or shared kernel object reaching another process, no program run, no core.
///
/// Call `confine` once, early in `main`, after creating the output directory and before anything
/// starts a thread: Landlock (up to ABI 7) restricts the calling thread and the threads it starts
/// later, never threads that already run. A freshly started process has one thread there (measured
/// on this kernel: /proc/self/task lists only the main thread at the top of a synchronous `main`
/// with Foundation loaded and used, and in a program linking libllama and libgomp still after
/// `llama_backend_init`, model load and context creation; llama.cpp's OpenMP pool appears at the
/// first `llama_decode`, and Dispatch and Swift concurrency pools on first use). `confine` counts the
/// threads and refuses with `threadsAlreadyRunning` rather than leave one unconfined; with ABI 8 it
/// asks for `LANDLOCK_RESTRICT_SELF_TSYNC` instead (untested here: this kernel offers ABI 7). The
/// check cannot race: with one thread, nothing but the caller can start another, and whatever it
/// starts is confined. The seccomp filter always reaches every thread (`SECCOMP_FILTER_FLAG_TSYNC`).
///
/// After `confine`:
/// - Files: outside the allowed paths every write, creation, removal, rename and truncation fails
///   with `EACCES` (Landlock), the temporary directory, /dev/shm and terminals included.
///   Beneath the output directory files and directories can be created and files written, but
///   nothing removed, renamed, truncated, or made a symbolic link, FIFO, socket or device
///   (`SandboxPolicy.createOnly`), so what a run writes stays for the audit to scan.
/// - Metadata: chmod, chown, utimes and xattr calls, link, symlink and mknod fail with `EPERM`
///   (seccomp), inside the output directory too.
/// - Sockets: `socket(2)` fails for every family, `AF_UNIX` included, as do connect, sendmsg and
///   sendto with an address (seccomp); Landlock denies TCP as well. Only `socketpair(2)` of
///   `AF_UNIX` stream or seqpacket sockets works, whose ends reach nothing outside the process.
/// - Kernel state that outlives the process: System V shared memory, queues and semaphores, POSIX
///   message queues, keys and the host name fail with `EPERM`; POSIX shared memory is a file in
///   /dev/shm, refused as above.
/// - Other processes: signals to any process outside the sandbox fail with `EPERM` (Landlock scope,
///   ABI 6), and so does ptrace (Landlock, any ABI); execve fails with `EPERM`, so no crash handler
///   (ggml's gdb, the Swift backtracer) runs a program that would print the process's memory.
/// - Core dumps: off (not dumpable, RLIMIT_CORE 0), and the filter stops them being turned back on.
///
/// Descriptors opened before confinement escape Landlock, which checks a file when it is opened,
/// not at each write. So `confine` refuses while stdin, stdout or stderr is a network socket
/// (`networkSocketOpen`), and points every descriptor above stderr that is open for writing
/// anywhere but the allowed paths (a file, pipe, socket or terminal) at a read-only /dev/null, so
/// writes through it fail with `EBADF`, or refuses (`writableDescriptorOpen`) if the policy says
/// so (`SandboxPolicy.openWriters`).
///
/// What stays open: stdin, stdout and stderr keep the rights they were opened with (the terminal,
/// or whatever file or pipe the caller gave); a file beneath the output directory can be
/// overwritten in place (Landlock's `write_file` cannot tell a new file from an old one); and
/// covert channels through timing, CPU load or memory pressure are beyond any sandbox. Those are
/// left to the audit (`replay audit`), which watches the process from outside.
public enum Sandbox {
    /// The Landlock ABI needed to deny TCP (Linux 6.7).
    public static let minimumABI = 4
    /// The ABI from which Landlock can confine every thread at once.
    static let threadSyncABI = 8
    /// The ABI from which connecting to abstract UNIX sockets and signalling processes outside the
    /// sandbox can be denied.
    static let scopeABI = 6

    /// The Landlock ABI the kernel offers, or 0 when it offers none.
    public static func probe() -> Int { max(0, Int(replay_landlock_abi())) }

    /// Confines this process for the rest of its life and reports what the kernel now enforces.
    ///
    /// Nothing but the redirected descriptors and no_new_privs is changed unless every check passes
    /// up to the point where the ruleset is enforced; an error after that (core dumps, seccomp) leaves the process partly
    /// confined, and the caller is expected to stop. Landlock and seccomp cannot be lifted, so never
    /// call this in a test process: the tests confine a subprocess (SandboxProbe).
    public static func confine(_ policy: SandboxPolicy) throws(SandboxError) -> SandboxReport {
        let abi = Int(replay_landlock_abi())
        if abi < 0 { throw .landlockUnavailable(reason: unavailableReason(Int32(-abi))) }
        if abi < minimumABI { throw .landlockTooOld(abi: abi, needed: minimumABI) }

        let threads = threadCount()
        let tsync = abi >= threadSyncABI
        if !tsync, threads != 1 { throw .threadsAlreadyRunning(count: threads ?? -1, abi: abi) }
        if let (descriptor, domain) = openNetworkSocket() { throw .networkSocketOpen(descriptor: descriptor, domain: domain) }
        let directories = policy.writableDirectories.map(canonical)
        let files = policy.writableFiles.map(canonical)
        for descriptor in policy.keptConnections where !isLoopbackConnection(descriptor) {
            throw .keptDescriptorIsNotALoopbackConnection(descriptor: descriptor)
        }
        let writers = openWriters(directories: directories, files: files).filter { !policy.keptConnections.contains($0.0) }
        if policy.openWriters == .refuse, let (descriptor, kind) = writers.first {
            throw .writableDescriptorOpen(descriptor: descriptor, kind: kind)
        }
        // Memory shared for writing with whatever else maps it (another process, forked before,
        // or a file under /dev/shm) would carry words out with no system call at all.
        if let mapping = sharedWritableMappings().first { throw .sharedWritableMemory(kind: mapping) }

        let rights = LandlockRight.writes(abi: abi)
        let scoped: UInt64 = abi >= scopeABI ? LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL : 0
        let ruleset = replay_landlock_create_ruleset(LandlockRight.mask(rights),
                                                     LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP, scoped)
        if ruleset < 0 { throw .rulesetFailed(errno: -ruleset) }
        defer { close(ruleset) }

        let granted = policy.createOnly ? rights.filter { LandlockRight.createOnly.contains($0.name) } : rights
        let directoryAccess = LandlockRight.mask(granted)
        let fileAccess = LandlockRight.mask(rights.filter(\.appliesToFiles))
        for (paths, access) in [(policy.writableDirectories, directoryAccess), (policy.writableFiles, fileAccess)] {
            for path in paths {
                let result = replay_landlock_allow_beneath(ruleset, path, access)
                if result < 0 { throw .ruleFailed(path: path, errno: -result) }
            }
        }

        for (descriptor, _) in writers {
            let result = redirectToDevNull(descriptor)
            if result != 0 { throw .descriptorNotRedirected(descriptor: descriptor, errno: result) }
        }
        // Before anything that could fail half-way: once hidden, the areas stay hidden (and the
        // filter refuses PR_SET_MM, so they cannot be shown again).
        let hidden = replay_hide_argument_area()
        if hidden < 0 { throw .argumentAreaNotHidden(errno: -hidden) }
        let privileges = replay_set_no_new_privs()
        if privileges < 0 { throw .noNewPrivilegesFailed(errno: -privileges) }
        let restricted = replay_landlock_restrict_self(ruleset, tsync ? UInt32(LANDLOCK_RESTRICT_SELF_TSYNC) : 0)
        if restricted < 0 { throw .restrictFailed(errno: -restricted) }
        // Before the filter, which then refuses to turn them back on.
        try disableCoreDumps()
        if policy.filterSystemCalls {
            let filtered = replay_seccomp_confine()
            if filtered < 0 { throw .seccompFailed(errno: -filtered) }
        }

        return SandboxReport(landlockABI: abi, writableDirectories: directories, writableFiles: files,
                             handledFilesystemAccess: rights.map(\.name),
                             withheldInWritableDirectories: rights.filter { $0.bit & directoryAccess == 0 }.map(\.name),
                             networkRestricted: true, abstractUnixSocketsScoped: scoped != 0, signalsScoped: scoped != 0,
                             seccompInstalled: policy.filterSystemCalls, coreDumpsDisabled: coreDumpsDisabled(),
                             argumentAreaHidden: replay_argument_area_length() == 0,
                             processDetailsHidden: processDetailsHiddenFromOtherUsers(),
                             redirectedDescriptors: writers.map(\.0), threadsAtConfinement: threads ?? -1,
                             allThreadsConfined: true)
    }

    /// Points `descriptor` at /dev/null opened read-only, so writes through it fail with `EBADF`;
    /// 0 or the errno.
    ///
    /// Not closed: its number stays taken, so code that still holds it can never write into a file
    /// the run opens later under the same number. Read-only, so the audit sees no write opened.
    ///
    /// A descriptor at or above the soft RLIMIT_NOFILE (inherited from a parent with a higher
    /// limit, under `ulimit -n 32`) cannot be a dup2 target (EBADF); it is closed instead, which
    /// is as safe there: no later open can be given a number that high, so nothing reuses it.
    static func redirectToDevNull(_ descriptor: Int32) -> Int32 {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null < 0 { return errno }
        defer { close(null) }
        guard dup2(null, descriptor) < 0 else { return 0 }
        let error = errno
        var limit = rlimit()
        if error == EBADF, getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, rlim_t(descriptor) >= limit.rlim_cur {
            return close(descriptor) == 0 ? 0 : errno
        }
        return error
    }

    /// Makes the process not dumpable and its core size limit 0, soft and hard.
    ///
    /// Both, because with a piped core_pattern (systemd-coredump) the kernel ignores RLIMIT_CORE;
    /// not being dumpable also keeps other processes of the same user from reading its memory.
    static func disableCoreDumps() throws(SandboxError) {
        let result = replay_set_not_dumpable()
        if result < 0 { throw .coreDumpsNotDisabled(errno: -result) }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        if setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none) != 0 { throw .coreDumpsNotDisabled(errno: errno) }
        if !coreDumpsDisabled() { throw .coreDumpsNotDisabled(errno: EPERM) }
    }

    /// Whether the process is not dumpable and may not dump a core of any size, as the kernel says.
    public static func coreDumpsDisabled() -> Bool {
        var limit = rlimit()
        return replay_dumpable() == 0 && getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit) == 0
            && limit.rlim_cur == 0 && limit.rlim_max == 0
    }

    /// Whether /proc is mounted so that other users cannot see this process (`hidepid=2`,
    /// `invisible` or `noaccess`), which closes what no filter can: the signal masks, thread
    /// count and other live state /proc/PID/status shows to everyone. A choice of the machine's
    /// administrator, reported so a reader knows which channels stayed open.
    public static func processDetailsHiddenFromOtherUsers() -> Bool {
        guard let mounts = procText("/proc/self/mounts") else { return false }
        return mounts.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 4, fields[1] == "/proc", fields[2] == "proc" else { return false }
            return fields[3].split(separator: ",").contains { ["hidepid=2", "hidepid=invisible", "hidepid=noaccess"].contains($0) }
        }
    }

    /// What each writable shared mapping of this process is ("an anonymous shared mapping", "a
    /// shared mapping of a file"), from /proc/self/maps: the permissions `rw-s` or `-w-s`.
    /// Never the file's name, which could be anything.
    static func sharedWritableMappings() -> [String] {
        guard let maps = procText("/proc/self/maps") else { return [] }
        return maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { return nil }
            let permissions = Array(fields[1].utf8)
            guard permissions.count == 4, permissions[1] == UInt8(ascii: "w"), permissions[3] == UInt8(ascii: "s") else { return nil }
            // Anonymous shared memory shows as the deleted /dev/zero it was made from.
            let anonymous = fields[4] == "0" || (fields.count == 6 && fields[5].drop { $0 == " " }.hasPrefix("/dev/zero"))
            return anonymous ? "an anonymous shared mapping" : "a shared mapping of a file"
        }
    }

    /// The whole of a /proc file, read to its end: /proc files claim a size of 0, and Foundation's
    /// readers stop after the first page for them.
    static func procText(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 { return nil }
            if count == 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The number of threads in this process, from /proc/self/task; nil when that is unreadable.
    public static func threadCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    /// The descriptors open in this process, from /proc/self/fd (empty when that is unreadable; the
    /// thread count, read from the same /proc, refuses confinement first).
    static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }.sorted()
    }

    /// The first of stdin, stdout and stderr that is a socket of another family than `AF_UNIX`, with
    /// its family. (Above stderr, sockets of every family are open writers.)
    static func openNetworkSocket() -> (Int32, Int32)? {
        for descriptor in openDescriptors() where descriptor <= 2 {
            var domain: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0, domain != AF_UNIX {
                return (descriptor, domain)
            }
        }
        return nil
    }

    /// Whether `descriptor` is a TCP socket connected to a loopback address (127.0.0.0/8, ::1, or
    /// ::ffff:127.0.0.0/104), as the kernel says (`SO_DOMAIN`, `SO_TYPE`, `getpeername`).
    static func isLoopbackConnection(_ descriptor: Int32) -> Bool {
        var domain: Int32 = 0, type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard descriptor > 2, getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue) else { return false }
        var peer = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &size) }
        }
        guard named == 0 else { return false }
        switch (domain, Int32(peer.ss_family)) {
        case (AF_INET, AF_INET):
            let address = withUnsafePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee } }
            return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        case (AF_INET6, AF_INET6):
            let address = withUnsafePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee } }
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            let loopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
            return loopback || mapped
        default:
            return false
        }
    }

    /// The descriptors above stderr open for writing to anything but `files` or a file beneath
    /// `directories` (both canonical), each with what it is ("a pipe").
    ///
    /// Sockets count whatever their flags. Anonymous kernel objects (eventfd, epoll, timerfd) do
    /// not: they carry no bytes to a file or another process, and the runtime may own them.
    static func openWriters(directories: [String], files: [String]) -> [(Int32, String)] {
        var writers: [(Int32, String)] = []
        for descriptor in openDescriptors() where descriptor > 2 {
            let flags = fcntl(descriptor, F_GETFL)
            var status = stat()
            guard flags >= 0, fstat(descriptor, &status) == 0 else { continue }   // the listing's own, closed since
            let type = status.st_mode & S_IFMT
            let writable = flags & O_ACCMODE == O_WRONLY || flags & O_ACCMODE == O_RDWR || type == S_IFSOCK
            let path = descriptorPath(descriptor)
            guard writable, type != 0, path?.hasPrefix("anon_inode:") != true else { continue }
            if type == S_IFREG || type == S_IFCHR, let path,
               files.contains(path) || directories.contains(where: { path.hasPrefix($0 == "/" ? "/" : $0 + "/") }) {
                continue
            }
            let kind = switch type {
            case S_IFREG: "a file"
            case S_IFIFO: "a pipe"
            case S_IFSOCK: "a socket"
            case S_IFCHR: "a terminal or other character device"
            case S_IFBLK: "a block device"
            default: "a directory"
            }
            writers.append((descriptor, kind))
        }
        return writers
    }

    /// The path an open descriptor names, as the kernel resolved it (/proc/self/fd/N).
    static func descriptorPath(_ descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func unavailableReason(_ errno: Int32) -> String {
        switch errno {
        case ENOSYS: "the kernel was built without Landlock (CONFIG_SECURITY_LANDLOCK)"
        case EOPNOTSUPP: "Landlock is built in but not enabled at boot (add landlock to the lsm= kernel parameter)"
        default: "asking for the Landlock ABI failed: " + SandboxError.message(errno)
        }
    }

    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
