#ifndef REPLAY_CSANDBOX_H
#define REPLAY_CSANDBOX_H
// The kernel calls behind Audit's Sandbox. Swift cannot make them itself: landlock_create_ruleset,
// landlock_add_rule, landlock_restrict_self and seccomp have no libc wrappers and are reached only
// through syscall(), and PR_SET_NO_NEW_PRIVS and PR_SET_DUMPABLE only through prctl(); both are
// variadic, and Swift cannot call C variadic functions. Every function returns 0 (or a descriptor,
// or a version) on success and -errno on failure, so Swift never reads errno across a call it did
// not make.
#include <stdint.h>
#include <sys/syscall.h>
#include <linux/landlock.h>

// Debian 12's <linux/landlock.h> stops at ABI 2 (LANDLOCK_ACCESS_FS_REFER). The rights added since
// are declared here with the kernel's names and values, which are kernel ABI and never change;
// Swift imports these `(1ULL << n)` macros as UInt64 constants.
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3: truncate(2), ftruncate(2), O_TRUNC */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5: ioctl(2) on character/block devices */
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0) /* ABI 4: bind(2) of a TCP socket to a port */
#endif
#ifndef LANDLOCK_ACCESS_NET_CONNECT_TCP
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1) /* ABI 4: connect(2) of a TCP socket to a port */
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6: connect to abstract sockets outside the domain */
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1) /* ABI 6: signals to processes outside the domain */
#endif
#ifndef LANDLOCK_RESTRICT_SELF_TSYNC
#define LANDLOCK_RESTRICT_SELF_TSYNC (1U << 3) /* ABI 8: restrict every thread of the process, not only the caller */
#endif

// System calls newer than Debian 12's kernel headers (Linux 6.1), which the seccomp filter denies.
// Calls added since Linux 5.1 share one number on every architecture, so these hold on x86_64 and
// aarch64 alike.
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452     /* Linux 6.6 */
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463    /* Linux 6.13 */
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466 /* Linux 6.13 */
#endif

/// The highest Landlock ABI the kernel offers (1 or more), or -errno: -ENOSYS when the kernel was
/// built without Landlock, -EOPNOTSUPP when it is built in but not enabled at boot.
int replay_landlock_abi(void);

/// Creates a ruleset that handles (denies unless a rule allows) these filesystem and TCP rights and
/// scopes. Returns the ruleset descriptor or -errno. Needs an ABI that knows every bit passed.
int replay_landlock_create_ruleset(uint64_t handled_access_fs, uint64_t handled_access_net, uint64_t scoped);

/// Allows `allowed_access` beneath `path` (a directory, or a single file such as /dev/null).
/// Returns 0 or -errno: -ENOENT/-EACCES from opening the path, -EINVAL for a right a file cannot have.
int replay_landlock_allow_beneath(int ruleset_fd, const char *path, uint64_t allowed_access);

/// Sets no_new_privs on the calling thread, which landlock_restrict_self and an unprivileged
/// seccomp filter both require. Returns 0 or -errno.
int replay_set_no_new_privs(void);

/// Enforces the ruleset on the calling thread and the threads it starts later (every thread with
/// LANDLOCK_RESTRICT_SELF_TSYNC). Returns 0 or -errno.
int replay_landlock_restrict_self(int ruleset_fd, uint32_t flags);

/// Sets the process not dumpable (PR_SET_DUMPABLE 0): no core dump, and no same-user process
/// may attach to it or read its memory through /proc. Returns 0 or -errno.
int replay_set_not_dumpable(void);

/// PR_GET_DUMPABLE: 0 when core dumps are off, 1 or 2 when on, or -errno.
int replay_dumpable(void);

/// Empties the argument and environment areas the kernel shows as /proc/PID/cmdline (to every
/// user) and /proc/PID/environ (PR_SET_MM_MAP, which needs no privilege). Those areas are plain
/// memory: code in the process can write words there without a system call, so no filter could
/// stop it; once the kernel's record of them is empty, nothing written there is shown. The
/// strings stay in memory for the process itself (Swift's CommandLine keeps its own pointers).
/// Needs CONFIG_CHECKPOINT_RESTORE (-EINVAL without). Returns 0 or -errno.
int replay_hide_argument_area(void);

/// The number of bytes /proc/self/cmdline shows, or -errno: 0 once the area is hidden.
int replay_argument_area_length(void);

/// Installs, on every thread of the process (SECCOMP_FILTER_FLAG_TSYNC), the seccomp-bpf filter:
/// an allow-list of the calls a confined run makes (reads, writes to descriptors, paths Landlock
/// judges, its own memory, threads, futexes, clocks, waiting, signals to itself), some only with
/// arguments that read (prctl, fcntl, ioctl, prlimit64, personality, arch_prctl) or that stay in
/// the process (clone of a thread, socketpair of AF_UNIX stream or seqpacket, sendto without an
/// address); clone3 fails with ENOSYS so glibc falls back to clone; everything else fails with
/// EPERM. A system call made through another architecture's entry (32-bit int 0x80, x32) kills
/// the process or fails, since its numbers would slip past the checks. Returns 0 or -errno
/// (-ESRCH: a thread could not sync, -E2BIG: the program outgrew its buffer).
int replay_seccomp_confine(void);

/// syscall(2) with six arguments, for SandboxProbe's attempts at calls glibc does not wrap
/// (io_uring_setup, add_key, keyctl) or wraps variadically (semctl, mq_open, prctl), and for
/// sched_getaffinity, whose wrapper glibc declares only with _GNU_SOURCE (AvailableProcessors).
/// Returns the result or -errno.
long replay_system_call(long number, long a0, long a1, long a2, long a3, long a4, long a5);

#endif
