// The system calls of Audit's Sandbox, each reached through a variadic libc function (syscall(),
// prctl()) that Swift cannot call. Policy (which rights, which paths, in which order) stays in Swift.
#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
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

#if defined(__x86_64__)
#define REPLAY_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define REPLAY_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the seccomp filter knows the system call numbers of x86_64 and aarch64 only"
#endif
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the seccomp filter reads the low 32 bits of args[0] at its first byte (little-endian)"
#endif

int replay_seccomp_deny_non_unix_sockets(void) {
    // BPF_STMT and BPF_JUMP are function-like macros, which Swift cannot import, so the program is
    // written here. Jump offsets count instructions skipped after the jump.
    struct sock_filter program[] = {
        // A call through another ABI's entry (int 0x80 on x86_64) has other numbers: kill.
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, REPLAY_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        // x32 calls share AUDIT_ARCH_X86_64 but set this bit in the number: fail them all.
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, __X32_SYSCALL_BIT, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 3, 0),        // to "domain"
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socketpair, 2, 0),    // to "domain"
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 4, 0), // to "deny"
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        // domain: the kernel reads the first argument as an int, so compare its low 32 bits.
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        // deny:
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog prog = { .len = (unsigned short)(sizeof program / sizeof program[0]), .filter = program };
    long result = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
    if (result < 0) return -errno;
    // With TSYNC a positive result is the id of a thread that could not take the filter.
    return result > 0 ? -ESRCH : 0;
}
