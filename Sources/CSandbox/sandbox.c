// The system calls of Audit's Sandbox, each reached through a variadic libc function (syscall(),
// prctl()) that Swift cannot call, and the seccomp program, written with BPF macros Swift cannot
// import. Policy about paths (which rights, which directories, in which order) stays in Swift.
#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
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

// Calls that fail with EPERM whatever their arguments. Some exist only on x86_64 (aarch64 has
// just the *at forms), hence the #ifdefs. Nothing `replay` runs after confinement makes any of them.
static const int replay_denied_calls[] = {
    // Sockets: no new socket of any family (Landlock up to ABI 7 cannot check a connect to a
    // named UNIX socket such as /dev/log), and no sending to an address from a socket made
    // before (stdin/stdout/stderr may be sockets). sendmsg/sendmmsg are denied whole: their
    // address sits in memory a filter cannot read. sendto is decided below, by its address.
    __NR_socket, __NR_connect, __NR_sendmsg, __NR_sendmmsg,
    // io_uring opens, connects and sends without those calls; enter and register make a ring
    // opened before confinement useless too.
    __NR_io_uring_setup, __NR_io_uring_enter, __NR_io_uring_register,
    // Metadata writes Landlock does not check: modes, owners, times, extended attributes.
#ifdef __NR_chmod
    __NR_chmod,
#endif
    __NR_fchmod, __NR_fchmodat, __NR_fchmodat2,
#ifdef __NR_chown
    __NR_chown,
#endif
#ifdef __NR_lchown
    __NR_lchown,
#endif
    __NR_fchown, __NR_fchownat,
#ifdef __NR_utime
    __NR_utime,
#endif
#ifdef __NR_utimes
    __NR_utimes,
#endif
#ifdef __NR_futimesat
    __NR_futimesat,
#endif
    __NR_utimensat,
    __NR_setxattr, __NR_lsetxattr, __NR_fsetxattr, __NR_setxattrat,
    __NR_removexattr, __NR_lremovexattr, __NR_fremovexattr, __NR_removexattrat,
    // New names for existing inodes and special files. Landlock already refuses them outside the
    // writable directories and withholds make_sym/make_fifo/… beneath; a hard link to a file in
    // the same directory is the one it would let through.
#ifdef __NR_link
    __NR_link,
#endif
#ifdef __NR_symlink
    __NR_symlink,
#endif
#ifdef __NR_mknod
    __NR_mknod,
#endif
    __NR_linkat, __NR_symlinkat, __NR_mknodat,
    // Kernel state that outlives the process: System V IPC, POSIX message queues, keys, names.
    __NR_shmget, __NR_shmat, __NR_shmctl, __NR_msgget, __NR_msgsnd, __NR_msgrcv, __NR_msgctl,
    __NR_semget, __NR_semop, __NR_semtimedop, __NR_semctl,
    __NR_mq_open, __NR_mq_unlink, __NR_mq_timedsend, __NR_mq_timedreceive, __NR_mq_notify, __NR_mq_getsetattr,
    __NR_add_key, __NR_request_key, __NR_keyctl,
    // The host name and NIS domain name, which root (as on CI) could set to a few words.
    __NR_sethostname, __NR_setdomainname,
    // Running another program: ggml's crash handler execs gdb, which prints a frame's string
    // arguments; the Swift runtime's crash backtracer is a program it spawns too.
    __NR_execve, __NR_execveat,
};

// A seccomp-bpf program under construction. Jumps count the instructions they skip; a block's
// skip is patched once its end is known.
enum { REPLAY_FILTER_CAPACITY = 512 };
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

// Denies if the loaded value is `value`.
static void deny_if(struct replay_program *program, uint32_t value) {
    emit(program, BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1);
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

int replay_seccomp_confine(void) {
    struct replay_program program = { .length = 0 };

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
    for (size_t index = 0; index < sizeof replay_denied_calls / sizeof replay_denied_calls[0]; index++) {
        deny_if(&program, (uint32_t)replay_denied_calls[index]);
    }

    // socketpair: AF_UNIX stream or seqpacket only, whose sockets ignore or refuse a destination
    // address; a datagram socket could sendto(2) any named socket on the machine.
    unsigned block = begin_call(&program, __NR_socketpair);
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

    // Core dumps stay off once confine has turned them off.
    block = begin_call(&program, __NR_prctl);
    load_argument(&program, 0, 0);
    deny_if(&program, PR_SET_DUMPABLE);
    allow(&program);
    end_call(&program, block);
#ifdef __NR_setrlimit
    block = begin_call(&program, __NR_setrlimit);
    load_argument(&program, 0, 0);
    deny_if(&program, RLIMIT_CORE);
    allow(&program);
    end_call(&program, block);
#endif
    // prlimit64 with no new limit only reads (glibc's getrlimit).
    block = begin_call(&program, __NR_prlimit64);
    load_argument(&program, 1, 0);
    emit(&program, BPF_JMP | BPF_JEQ | BPF_K, RLIMIT_CORE, 1, 0);
    allow(&program);
    deny_unless_null(&program, 2);
    allow(&program);
    end_call(&program, block);

    allow(&program);

    if (program.length > REPLAY_FILTER_CAPACITY) return -E2BIG;
    struct sock_fprog prog = { .len = (unsigned short)program.length, .filter = program.code };
    long result = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog);
    if (result < 0) return -errno;
    // With TSYNC a positive result is the id of a thread that could not take the filter.
    return result > 0 ? -ESRCH : 0;
}
