// A library an adversary preloads into a real `replay` run (LD_PRELOAD), compiled and used by
// InProcessAdversaryTests. It interposes ZSTD_decompressStream, which `replay` first calls to read
// the corpus, after it has confined itself; with REPLAY_ADVERSARY_AT=start it acts from its
// constructor instead, before confinement, which proves every check below can see its channel
// open. For each storage channel it publishes a token through state that the kernel shows other
// processes, reads that state back as any other process would (/proc/self, /proc/locks,
// /proc/VICTIM), and prints on stderr one line "adversary: CHANNEL open" or "... closed". The
// token is a fixed test string; no corpus text ever reaches this code.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;
static const char token[] = "qxadversaryqx";
// Read from the environment in the constructor, before the attack overwrites its first string.
static int act_at_start = 0;
static pid_t victim = 0;

static void verdict(const char *channel, int open) {
    char line[128];
    int length = snprintf(line, sizeof line, "adversary: %s %s\n", channel, open ? "open" : "closed");
    if (write(2, line, (size_t)length) < 0) { /* nothing to do */ }
}

// The whole of a /proc file (or any file), NUL-terminated; "" when unreadable.
static const char *slurp(const char *path, char *buffer, size_t size) {
    buffer[0] = '\0';
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return buffer;
    size_t used = 0;
    for (;;) {
        ssize_t length = read(descriptor, buffer + used, size - 1 - used);
        if (length <= 0) break;
        used += (size_t)length;
        if (used == size - 1) break;
    }
    close(descriptor);
    // /proc/PID/cmdline and environ separate strings with NUL: make them one searchable text.
    for (size_t index = 0; index < used; index++) if (buffer[index] == '\0') buffer[index] = ' ';
    buffer[used] = '\0';
    return buffer;
}

static int contains(const char *path, const char *needle) {
    static char buffer[1 << 16];
    return strstr(slurp(path, buffer, sizeof buffer), needle) != NULL;
}

static void *name_thread(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "qxadvthreadqx");
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", gettid());
    verdict("thread-name", contains(path, "qxadvthreadqx"));
    return NULL;
}

static void attack(void) {
    char text[160];
    // Names.
    prctl(PR_SET_NAME, token, 0, 0, 0);
    verdict("process-name", contains("/proc/self/comm", "qxadversary"));
    int comm = open("/proc/self/comm", O_WRONLY | O_CLOEXEC);
    if (comm >= 0) { if (write(comm, "qxcommfileqx", 12) < 0) { } close(comm); }
    verdict("comm-file", contains("/proc/self/comm", "qxcommfile"));
    pthread_t thread;
    if (pthread_create(&thread, NULL, name_thread, NULL) == 0) pthread_join(thread, NULL);
    else verdict("thread-name", 0);

    // The argument and environment areas, written as plain memory.
    extern char *program_invocation_name;
    if (strlen(program_invocation_name) >= 8) memcpy(program_invocation_name, "qxargvqx", 8);
    verdict("cmdline", contains("/proc/self/cmdline", "qxargvqx"));
    // The first string long enough to hold the token: the environment's order is its parent's
    // (a dictionary's, in a test), and its first string may be as short as "SHLVL=2".
    for (char **entry = environ; *entry != NULL; entry++) {
        if (strlen(*entry) >= 8) { memcpy(*entry, "qxenvpqx", 8); break; }
    }
    verdict("environ", contains("/proc/self/environ", "qxenvpqx"));

    // Locks, listed with the holder's pid in /proc/locks for every user.
    snprintf(text, sizeof text, " %d ", getpid());
    int file = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    int locked = flock(file, LOCK_SH | LOCK_NB) == 0;
    verdict("flock", locked && contains("/proc/locks", text));
    if (locked) flock(file, LOCK_UN);
    struct flock range = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 4242, .l_len = 1 };
    locked = fcntl(file, F_SETLK, &range) == 0;
    verdict("fcntl-lock", locked && contains("/proc/locks", " 4242 4242"));
    close(file);

    // This process's limits, nice, affinity and umask.
    struct rlimit limit;
    getrlimit(RLIMIT_NOFILE, &limit);
    struct rlimit changed = { .rlim_cur = 1234, .rlim_max = limit.rlim_max };
    setrlimit(RLIMIT_NOFILE, &changed);
    verdict("own-limit", contains("/proc/self/limits", " 1234 "));
    setpriority(PRIO_PROCESS, 0, 13);
    errno = 0;
    verdict("own-nice", getpriority(PRIO_PROCESS, 0) == 13);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    int cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > 1) {
        sched_setaffinity(0, sizeof one, &one);
        cpu_set_t now;
        sched_getaffinity(0, sizeof now, &now);
        verdict("own-affinity", CPU_COUNT(&now) == 1);
    }
    umask(0123);
    verdict("umask", contains("/proc/self/status", "Umask:\t0123"));
    int adjust = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (adjust >= 0) { if (write(adjust, "777", 3) < 0) { } close(adjust); }
    verdict("oom-score-adj", contains("/proc/self/oom_score_adj", "777"));

    // Another process of the same user, named by the test.
    if (victim > 0) {
        pid_t pid = victim;
        struct rlimit theirs = { .rlim_cur = 1212, .rlim_max = limit.rlim_max };
        prlimit(pid, RLIMIT_NOFILE, &theirs, NULL);
        snprintf(text, sizeof text, "/proc/%d/limits", pid);
        verdict("victim-limit", contains(text, " 1212 "));
        setpriority(PRIO_PROCESS, (id_t)pid, 17);
        errno = 0;
        verdict("victim-nice", getpriority(PRIO_PROCESS, (id_t)pid) == 17);
        if (cpus > 1) {
            sched_setaffinity(pid, sizeof one, &one);
            cpu_set_t now;
            sched_getaffinity(pid, sizeof now, &now);
            verdict("victim-affinity", CPU_COUNT(&now) == 1);
        }
    }
}

__attribute__((constructor)) static void at_start(void) {
    const char *when = getenv("REPLAY_ADVERSARY_AT");
    const char *target = getenv("REPLAY_ADVERSARY_VICTIM");
    act_at_start = when != NULL && strcmp(when, "start") == 0;
    victim = target != NULL ? (pid_t)atoi(target) : 0;
    if (act_at_start) attack();
}

// zstd's streaming call, as libzstd declares it; the types are opaque here.
typedef size_t (*decompress_stream)(void *, void *, void *);
size_t ZSTD_decompressStream(void *stream, void *output, void *input) {
    static int attacked = 0;
    static decompress_stream real = NULL;
    if (!attacked) {
        attacked = 1;
        if (!act_at_start) attack();
        real = (decompress_stream)dlsym(RTLD_NEXT, "ZSTD_decompressStream");
    }
    if (real == NULL) real = (decompress_stream)dlsym(RTLD_NEXT, "ZSTD_decompressStream");
    return real(stream, output, input);
}
