// CSpawnShim: starting child processes (ChildProcess) needs two glibc calls that glibc declares
// only under _GNU_SOURCE, which Swift's Glibc module is not built with. Each is one call here.
#ifndef CSPAWNSHIM_H
#define CSPAWNSHIM_H

#include <spawn.h>

/// pipe2(fds, O_CLOEXEC): a pipe no other child inherits. 0, or -1 with errno set.
int SPPipeCloseOnExec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np: the child starts in `path`. 0 or an error number.
int SPSpawnFileActionsAddChdir(posix_spawn_file_actions_t *actions, const char *path);

#endif
