// The system calls of Audit's Sandbox, each reached through a variadic libc function (syscall(),
// prctl()) that Swift cannot call, and the seccomp program, written with BPF macros Swift cannot
// import. Policy about paths (which rights, which directories, in which order) stays in Swift.
#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <linux/prctl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

// struct landlock_ruleset_attr as of ABI 6. Debian 12's header declares only handled_access_fs;
// the kernel accepts this larger struct from any ABI as long as the fields it does not know are 0.
struct replay_landlock_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; // ABI 4
    uint64_t scoped;             // ABI 6
};
// No struct landlock_net_port_attr: no TCP port is ever allowed, so no network rule is ever added.

int replay_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? -errno : (int)abi;
}

int replay_landlock_create_ruleset(uint64_t handled_access_fs, uint64_t handled_access_net, uint64_t scoped) {
    struct replay_landlock_ruleset_attr attr = {
        .handled_access_fs = handled_access_fs,
        .handled_access_net = handled_access_net,
        .scoped = scoped,
    };
    long fd = syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    return fd < 0 ? -errno : (int)fd;
}

int replay_landlock_allow_beneath(int ruleset_fd, const char *path, uint64_t allowed_access) {
    // O_PATH is a GNU extension Swift's Glibc module does not export, so the descriptor is opened
    // here too; it only names the hierarchy and is closed before returning.
    int parent = open(path, O_PATH | O_CLOEXEC);
    if (parent < 0) return -errno;
    struct landlock_path_beneath_attr rule = { .allowed_access = allowed_access, .parent_fd = parent };
    long result = syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    int error = result < 0 ? errno : 0;
    close(parent);
    return -error;
}

int replay_set_no_new_privs(void) {
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ? -errno : 0;
}

int replay_landlock_restrict_self(int ruleset_fd, uint32_t flags) {
    return syscall(SYS_landlock_restrict_self, ruleset_fd, flags) < 0 ? -errno : 0;
}

int replay_set_not_dumpable(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 ? -errno : 0;
}

int replay_dumpable(void) {
    int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    return dumpable < 0 ? -errno : dumpable;
}

long replay_system_call(long number, long a0, long a1, long a2, long a3, long a4, long a5) {
    long result = syscall(number, a0, a1, a2, a3, a4, a5);
    return result < 0 ? -errno : result;
}

int replay_hide_argument_area(void) {
    // The kernel's own record of the layout, in /proc/self/stat after the name in parentheses
    // (which may hold spaces and parentheses itself, hence the last ')'). Read with read(2): no
    // stdio buffer is left behind.
    char text[2048];
    int descriptor = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -errno;
    ssize_t length = read(descriptor, text, sizeof text - 1);
    int error = length < 0 ? errno : 0;
    close(descriptor);
    if (length <= 0) return error ? -error : -EIO;
    text[length] = '\0';
    char *cursor = strrchr(text, ')');
    if (cursor == NULL) return -EIO;
    cursor++;
    // Fields are numbered from 1 as in proc(5); the name is field 2, so the text after it starts
    // with field 3.
    unsigned long long field[53] = { 0 };
    for (int index = 3; index < 53; index++) {
        while (*cursor == ' ') cursor++;
        if (*cursor == '\0') return -EIO;
        char *end = NULL;
        field[index] = strtoull(cursor, &end, 10);
        if (end == cursor) {
            // A non-numeric field (the state, field 3): skip the word.
            while (*cursor != ' ' && *cursor != '\0') cursor++;
        } else {
            cursor = end;
        }
    }
    // Fields 26-28, 45-51: code, stack, data, heap start, arguments, environment.
    struct prctl_mm_map map = {
        .start_code = field[26], .end_code = field[27], .start_stack = field[28],
        .start_data = field[45], .end_data = field[46], .start_brk = field[47],
        .brk = (uint64_t)syscall(SYS_brk, 0),
        .arg_start = field[48], .arg_end = field[48],
        .env_start = field[50], .env_end = field[50],
        .auxv = NULL, .auxv_size = 0, .exe_fd = (uint32_t)-1,
    };
    if (map.arg_start == 0 || map.env_start == 0) return -EIO;   // fields hidden from this reader
    return prctl(PR_SET_MM, PR_SET_MM_MAP, &map, sizeof map, 0) < 0 ? -errno : 0;
}

int replay_argument_area_length(void) {
    char buffer[256];
    int descriptor = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return -errno;
    int total = 0;
    for (;;) {
        ssize_t length = read(descriptor, buffer, sizeof buffer);
        if (length < 0) { int error = errno; close(descriptor); return -error; }
        if (length == 0) break;
        total += (int)length;
    }
    close(descriptor);
    return total;
}

