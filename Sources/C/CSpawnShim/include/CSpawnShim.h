// CSpawnShim: starting child processes (ChildProcess). A bounded child needs resource limits
// and a process group of its own set between fork and exec, which posix_spawn cannot do, and
// two glibc calls that glibc declares only under _GNU_SOURCE, which Swift's Glibc module is not
// built with.
#ifndef CSPAWNSHIM_H
#define CSPAWNSHIM_H

#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC): a pipe no other child inherits. 0, or -1 with errno set.
int SPPipeCloseOnExec(int fds[2]);

/// Asks the kernel to send `signal` to this process when the thread that started it ends
/// (PR_SET_PDEATHSIG), for a process whose work is worth nothing without its starter. 0; -1
/// with errno set when prctl fails; 1 when `parent` had already ended (nobody will send it).
int SPEndWithParent(pid_t parent, int signal);

/// What bounds a child; 0 means no limit.
typedef struct {
    /// RLIMIT_CPU: SIGXCPU after this many seconds of processor time, SIGKILL 2 s later.
    unsigned long long cpuSeconds;
    /// RLIMIT_DATA: its private writable memory (heap and anonymous mappings), not the
    /// address space it reserves.
    unsigned long long dataBytes;
    /// RLIMIT_FSIZE: the largest file it may write.
    unsigned long long fileBytes;
    /// RLIMIT_CORE 0: a crash leaves no core file of a job's contents.
    int noCoreFiles;
    /// A session of its own (a server that outlives its starter), else a process group of its own.
    int newSession;
    /// SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG): a child whose work is
    /// worth nothing without its starter (CUPS's ipp backend below swiftprint's relay, which
    /// cupsd may SIGKILL) must not go on sending a job alone.
    int killedWithStarter;
    /// Descriptors from 3 up to this one (exclusive) stay open in the child as the parent has
    /// them: CUPS gives a backend its back channel as 3 and its side channel as 4, and a
    /// backend that runs another backend must pass them on. 0 or 3: none.
    int keepDescriptorsBelow;
} SPLimits;

/// Starts `path` with `argv` and `envp` (NULL-terminated), the descriptors `in_fd`, `out_fd`
/// and `err_fd` as its 0, 1 and 2 and no other, in `directory` (NULL: the parent's), in a
/// process group (or session) whose id is its pid, with every signal at its default and none
/// blocked, under `limits`. 0 and `*pid`, or the error number of the step that failed (exec's
/// own included).
int SPSpawnBounded(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                   const char *directory, const SPLimits *limits, pid_t *pid);

#endif
