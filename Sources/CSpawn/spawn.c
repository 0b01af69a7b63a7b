// See CSpawn.h: these wrappers exist only because the functions are declared under _GNU_SOURCE.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include "CSpawn.h"

int cspawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int cspawn_change_directory(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int cspawn_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

// The reaper (see CSpawn.h). Everything after fork() below is async-signal-safe: raw system
// calls, no allocation, no stdio, no locks.
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t reaper_terminate = 0;

static void reaper_on_term(int signal) {
    (void)signal;
    reaper_terminate = 1;
}

// Sleeps `milliseconds` (or until a signal): the reaper polls, as a blocking wait would miss a
// SIGTERM that came just before it.
static void reaper_nap(long milliseconds) {
    struct timespec nap = {0, milliseconds * 1000 * 1000};
    nanosleep(&nap, NULL);
}

// The number in a decimal string, or -1.
static long reaper_number(const char *text) {
    long value = 0;
    if (*text == 0) return -1;
    for (; *text; text++) {
        if (*text < '0' || *text > '9') return -1;
        value = value * 10 + (*text - '0');
    }
    return value;
}

// Kills every live child of `self`, adding those not seen before to `seen` (up to `capacity`);
// returns how many new ones it found.
static int reaper_kill_children(pid_t self, pid_t *seen, int *seen_count, int capacity) {
    int found = 0;
    int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return 0;
    char buffer[16384];
    for (;;) {
        long length = syscall(SYS_getdents64, proc, buffer, sizeof buffer);
        if (length <= 0) break;
        for (long offset = 0; offset < length;) {
            struct dirent64 *entry = (struct dirent64 *)(buffer + offset);
            offset += entry->d_reclen;
            long pid = reaper_number(entry->d_name);
            if (pid <= 0) continue;
            char path[64] = "/proc/";
            size_t used = 6;
            for (const char *c = entry->d_name; *c && used < sizeof path - 6; c++) path[used++] = *c;
            memcpy(path + used, "/stat", 6);
            int stat = openat(proc, path, O_RDONLY | O_CLOEXEC);
            if (stat < 0) continue;
            char text[512];
            ssize_t got = read(stat, text, sizeof text - 1);
            close(stat);
            if (got <= 0) continue;
            text[got] = 0;
            // "pid (name) state ppid ...": the name may hold anything, so read after its last ')'.
            char *close_paren = strrchr(text, ')');
            if (close_paren == NULL || close_paren[1] != ' ') continue;
            char state = close_paren[2];
            long parent = 0;
            char *cursor = close_paren + 4;
            while (*cursor >= '0' && *cursor <= '9') parent = parent * 10 + (*cursor++ - '0');
            if (parent != self || state == 'Z' || state == 'X') continue;
            kill((pid_t)pid, SIGKILL);
            int known = 0;
            for (int index = 0; index < *seen_count; index++) {
                if (seen[index] == (pid_t)pid) { known = 1; break; }
            }
            if (!known) {
                found++;
                if (*seen_count < capacity) seen[(*seen_count)++] = (pid_t)pid;
            }
        }
    }
    close(proc);
    return found;
}

// Kills every other process of the reaper's own PID namespace (the reaper is its init) and
// reaps them all; returns how many were still alive. For a namespace whose /proc could not be
// made private, where `reaper_kill_children` would read the host's pids.
static int reaper_kill_namespace(void) {
    int survivors = 0;
    kill(-1, SIGKILL);
    for (int round = 0; round < 2500; round++) {
        int one;
        pid_t ended;
        while ((ended = waitpid(-1, &one, WNOHANG)) > 0) {
            if (WIFSIGNALED(one) && WTERMSIG(one) == SIGKILL) survivors++;
        }
        if (ended < 0 && errno == ECHILD) return survivors;
        kill(-1, SIGKILL);
        reaper_nap(2);
    }
    return -1 - survivors;
}

// What the reaper's report says of the isolation it set up (see CSpawn.h).
static int reaper_protections = 0;
static int reaper_isolation_error = 0;

static void reaper_report(int report, int status, int survivors) {
    int record[4] = {status, survivors, reaper_protections, reaper_isolation_error};
    ssize_t ignored = write(report, record, sizeof record);
    (void)ignored;
}

static void reaper_close_except(const int *keep, int keep_count, int report) {
    // Closes every descriptor from 3 up but those kept (ascending walk over the kept ones).
    unsigned int from = 3;
    for (;;) {
        int next = -1;
        for (int index = 0; index <= keep_count; index++) {
            int candidate = index < keep_count ? keep[index] : report;
            if (candidate >= (int)from && (next < 0 || candidate < next)) next = candidate;
        }
        if (next < 0) {
            syscall(SYS_close_range, from, ~0U, 0);
            return;
        }
        if ((unsigned int)next > from) syscall(SYS_close_range, from, (unsigned int)next - 1, 0);
        from = (unsigned int)next + 1;
    }
}

int cspawn_contained(pid_t *reaper, const char *path, const posix_spawn_file_actions_t *actions,
                     const posix_spawnattr_t *attributes, char *const argv[], char *const envp[],
                     const int *keep, int keep_count, int report, int isolate) {
    pid_t forked = fork();
    if (forked < 0) return errno;
    if (forked > 0) {
        *reaper = forked;
        return 0;
    }

    // The reaper. Its own process group, so a terminal's signals and a group kill aimed at the
    // program do not reach it; it ends when the tree is empty.
    setpgid(0, 0);
    reaper_close_except(keep, keep_count, report);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_IGN;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGQUIT, &action, NULL);
    sigaction(SIGPIPE, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    action.sa_handler = reaper_on_term;
    sigaction(SIGTERM, &action, NULL);
    sigset_t unblocked;
    sigemptyset(&unblocked);
    sigprocmask(SIG_SETMASK, &unblocked, NULL);
    if (isolate) {
        // A PID and a mount namespace of the tree's own. This process stays outside, waits for
        // the namespace's first process (the reaper proper, its init) and passes a SIGTERM on.
        if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0) {
            reaper_isolation_error = errno;
        } else {
            pid_t inner = fork();
            if (inner < 0) {
                reaper_report(report, errno, 0);
                _exit(126);
            }
            if (inner > 0) {
                close(report);
                int forwarded = 0;
                for (;;) {
                    int one;
                    pid_t ended = waitpid(inner, &one, WNOHANG);
                    if (ended == inner) _exit(WIFEXITED(one) ? WEXITSTATUS(one) : 126);
                    if (ended < 0 && errno != EINTR) _exit(126);
                    if (reaper_terminate && !forwarded) {
                        kill(inner, SIGTERM);
                        forwarded = 1;
                    }
                    reaper_nap(10);
                }
            }
            // Init of the new namespace: should the outer process die, so does this one, and the
            // kernel kills everything in the namespace with it.
            prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
            reaper_protections |= CSPAWN_OWN_PID_NAMESPACE;
            // Mounts made here stay here; a /proc of this namespace only (its pids, nobody
            // else's) replaces the host's in the tree's view.
            if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
                || mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0) {
                reaper_isolation_error = errno;
            } else {
                reaper_protections |= CSPAWN_PRIVATE_PROC;
            }
        }
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
        reaper_report(report, errno, 0);
        _exit(126);
    }
    pid_t program;
    int spawned = posix_spawn(&program, path, actions, attributes, argv, envp);
    if (spawned != 0) {
        reaper_report(report, spawned, 0);
        _exit(127);
    }

    int status = 0;
    int killed = 0;
    for (;;) {
        int one;
        pid_t ended = waitpid(-1, &one, WNOHANG);
        if (ended == program) { status = one; break; }
        if (ended > 0) continue;   // an orphan that has ended: reaped
        if (reaper_terminate && !killed) {
            kill(-program, SIGKILL);
            kill(program, SIGKILL);
            killed = 1;
        }
        reaper_nap(10);
    }

    // The program has ended: whatever is still alive beneath the reaper outlived it.
    pid_t seen[256];
    int seen_count = 0;
    int survivors = 0;
    for (int round = 0;; round++) {
        int one;
        pid_t ended;
        while ((ended = waitpid(-1, &one, WNOHANG)) > 0) {}
        if (ended < 0 && errno == ECHILD) break;   // no child left: the tree is empty
        if (round > 2500) { survivors = -1 - survivors; break; }
        if ((reaper_protections & CSPAWN_OWN_PID_NAMESPACE) && !(reaper_protections & CSPAWN_PRIVATE_PROC)) {
            survivors = reaper_kill_namespace();
            break;
        }
        survivors += reaper_kill_children(getpid(), seen, &seen_count, 256);
        reaper_nap(2);
    }
    reaper_report(report, status, survivors);
    _exit(0);
}