#if defined(__x86_64__)
#define REPLAY_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define REPLAY_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the seccomp filter knows the system call numbers of x86_64 and aarch64 only"
#endif
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the seccomp filter reads the low 32 bits of an argument at its first byte (little-endian)"
#endif

// The seccomp filter is an allow-list: a call not named below fails with EPERM. A deny-list
// closes the channels someone thought of; an allow-list closes the class. Any attribute of the
// process or of a shared kernel object that another process can read (its names, limits,
// priorities, affinity, scheduling policy, capabilities, umask, session, locks, namespaces,
// seccomp filters, the terminal's settings, another process's attributes, the host's clock or
// name) is changed only by calls that are not here, or are here only with the arguments that
// read. Each group says why its calls cannot carry words out of the process. Some calls exist
// only on x86_64 (aarch64 has just the *at forms), hence the #ifdefs.
static const int replay_allowed_calls[] = {
    // Descriptors' own data. Where a descriptor points was decided when it was opened (Landlock
    // checks every open; descriptors from before confinement were pointed at /dev/null, but for
    // stdin, stdout and stderr, which the caller chose).
    __NR_read, __NR_write, __NR_readv, __NR_writev, __NR_pread64, __NR_pwrite64, __NR_preadv, __NR_pwritev,
    __NR_preadv2, __NR_pwritev2, __NR_lseek, __NR_close, __NR_close_range, __NR_dup, __NR_dup3,
#ifdef __NR_dup2
    __NR_dup2,
#endif
    __NR_fsync, __NR_fdatasync, __NR_sync_file_range, __NR_fadvise64, __NR_readahead, __NR_fallocate, __NR_ftruncate,
    __NR_sendfile, __NR_copy_file_range, __NR_splice, __NR_tee,
    // Paths: Landlock decides every write, creation, removal and rename; reads are not secret.
    __NR_openat, __NR_openat2, __NR_mkdirat, __NR_unlinkat, __NR_renameat2, __NR_truncate, __NR_faccessat,
    __NR_faccessat2, __NR_newfstatat, __NR_fstat, __NR_statx, __NR_statfs, __NR_fstatfs, __NR_readlinkat,
    __NR_getdents64, __NR_getcwd, __NR_chdir, __NR_fchdir, __NR_getxattr, __NR_lgetxattr, __NR_fgetxattr,
    __NR_listxattr, __NR_llistxattr, __NR_flistxattr,
#ifdef __NR_open
    __NR_open, __NR_creat, __NR_mkdir, __NR_rmdir, __NR_unlink, __NR_rename, __NR_renameat, __NR_access,
    __NR_stat, __NR_lstat, __NR_readlink, __NR_getdents,
#endif
    // The process's own memory (its layout is readable only by processes that may trace it).
    // Not mlock: the amount locked is VmLck in /proc/PID/status, a number any user reads.
    __NR_brk, __NR_mmap, __NR_munmap, __NR_mremap, __NR_mprotect, __NR_madvise, __NR_msync, __NR_mincore,
    __NR_mbind, __NR_get_mempolicy, __NR_membarrier,
    // Threads, their synchronisation and their startup (clone is decided below, by its flags).
    __NR_futex, __NR_futex_waitv, __NR_set_robust_list, __NR_set_tid_address, __NR_rseq, __NR_sched_yield,
    __NR_exit, __NR_exit_group, __NR_restart_syscall, __NR_wait4, __NR_waitid,
    // Signal dispositions and masks. Their bits show in /proc/PID/status to every user and no
    // filter can stop that without stopping threads; docs/privacy.md's threat model names the channel.
    __NR_rt_sigaction, __NR_rt_sigprocmask, __NR_rt_sigreturn, __NR_rt_sigpending, __NR_rt_sigtimedwait,
    __NR_rt_sigsuspend, __NR_sigaltstack, __NR_signalfd4,
    // Waiting and waking within the process.
    __NR_ppoll, __NR_pselect6, __NR_epoll_create1, __NR_epoll_ctl, __NR_epoll_pwait, __NR_epoll_pwait2,
    __NR_eventfd2, __NR_pipe2, __NR_timerfd_create, __NR_timerfd_settime, __NR_timerfd_gettime,
    __NR_nanosleep, __NR_clock_nanosleep,
#ifdef __NR_poll
    __NR_poll, __NR_select, __NR_epoll_create, __NR_epoll_wait, __NR_eventfd, __NR_pipe, __NR_pause,
#endif
    // Reading clocks, identities, limits and the machine: nothing is changed.
    __NR_clock_gettime, __NR_clock_getres, __NR_gettimeofday, __NR_times, __NR_getrusage, __NR_getpid, __NR_gettid,
    __NR_getppid, __NR_getuid, __NR_geteuid, __NR_getgid, __NR_getegid, __NR_getresuid, __NR_getresgid,
    __NR_getgroups, __NR_getpgid, __NR_getsid, __NR_capget, __NR_uname, __NR_sysinfo, __NR_getrandom, __NR_getcpu,
    __NR_getpriority, __NR_sched_getaffinity, __NR_sched_getparam, __NR_sched_getscheduler, __NR_sched_getattr,
    __NR_sched_get_priority_max, __NR_sched_get_priority_min, __NR_sched_rr_get_interval,
#ifdef __NR_time
    __NR_time, __NR_getpgrp, __NR_getrlimit,
#endif
    // Sockets made before confinement or by socketpair: receiving, and reading their settings.
    __NR_recvfrom, __NR_recvmsg, __NR_recvmmsg, __NR_shutdown, __NR_getsockopt, __NR_getsockname, __NR_getpeername,
};

