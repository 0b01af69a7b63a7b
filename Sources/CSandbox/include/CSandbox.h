#ifndef REPLAY_CSANDBOX_H
#define REPLAY_CSANDBOX_H
// The kernel calls behind Audit's Sandbox. Swift cannot make them itself: landlock_create_ruleset,
// landlock_add_rule, landlock_restrict_self and seccomp have no libc wrappers and are reached only
// through syscall(), and PR_SET_NO_NEW_PRIVS only through prctl(); both are variadic, and Swift
// cannot call C variadic functions. Every function returns 0 (or a descriptor, or a version) on
// success and -errno on failure, so Swift never reads errno across a call it did not make.
#include <stdint.h>
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
#ifndef LANDLOCK_RESTRICT_SELF_TSYNC
#define LANDLOCK_RESTRICT_SELF_TSYNC (1U << 3) /* ABI 8: restrict every thread of the process, not only the caller */
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

/// Installs, on every thread of the process (SECCOMP_FILTER_FLAG_TSYNC), a seccomp-bpf filter under
/// which socket(2) and socketpair(2) fail with EPERM for every domain but AF_UNIX, io_uring_setup(2)
/// fails with EPERM (io_uring can open sockets without calling socket(2)), and a system call made
/// through another architecture's entry (32-bit int 0x80, x32) kills the process or fails, since
/// its numbers would slip past the checks. Returns 0 or -errno (-ESRCH: a thread could not sync).
int replay_seccomp_deny_non_unix_sockets(void);

#endif
