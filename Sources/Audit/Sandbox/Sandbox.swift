import CSandbox
import Foundation
import Privacy

/// Confines the running process with Landlock and seccomp-bpf so the kernel itself stops any write
/// outside the output directory and any network traffic, whatever code runs afterwards.
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
/// After `confine`, every write outside the allowed paths fails with `EACCES`, the temporary
/// directory included: anything the run writes must go beneath the output directory.
///
/// What stays open, and is left to the audit (`replay audit`) to watch: descriptors opened before
/// confinement (stdout, stderr, and anything else) keep the rights they were opened with; sockets
/// are refused only if they are network sockets (`confine` throws if one is open); `AF_UNIX`
/// sockets still work, including connecting to another process's named socket such as /dev/log,
/// which Landlock up to ABI 7 does not check.
public enum Sandbox {
    /// The Landlock ABI needed to deny TCP (Linux 6.7).
    public static let minimumABI = 4
    /// The ABI from which Landlock can confine every thread at once.
    static let threadSyncABI = 8
    /// The ABI from which connecting to abstract UNIX sockets outside the sandbox can be denied.
    static let scopeABI = 6

    /// The Landlock ABI the kernel offers, or 0 when it offers none.
    public static func probe() -> Int { max(0, Int(replay_landlock_abi())) }

    /// Confines this process for the rest of its life and reports what the kernel now enforces.
    ///
    /// Nothing but no_new_privs is changed unless every check passes up to the point where the
    /// ruleset is enforced; an error after that (seccomp refused) leaves the process partly confined,
    /// and the caller is expected to stop. Landlock and seccomp cannot be lifted, so never call this in a test process:
    /// the tests confine a subprocess (SandboxProbe).
    public static func confine(_ policy: SandboxPolicy) throws(SandboxError) -> SandboxReport {
        let abi = Int(replay_landlock_abi())
        if abi < 0 { throw .landlockUnavailable(reason: unavailableReason(Int32(-abi))) }
        if abi < minimumABI { throw .landlockTooOld(abi: abi, needed: minimumABI) }

        let threads = threadCount()
        let tsync = abi >= threadSyncABI
        if !tsync, threads != 1 { throw .threadsAlreadyRunning(count: threads ?? -1, abi: abi) }
        if let (descriptor, domain) = openNetworkSocket() { throw .networkSocketOpen(descriptor: descriptor, domain: domain) }

        let rights = LandlockRight.writes(abi: abi)
        let scoped: UInt64 = abi >= scopeABI ? LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET : 0
        let ruleset = replay_landlock_create_ruleset(LandlockRight.mask(rights),
                                                     LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP, scoped)
        if ruleset < 0 { throw .rulesetFailed(errno: -ruleset) }
        defer { close(ruleset) }

        let directoryAccess = LandlockRight.mask(rights)
        let fileAccess = LandlockRight.mask(rights.filter(\.appliesToFiles))
        var directories: [String] = []
        var files: [String] = []
        for (paths, access, resolved) in [(policy.writableDirectories, directoryAccess, true),
                                          (policy.writableFiles, fileAccess, false)] {
            for path in paths {
                let result = replay_landlock_allow_beneath(ruleset, path, access)
                if result < 0 { throw .ruleFailed(path: path, errno: -result) }
                if resolved { directories.append(canonical(path)) } else { files.append(canonical(path)) }
            }
        }

        let privileges = replay_set_no_new_privs()
        if privileges < 0 { throw .noNewPrivilegesFailed(errno: -privileges) }
        let restricted = replay_landlock_restrict_self(ruleset, tsync ? UInt32(LANDLOCK_RESTRICT_SELF_TSYNC) : 0)
        if restricted < 0 { throw .restrictFailed(errno: -restricted) }
        if policy.denyNonUnixSockets {
            let filtered = replay_seccomp_deny_non_unix_sockets()
            if filtered < 0 { throw .seccompFailed(errno: -filtered) }
        }

        return SandboxReport(landlockABI: abi, writableDirectories: directories, writableFiles: files,
                             handledFilesystemAccess: rights.map(\.name), networkRestricted: true,
                             abstractUnixSocketsScoped: scoped != 0, seccompInstalled: policy.denyNonUnixSockets,
                             threadsAtConfinement: threads ?? -1, allThreadsConfined: true)
    }

    /// The number of threads in this process, from /proc/self/task; nil when that is unreadable.
    public static func threadCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    /// The first open descriptor that is a socket of another family than `AF_UNIX`, with its family.
    static func openNetworkSocket() -> (Int32, Int32)? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        for descriptor in names.compactMap({ Int32($0) }).sorted() {
            var domain: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(descriptor, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0, domain != AF_UNIX {
                return (descriptor, domain)
            }
        }
        return nil
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