// Signals may go to this process only (its pid is fixed: no fork is allowed, see clone below),
// whatever Landlock's ABI: ABI 6 scopes signals, the promise needs only ABI 4.
static const int replay_signal_calls[] = {
    __NR_kill, __NR_tgkill, __NR_rt_sigqueueinfo, __NR_rt_tgsigqueueinfo,
};

// prctl options that only read. Every PR_SET_* is refused: the name (PR_SET_NAME, shown in
// /proc/PID/comm and stat to every user), the argument and environment areas (PR_SET_MM), the
// bounding and ambient capabilities, speculation and THP settings, seccomp, dumpable, and the
// rest, each of which /proc shows or which could undo the sandbox.
static const uint32_t replay_reading_prctl_options[] = {
    PR_GET_PDEATHSIG, PR_GET_DUMPABLE, PR_GET_KEEPCAPS, PR_GET_NAME, PR_GET_SECCOMP, PR_CAPBSET_READ,
    PR_GET_SECUREBITS, PR_GET_TIMERSLACK, PR_GET_CHILD_SUBREAPER, PR_GET_NO_NEW_PRIVS, PR_GET_TID_ADDRESS,
    PR_GET_THP_DISABLE, 52 /* PR_GET_SPECULATION_CTRL */, 46 /* PR_GET_FP_MODE */,
};

// fcntl commands that touch only this descriptor or read. Refused: locks and leases (listed in
// /proc/locks to every user), F_SETOWN and F_SETSIG (signals to another process), F_NOTIFY,
// F_SETPIPE_SZ (a pipe's size, which its other end reads), the inode's write hints (which every
// opener reads), and seals. F_SETFL is decided below, by the descriptor.
static const uint32_t replay_fcntl_commands[] = {
    F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_GETLK, F_GETOWN, F_GETSIG, F_GETOWN_EX, 36 /* F_OFD_GETLK */,
    1025 /* F_GETLEASE */, F_DUPFD_CLOEXEC, 1032 /* F_GETPIPE_SZ */, 1034 /* F_GET_SEALS */,
};

// ioctl requests that read: the terminal's settings and size (isatty, the progress line), bytes
// waiting, close-on-exec. Refused: every request that sets a terminal's settings, size, process
// group or input queue (TIOCSTI), which other processes on that terminal see, and FIONBIO and
// FIOASYNC, which change flags shared with whoever else holds the descriptor.
static const uint32_t replay_ioctl_requests[] = {
    0x5401 /* TCGETS */, 0x5413 /* TIOCGWINSZ */, 0x540F /* TIOCGPGRP */, 0x541B /* FIONREAD */,
    0x5450 /* FIONCLEX */, 0x5451 /* FIOCLEX */, 0x802c542a /* TCGETS2 */,
};

// clone flags that would make a new process or namespace, or hide the thread from a tracer.
enum {
    REPLAY_CLONE_THREAD = 0x00010000,
    REPLAY_CLONE_FORBIDDEN = 0x00020000 /* CLONE_NEWNS */ | 0x00800000 /* CLONE_UNTRACED */
        | 0x02000000 /* CLONE_NEWCGROUP */ | 0x04000000 /* CLONE_NEWUTS */ | 0x08000000 /* CLONE_NEWIPC */
        | 0x10000000 /* CLONE_NEWUSER */ | 0x20000000 /* CLONE_NEWPID */ | 0x40000000 /* CLONE_NEWNET */,
};

