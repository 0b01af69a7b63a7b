#ifndef REPLAY_CSPAWN_H
#define REPLAY_CSPAWN_H
// The calls Spawn's ChildProcess needs that Swift cannot import: glibc declares pipe2,
// posix_spawn_file_actions_addclosefrom_np and posix_spawn_file_actions_addchdir_np only under
// _GNU_SOURCE, which Swift's Glibc module does not define. The file actions return 0 or an errno
// value, as posix_spawn's own functions do; the pipe returns 0 or -1 with errno set, as pipe2 does.
#include <spawn.h>

/// Closes every descriptor from `lowest` up in the child, atomically with the spawn (so one
/// another thread opens meanwhile cannot slip through, as it can when closing a listed range).
int cspawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Changes the child's working directory before it runs the program.
int cspawn_change_directory(posix_spawn_file_actions_t *actions, const char *path);

/// A pipe whose two ends are close-on-exec from the start (pipe2 with O_CLOEXEC), so no child
/// spawned by another thread meanwhile inherits either.
int cspawn_pipe(int ends[2]);

#endif
