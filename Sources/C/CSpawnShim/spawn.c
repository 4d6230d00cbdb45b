// Starting child processes (ChildProcess): two glibc calls declared only under _GNU_SOURCE,
// which Swift's Glibc module is not built with.
#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CSpawnShim.h"

int SPPipeCloseOnExec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int SPSpawnFileActionsAddChdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}