// A seccomp-bpf program under construction. Jumps count the instructions they skip; a block's
// skip is patched once its end is known.
enum { REPLAY_FILTER_CAPACITY = 1024 };
struct replay_program {
    struct sock_filter code[REPLAY_FILTER_CAPACITY];
    unsigned length;
};

static void emit(struct replay_program *program, uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) {
    if (program->length < REPLAY_FILTER_CAPACITY) {
        program->code[program->length] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
    }
    program->length++;
}

static void deny(struct replay_program *program) {
    emit(program, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM, 0, 0);
}

static void allow(struct replay_program *program) {
    emit(program, BPF_RET | BPF_K, SECCOMP_RET_ALLOW, 0, 0);
}

// Loads the low (or high) 32 bits of argument `index`; the kernel reads an int argument's low half.
static void load_argument(struct replay_program *program, unsigned index, int high) {
    emit(program, BPF_LD | BPF_W | BPF_ABS, (uint32_t)(offsetof(struct seccomp_data, args[index]) + (high ? 4 : 0)), 0, 0);
}

// Denies unless the loaded value is `value`.
static void deny_unless(struct replay_program *program, uint32_t value) {
    emit(program, BPF_JMP | BPF_JEQ | BPF_K, value, 1, 0);
    deny(program);
}

// Denies unless argument `index` (a pointer) is NULL.
static void deny_unless_null(struct replay_program *program, unsigned index) {
    load_argument(program, index, 0);
    deny_unless(program, 0);
    load_argument(program, index, 1);
    deny_unless(program, 0);
}

// Starts a block that runs when the loaded system call number is `number`; returns where to patch.
// Every path through the block must return, so the number stays loaded for the checks after it.
static unsigned begin_call(struct replay_program *program, uint32_t number) {
    emit(program, BPF_JMP | BPF_JEQ | BPF_K, number, 0, 0);
    return program->length - 1;
}

static void end_call(struct replay_program *program, unsigned start) {
    if (start < REPLAY_FILTER_CAPACITY) program->code[start].jf = (uint8_t)(program->length - start - 1);
}

// Denies unless the loaded value is one of `values`.
static void deny_unless_one_of(struct replay_program *program, const uint32_t *values, size_t count) {
    for (size_t index = 0; index < count; index++) {
        // Each match jumps over the rest of the list and the denial to the allow that follows.
        emit(program, BPF_JMP | BPF_JEQ | BPF_K, values[index], (uint8_t)(count - index), 0);
    }
    deny(program);
}

#define REPLAY_COUNT(array) (sizeof (array) / sizeof (array)[0])

int replay_seccomp_confine(void) {
    struct replay_program program = { .length = 0 };
    const uint32_t self = (uint32_t)getpid();

    // A call through another ABI's entry (int 0x80 on x86_64) has other numbers: kill.
    emit(&program, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch), 0, 0);
    emit(&program, BPF_JMP | BPF_JEQ | BPF_K, REPLAY_AUDIT_ARCH, 1, 0);
    emit(&program, BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS, 0, 0);
    emit(&program, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr), 0, 0);
#if defined(__x86_64__)
    // x32 calls share AUDIT_ARCH_X86_64 but set this bit in the number: fail them all.
    emit(&program, BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1);
    deny(&program);
