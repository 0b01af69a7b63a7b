import Glibc
import Privacy

/// Why the kernel could not be made to enforce the sandbox; each reads as a sentence for the user.
///
/// `replay` refuses to run on any of these unless `--allow-unsandboxed` is given, so the text says
/// what is missing rather than just the failing call.
public enum SandboxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kernel has no Landlock at all (not built in, or not enabled at boot).
    case landlockUnavailable(reason: String)
    /// Landlock is there but too old to deny TCP (ABI 4, Linux 6.7).
    case landlockTooOld(abi: Int, needed: Int)
    /// Other threads run already, and without `LANDLOCK_RESTRICT_SELF_TSYNC` (ABI 8) Landlock
    /// would leave them free to write anywhere. `count` is -1 when /proc/self/task was unreadable.
    case threadsAlreadyRunning(count: Int, abi: Int)
    /// stdin, stdout or stderr is a network socket, which would stay usable: Landlock and seccomp
    /// check only sockets created and connected afterwards.
    case networkSocketOpen(descriptor: Int32, domain: Int32)
    /// A descriptor the policy keeps (`SandboxPolicy.keptConnections`) is not a TCP connection to
    /// a loopback address, the only socket the sandbox lets a process keep.
    case keptDescriptorIsNotALoopbackConnection(descriptor: Int32)
    /// A descriptor above stderr, opened before confinement, is open for writing somewhere other
    /// than the writable paths (a file, a pipe, a socket, a terminal), and the policy says refuse
    /// (`SandboxPolicy.OpenWriters.refuse`): Landlock checks a file only when it is opened, so
    /// writes through it would go on. `kind` says what it is ("a pipe").
    case writableDescriptorOpen(descriptor: Int32, kind: String)
    /// The process maps memory shared for writing (`kind`: anonymous or a file's), set up before
    /// confinement: whatever else maps it would read what is written there, and no system call
    /// would show it. Landlock and seccomp cannot take a mapping back.
    case sharedWritableMemory(kind: String)
    /// Such a descriptor could not be pointed at /dev/null.
    case descriptorNotRedirected(descriptor: Int32, errno: Int32)
    case rulesetFailed(errno: Int32)
    case ruleFailed(path: String, errno: Int32)
    case noNewPrivilegesFailed(errno: Int32)
    case restrictFailed(errno: Int32)
    case seccompFailed(errno: Int32)
    /// The argument and environment areas could not be hidden from /proc/PID/cmdline and
    /// /proc/PID/environ (PR_SET_MM_MAP; EINVAL when the kernel lacks CONFIG_CHECKPOINT_RESTORE).
    case argumentAreaNotHidden(errno: Int32)
    /// Core dumps could not be turned off (PR_SET_DUMPABLE, RLIMIT_CORE) or did not read back off.
    case coreDumpsNotDisabled(errno: Int32)

    /// Whether the process was started holding what the sandbox cannot confine (a descriptor, a
    /// shared mapping, threads), rather than the kernel lacking what confining needs: the user
    /// can start it without that.
    public var isAboutHowTheProcessWasStarted: Bool {
        switch self {
        case .threadsAlreadyRunning, .networkSocketOpen, .keptDescriptorIsNotALoopbackConnection, .writableDescriptorOpen, .sharedWritableMemory,
             .descriptorNotRedirected: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .landlockUnavailable(let reason):
            "The kernel cannot confine this process: \(reason)."
        case .landlockTooOld(let abi, let needed):
            "The kernel's Landlock is ABI \(abi), but denying TCP connections needs ABI \(needed) (Linux 6.7 or later)."
        case .threadsAlreadyRunning(let count, let abi):
            (count < 0 ? "The process's threads could not be counted (/proc/self/task is unreadable)"
                : "The process already runs \(count) threads")
                + ", and Landlock ABI \(abi) confines only the calling thread and the threads it starts later"
                + " (ABI 8 can confine them all): confine before anything starts a thread."
        case .networkSocketOpen(let descriptor, let domain):
            "Descriptor \(descriptor) is a network socket (address family \(domain)) opened before confinement, which the sandbox could not stop from sending."
        case .keptDescriptorIsNotALoopbackConnection(let descriptor):
            "Descriptor \(descriptor) was to stay open through confinement, but it is not a TCP connection to a loopback address"
                + " (127.0.0.1 or ::1), the only socket a confined process may keep."
        case .writableDescriptorOpen(let descriptor, let kind):
            "Descriptor \(descriptor), \(kind), is open for writing from before confinement, and the sandbox cannot stop"
                + " writes through it: start the program without it (in a shell, add \(descriptor)>&- to the command)."
        case .sharedWritableMemory(let kind):
            "The process holds \(kind) open for writing from before confinement, which the sandbox cannot stop"
                + " another process from reading: something loaded into it (a preloaded library?) made it."
        case .descriptorNotRedirected(let descriptor, let errno):
            "Descriptor \(descriptor), inherited open for writing, could not be pointed at /dev/null nor closed (\(Self.message(errno))):"
                + " start the program without it (in a shell, add \(descriptor)>&- to the command)."
        case .rulesetFailed(let errno):
            "The kernel refused to create a Landlock ruleset: \(Self.message(errno))."
        case .ruleFailed(let path, let errno):
            "Writes beneath \(path) could not be allowed: \(Self.message(errno))"
                + (errno == EINVAL ? " (a writable directory must be a directory)." : ".")
        case .noNewPrivilegesFailed(let errno):
            "The process could not give up gaining privileges (PR_SET_NO_NEW_PRIVS): \(Self.message(errno))."
        case .restrictFailed(let errno):
            "The kernel refused to enforce the Landlock ruleset: \(Self.message(errno))."
        case .seccompFailed(let errno):
            "The kernel refused the seccomp filter that allows only the calls a confined run makes: \(Self.message(errno))."
        case .argumentAreaNotHidden(let errno):
            "The process's arguments could not be hidden from other users' view of /proc/PID/cmdline (PR_SET_MM_MAP): \(Self.message(errno))"
                + (errno == EINVAL ? " (the kernel needs CONFIG_CHECKPOINT_RESTORE)." : ".")
        case .coreDumpsNotDisabled(let errno):
            "Core dumps could not be turned off (PR_SET_DUMPABLE, RLIMIT_CORE): \(Self.message(errno))."
        }
    }

    static func message(_ errno: Int32) -> String { SystemError(errno).description }
}
