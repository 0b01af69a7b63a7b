import Confinement
import Privacy

/// The reviewed list of system calls, each with why it is where it is: what the audit lets pass
/// untraced, and what it traces and judges.
///
/// The audit judges by allow-list. strace is told to trace every call *except* `allowed`
/// (`-e trace=!…`, with `--seccomp-bpf`, so an allowed call never stops the process and costs
/// nothing); every call it shows is either one of `judged`, read into an event and judged by its
/// arguments, or a finding of its own (`unreviewed-call`). A call neither list names, one this
/// strace does not know (shown as `syscall_0x…`) and one a newer kernel added are all traced, so
/// a new channel fails the audit until someone reviews it here.
///
/// A call belongs in `allowed` only if it cannot carry data out of the process: it reads, it
/// manages the process's own memory, threads, descriptors or time, or it moves bytes through a
/// descriptor whose target was already judged when it was opened (an `openat` for writing, a
/// `socket`, a `connect`: all traced). Where a call is allowed although something it changes
/// shows elsewhere, its reason says so; those are the channels the audit does not judge.
public enum AuditedCalls {
    /// Calls strace does not trace, each with why it cannot carry data outside the process.
    public static let allowed: [String: String] = [
        // Reading through a descriptor, or moving bytes through one judged at its open.
        "read": "reads a descriptor",
        "pread64": "reads a descriptor",
        "readv": "reads a descriptor",
        "preadv": "reads a descriptor",
        "preadv2": "reads a descriptor",
        "sendfile": "copies between descriptors judged at their open",
        "splice": "moves bytes between descriptors judged at their open",
        "tee": "copies between pipes of the process",
        "vmsplice": "moves the process's memory into a pipe of its own",
        "copy_file_range": "copies between files judged at their open",
        "fallocate": "reserves space in a file judged at its open",
        "fsync": "flushes a file judged at its open",
        "fdatasync": "flushes a file judged at its open",
        "sync_file_range": "flushes a file judged at its open",
        "lseek": "moves a descriptor's own offset",
        "fadvise64": "a hint about a descriptor's own reads",
        "readahead": "reads ahead on a descriptor",
        "recvfrom": "receives; a socket's address was judged at its connect or bind",
        "recvmsg": "receives",
        "recvmmsg": "receives",
        "shutdown": "closes a direction of a socket judged at its creation",
        "getsockname": "reads a socket's address",
        "getpeername": "reads a socket's peer",
        "getsockopt": "reads a socket option",
        "setsockopt": "an option of a socket judged at its creation (a network socket is itself a finding)",
        "socketpair": "a connected pair that only this process and its children hold",
        "listen": "listens on a socket whose address was judged at its bind",
        "accept": "accepts on a socket whose address was judged at its bind",
        "accept4": "accepts on a socket whose address was judged at its bind",

        // Descriptors of the process's own.
        "close": "closes a descriptor",
        "close_range": "closes descriptors",
        "dup": "copies a descriptor within the process",
        "dup2": "copies a descriptor within the process",
        "dup3": "copies a descriptor within the process",
        "pipe": "a pipe within the process",
        "pipe2": "a pipe within the process",
        "eventfd": "a counter within the process",
        "eventfd2": "a counter within the process",
        "signalfd": "reads the process's own signals",
        "signalfd4": "reads the process's own signals",
        "timerfd_create": "a timer read through a descriptor of the process's own (not listed in /proc/PID/timers)",
        "timerfd_settime": "arms a timer descriptor of the process's own",
        "timerfd_gettime": "reads a timer descriptor",
        "epoll_create": "an event set within the process",
        "epoll_create1": "an event set within the process",
        "epoll_ctl": "changes an event set of the process's own",
        "epoll_wait": "waits",
        "epoll_pwait": "waits",
        "epoll_pwait2": "waits",
        "poll": "waits",
        "ppoll": "waits",
        "select": "waits",
        "pselect6": "waits",
        "inotify_init": "watches files; reads only",
        "inotify_init1": "watches files; reads only",
        "inotify_add_watch": "watches a file; reads only",
        "inotify_rm_watch": "stops watching",
        "memfd_create": "anonymous memory behind a descriptor of the process's own (passing it on is traced: sendmsg, pidfd_getfd)",

        // Reading files and the system.
        "stat": "reads a file's metadata",
        "fstat": "reads a file's metadata",
        "lstat": "reads a file's metadata",
        "newfstatat": "reads a file's metadata",
        "statx": "reads a file's metadata",
        "statfs": "reads a file system's metadata",
        "fstatfs": "reads a file system's metadata",
        "access": "checks a file's permissions",
        "faccessat": "checks a file's permissions",
        "faccessat2": "checks a file's permissions",
        "readlink": "reads a link",
        "readlinkat": "reads a link",
        "getdents": "reads a directory",
        "getdents64": "reads a directory",
        "getcwd": "reads the working directory",
        "getxattr": "reads an extended attribute",
        "lgetxattr": "reads an extended attribute",
        "fgetxattr": "reads an extended attribute",
        "listxattr": "lists extended attributes",
        "llistxattr": "lists extended attributes",
        "flistxattr": "lists extended attributes",
        "uname": "reads the system's name",
        "sysinfo": "reads the system's load and memory",
        "getrandom": "reads the kernel's randomness",

        // Reading the process's own state.
        "getpid": "reads an id", "getppid": "reads an id", "gettid": "reads an id",
        "getuid": "reads an id", "geteuid": "reads an id", "getgid": "reads an id", "getegid": "reads an id",
        "getresuid": "reads ids", "getresgid": "reads ids", "getgroups": "reads ids",
        "getpgid": "reads an id", "getpgrp": "reads an id", "getsid": "reads an id",
        "getrlimit": "reads a limit (setrlimit and prlimit64 are judged)",
        "getrusage": "reads resource use",
        "times": "reads CPU times",
        "getpriority": "reads a priority (setpriority is not allowed)",
        "sched_getaffinity": "reads an affinity (sched_setaffinity is not allowed)",
        "sched_getparam": "reads scheduling", "sched_getscheduler": "reads scheduling", "sched_getattr": "reads scheduling",
        "sched_get_priority_max": "reads a constant", "sched_get_priority_min": "reads a constant",
        "sched_rr_get_interval": "reads scheduling",
        "getcpu": "reads the current CPU",
        "capget": "reads capabilities (capset is not allowed: they show in /proc/PID/status)",
        "get_robust_list": "reads a thread's futex list",
        "get_mempolicy": "reads a memory policy",
        "getitimer": "reads a timer",

        // Memory of the process's own.
        "brk": "grows the heap",
        "mmap": "maps memory (a file's mapping writes a file judged at its open)",
        "munmap": "unmaps memory",
        "mprotect": "changes protection of own memory",
        "mremap": "moves own memory",
        "madvise": "a hint about own memory",
        "msync": "flushes a mapping of a file judged at its open",
        "mincore": "reads residency of own memory",
        // Not mlock, mlock2 or mlockall: the amount pinned is VmLck in /proc/PID/status, a
        // number every user reads (the sandbox refuses them too). Unpinning sets nothing new.
        "munlock": "unpins own memory", "munlockall": "unpins own memory",
        "membarrier": "orders memory between the process's threads",
        "pkey_alloc": "a protection key of the process's own", "pkey_free": "frees a protection key",
        "pkey_mprotect": "changes protection of own memory",

        // Threads, futexes, signals within the process, time.
        "futex": "waits on or wakes the process's own threads (shared memory with another process needs a mapping judged at its open)",
        "futex_waitv": "waits on futexes",
        "set_robust_list": "registers a thread's futex list",
        "set_tid_address": "registers a thread's exit futex",
        "rseq": "registers a thread's restartable sequences",
        "arch_prctl": "sets a thread's TLS register",
        "sched_yield": "yields the CPU",
        "rt_sigaction": "a handler of the process's own (its dispositions show in /proc/PID/status SigIgn/SigCgt: a channel the audit does not judge, left to the sandbox)",
        "rt_sigprocmask": "masks signals for a thread (the mask shows in /proc/PID/status SigBlk: a channel the audit does not judge, left to the sandbox)",
        "rt_sigreturn": "returns from a handler",
        "rt_sigpending": "reads pending signals",
        "rt_sigtimedwait": "waits for a signal",
        "rt_sigsuspend": "waits for a signal",
        "sigaltstack": "a thread's signal stack",
        "restart_syscall": "resumes an interrupted call",
        "pause": "waits for a signal",
        "nanosleep": "sleeps",
        "clock_nanosleep": "sleeps",
        "clock_gettime": "reads a clock",
        "clock_getres": "reads a clock",
        "gettimeofday": "reads the time",
        "time": "reads the time",
        "wait4": "waits for a child",
        "waitid": "waits for a child",
        "exit": "ends a thread",
        "exit_group": "ends the process",
    ]