#endif
    for (size_t index = 0; index < REPLAY_COUNT(replay_allowed_calls); index++) {
        emit(&program, BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)replay_allowed_calls[index], 0, 1);
        allow(&program);
    }

    // clone: threads only (CLONE_THREAD), never a new namespace or an untraced thread. No fork:
    // a child process would take a pid of its own and outlive nothing the filter knows of.
    unsigned block = begin_call(&program, __NR_clone);
    load_argument(&program, 0, 0);
    emit(&program, BPF_JMP | BPF_JSET | BPF_K, REPLAY_CLONE_THREAD, 1, 0);
    deny(&program);
    emit(&program, BPF_JMP | BPF_JSET | BPF_K, REPLAY_CLONE_FORBIDDEN, 0, 1);
    deny(&program);
    allow(&program);
    end_call(&program, block);
    // clone3's flags sit in memory a filter cannot read: ENOSYS, and glibc falls back to clone.
    block = begin_call(&program, __NR_clone3);
    emit(&program, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS, 0, 0);
    end_call(&program, block);

    for (size_t index = 0; index < REPLAY_COUNT(replay_signal_calls); index++) {
        block = begin_call(&program, (uint32_t)replay_signal_calls[index]);
        load_argument(&program, 0, 0);
        deny_unless(&program, self);
        load_argument(&program, 0, 1);
        deny_unless(&program, 0);
        allow(&program);
        end_call(&program, block);
    }

    block = begin_call(&program, __NR_prctl);
    load_argument(&program, 0, 0);
    deny_unless_one_of(&program, replay_reading_prctl_options, REPLAY_COUNT(replay_reading_prctl_options));
    allow(&program);
    end_call(&program, block);

    // fcntl: F_SETFL (O_NONBLOCK, O_APPEND, O_ASYNC) only on descriptors above stderr, whose open
    // file descriptions no other process shares: stdin, stdout and stderr came from the caller.
    block = begin_call(&program, __NR_fcntl);
    load_argument(&program, 1, 0);
    emit(&program, BPF_JMP | BPF_JEQ | BPF_K, F_SETFL, 0, 4);
    load_argument(&program, 0, 0);
    emit(&program, BPF_JMP | BPF_JGT | BPF_K, 2, 1, 0);
    deny(&program);
    allow(&program);
    deny_unless_one_of(&program, replay_fcntl_commands, REPLAY_COUNT(replay_fcntl_commands));
    allow(&program);
    end_call(&program, block);

    block = begin_call(&program, __NR_ioctl);
    load_argument(&program, 1, 0);
    deny_unless_one_of(&program, replay_ioctl_requests, REPLAY_COUNT(replay_ioctl_requests));
    allow(&program);
    end_call(&program, block);

    // prlimit64 with no new limit only reads (glibc's getrlimit); a process's limits are in
    // /proc/PID/limits for every user to read, so none is set, its own or another's.
    block = begin_call(&program, __NR_prlimit64);
    deny_unless_null(&program, 2);
    allow(&program);
    end_call(&program, block);

    // personality(0xffffffff) reads the persona; any other value sets it.
    block = begin_call(&program, __NR_personality);
    load_argument(&program, 0, 0);
    deny_unless(&program, 0xffffffffu);
    allow(&program);
    end_call(&program, block);

#if defined(__x86_64__)
    // arch_prctl: the thread's FS and GS bases, reading CPUID state and the extended-state
    // permissions (AMX); not the shadow-stack or CPUID-faulting settings /proc/PID/status shows.
    block = begin_call(&program, __NR_arch_prctl);
    load_argument(&program, 0, 0);
    static const uint32_t arch_options[] = { 0x1001, 0x1002, 0x1003, 0x1004, 0x1011, 0x1021, 0x1022, 0x1023 };
    deny_unless_one_of(&program, arch_options, REPLAY_COUNT(arch_options));
    allow(&program);
    end_call(&program, block);
#endif

    // socketpair: AF_UNIX stream or seqpacket only, whose sockets ignore or refuse a destination
    // address; a datagram socket could sendto(2) any named socket on the machine.
    block = begin_call(&program, __NR_socketpair);
    load_argument(&program, 0, 0);
    deny_unless(&program, AF_UNIX);
    load_argument(&program, 1, 0);
    emit(&program, BPF_ALU | BPF_AND | BPF_K, 0xf, 0, 0); // SOCK_TYPE_MASK: without SOCK_NONBLOCK, SOCK_CLOEXEC
    emit(&program, BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 2, 0);
    emit(&program, BPF_JMP | BPF_JEQ | BPF_K, SOCK_SEQPACKET, 1, 0);
    deny(&program);
    allow(&program);
    end_call(&program, block);

    // sendto: only without a destination address (send(2) on a connected socket).
    block = begin_call(&program, __NR_sendto);
    deny_unless_null(&program, 4);
    allow(&program);
    end_call(&program, block);

    // Everything else: socket, connect, bind, sendmsg, io_uring, exec, fork, metadata writes,
    // links, System V IPC, queues, keys, locks, limits, priorities, affinity, scheduling, names,
    // namespaces, mounts, seccomp, ptrace, other processes' memory and descriptors, clocks...
    deny(&program);

    if (program.length > REPLAY_FILTER_CAPACITY) return -E2BIG;
    struct sock_fprog prog = { .len = (unsigned short)program.length, .filter = program.code };
    long result = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
    if (result < 0) return -errno;
    // With TSYNC a positive result is the id of a thread that could not take the filter.
    return result > 0 ? -ESRCH : 0;
}
