#ifndef REPLAY_CSPAWN_H
#define REPLAY_CSPAWN_H
// The calls Spawn's ChildProcess needs that Swift cannot import: glibc declares pipe2,
// posix_spawn_file_actions_addclosefrom_np and posix_spawn_file_actions_addchdir_np only under
// _GNU_SOURCE, which Swift's Glibc module does not define. The file actions return 0 or an errno
// value, as posix_spawn's own functions do; the pipe returns 0 or -1 with errno set, as pipe2 does.
#include <spawn.h>
#include <sys/types.h>

/// Closes every descriptor from `lowest` up in the child, atomically with the spawn (so one
/// another thread opens meanwhile cannot slip through, as it can when closing a listed range).
int cspawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Changes the child's working directory before it runs the program.
int cspawn_change_directory(posix_spawn_file_actions_t *actions, const char *path);

/// A pipe whose two ends are close-on-exec from the start (pipe2 with O_CLOEXEC), so no child
/// spawned by another thread meanwhile inherits either.
int cspawn_pipe(int ends[2]);

/// Forks a reaper and spawns `path` beneath it: in C because the forked copy of a threaded
/// process may only make async-signal-safe calls, which Swift's runtime does not promise.
///
/// The reaper makes itself a child subreaper (PR_SET_CHILD_SUBREAPER), so every process the
/// program's tree leaves behind (a double fork, a `setsid`, a child its tracer never saw) becomes
/// its child instead of init's; it keeps only descriptors `keep[0..<keep_count]` and `report`,
/// spawns the program with `actions` and `attributes`, and waits for it. On SIGTERM it kills the
/// program's process group and the program. Once the program has ended it kills every process
/// still alive beneath it, reaps them all, writes two ints to `report` (the program's wait
/// status, then how many were still alive, or -1 minus that count when the tree would not empty
/// within 5 s, then the isolation in force as `CSPAWN_*` bits, then the errno of the step of the
/// isolation that failed, or 0) and exits 0 (127 when the program could not be spawned, with its errno as the status). Returns 0
/// with the reaper's pid in `*reaper`, or an errno value.
///
/// `isolate` non-zero puts the tree in a PID and a mount namespace of its own (unshare, which
/// needs CAP_SYS_ADMIN): the reaper forks the namespace's init, which does the reaping above and
/// mounts a /proc of the namespace over /proc, so the tree sees and reaches no process but its
/// own by pid (no /proc/PID of the auditor, of strace's parent, of anyone else's); the reaper
/// passes a SIGTERM on to it and exits with its status. A step that fails is reported, never
/// fatal: the tree then runs with what was set up (`CSPAWN_*` bits in the report).
int cspawn_contained(pid_t *reaper, const char *path, const posix_spawn_file_actions_t *actions,
                     const posix_spawnattr_t *attributes, char *const argv[], char *const envp[],
                     const int *keep, int keep_count, int report, int isolate);

/// The tree runs in a PID namespace of its own.
#define CSPAWN_OWN_PID_NAMESPACE 1
/// The tree's /proc is its namespace's, in a mount namespace of its own.
#define CSPAWN_PRIVATE_PROC 2

#endif