    /// Calls strace traces and the audit judges by their arguments (or reads for what they say
    /// about the run), each with what the judge looks at.
    public static let judged: [String: String] = [
        "write": "its bytes (strace's `-e write=all` dump) are searched for the canary and outputs (`WrittenBytes`), so what was written and then overwritten, truncated or removed is still seen; the descriptor's target was judged at its open",
        "pwrite64": "its bytes are searched for the canary and outputs (`WrittenBytes`)",
        "writev": "its bytes are searched for the canary and outputs (`WrittenBytes`)",
        "pwritev": "its bytes are searched for the canary and outputs (`WrittenBytes`)",
        "pwritev2": "its bytes are searched for the canary and outputs (`WrittenBytes`)",
        "open": "write-outside-out when opened for writing outside the run's directory",
        "openat": "write-outside-out when opened for writing outside the run's directory",
        "openat2": "write-outside-out when opened for writing outside the run's directory",
        "creat": "write-outside-out outside the run's directory",
        "truncate": "write-outside-out outside", "ftruncate": "write-outside-out outside",
        "rename": "write-outside-out outside, removed-before-scan inside",
        "renameat": "write-outside-out outside, removed-before-scan inside",
        "renameat2": "write-outside-out outside, removed-before-scan inside",
        "unlink": "write-outside-out outside, removed-before-scan inside",
        "unlinkat": "write-outside-out outside, removed-before-scan inside",
        "rmdir": "write-outside-out outside, removed-before-scan inside",
        "mkdir": "write-outside-out outside", "mkdirat": "write-outside-out outside",
        "link": "write-outside-out outside", "linkat": "write-outside-out outside",
        "symlink": "write-outside-out outside", "symlinkat": "write-outside-out outside",
        "mknod": "write-outside-out outside", "mknodat": "write-outside-out outside",
        "chdir": "read for the thread's working directory", "fchdir": "read for the thread's working directory",
        "socket": "network-egress for any family but AF_UNIX (but the one socket of `replay suite run --endpoint`'s loopback connection, made before confinement: EndpointConnection)",
        "connect": "network-egress for any address (but `replay suite run --endpoint`'s one connect to its URL's loopback address, before confinement)",
        "bind": "network-egress for any address",
        "sendto": "network-egress for any address (but sends on `replay suite run --endpoint`'s accepted connection)", "sendmsg": "network-egress for any address",
        "sendmmsg": "network-egress for any address",
        "execve": "program-executed for a replay run (the first is strace starting the command)",
        "execveat": "program-executed for a replay run",
        "kill": "signal-to-other-process outside the run's tree", "tkill": "signal-to-other-process",
        "tgkill": "signal-to-other-process", "rt_sigqueueinfo": "signal-to-other-process",
        "rt_tgsigqueueinfo": "signal-to-other-process", "pidfd_send_signal": "signal-to-other-process",
        "clone": "unreviewed-call with CLONE_UNTRACED (a child strace cannot follow); else a thread or child of the run",
        "clone3": "unreviewed-call with CLONE_UNTRACED; else a thread or child of the run",
        "fork": "a child of the run, traced", "vfork": "a child of the run, traced",
        "unshare": "fresh namespaces hold nothing another process outside them reads; what is done inside is traced",
        "setpriority": "allowed: the calling thread to nice 0 or -4, as libdispatch starts a worker of the default or user-initiated QoS; any other (another process, another value: /proc/PID/stat) is unreviewed-call. The thread's nice still shows to others: a channel of one bit per thread left to the sandbox",
        "prctl": "allowed: PR_SET_NAME to one of libdispatch's worker names (compared whole), options that only read (PR_GET_…, PR_CAPBSET_READ) and the sandbox's one-way settings (PR_SET_NO_NEW_PRIVS, PR_SET_DUMPABLE, PR_SET_SECCOMP, PR_SET_PDEATHSIG, PR_SET_MM_MAP emptying the argument area); any other option (PR_SET_NAME, PR_SET_MM, PR_SET_VMA, …) is unreviewed-call",
        "prlimit64": "allowed when it sets no limit, or lowers the caller's RLIMIT_CORE to 0 (the sandbox); any other is unreviewed-call",
        "setrlimit": "allowed only for RLIMIT_CORE 0 (the sandbox); any other limit shows in /proc/PID/limits: unreviewed-call",
        "fcntl": "allowed: commands on the descriptor itself; a lock, a lease, an owner, a signal or a pipe's size its other end reads (F_SETLK, F_OFD_SETLK, F_SETLEASE, F_SETOWN, F_SETPIPE_SZ, …) is unreviewed-call, unlocking excepted",
        "flock": "allowed: LOCK_UN, and LOCK_EX|LOCK_NB on the run directory itself once per process (the run's claim on --out, taken before confinement; the sandbox refuses every lock after it, so it cannot be toggled to spell anything); any other lock shows in /proc/locks: unreviewed-call",
        "ioctl": "allowed: requests that only read (TCGETS, TIOCGWINSZ, FIONREAD, …) and FIONBIO, FIOCLEX, FIONCLEX; any other (TIOCSTI, FS_IOC_SETFLAGS, …) is unreviewed-call",
        "seccomp": "confines the caller (the sandbox); its filters' count shows in /proc/PID/status",
        "landlock_create_ruleset": "confines the caller (the sandbox)",
        "landlock_add_rule": "confines the caller (the sandbox)",
        "landlock_restrict_self": "confines the caller (the sandbox)",
    ]
    // The file-metadata, kernel-object and signal calls are judged too, by `StraceLog`'s tables.

    /// Every call the audit judges by its arguments.
    static var judgedNames: Set<String> {
        Set(judged.keys).union(StraceLog.metadataCalls.keys).union(StraceLog.kernelObjectCalls)
            .union(StraceLog.signalCalls.keys)
    }

    /// strace's `-e trace=` value: every call but the allowed ones (`?`: a name this architecture
    /// or this strace does not know is skipped, not an error).
    public static var traceExpression: String {
        "trace=!" + allowed.keys.sorted().map { "?" + $0 }.joined(separator: ",")
    }
}
