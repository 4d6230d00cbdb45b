// Starting child processes (ChildProcess). posix_spawn cannot set resource limits or a process
// group together with them, so a bounded child is started here with fork and execve, doing only
// async-signal-safe system calls in between (the parent has other threads). pipe2 and
// close_range are declared only under _GNU_SOURCE, which Swift's Glibc module is not built with.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include "CSpawnShim.h"

int SPPipeCloseOnExec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

int SPEndWithParent(pid_t parent, int signal) {
    if (prctl(PR_SET_PDEATHSIG, signal) != 0) return -1;
    return getppid() == parent ? 0 : 1;
}

/// Gives `fd` to the child as `target`, open across exec.
static int give(int fd, int target) {
    if (fd == target) return fcntl(fd, F_SETFD, 0);
    return dup2(fd, target) < 0 ? -1 : 0;
}

static int limit(int resource, unsigned long long soft, unsigned long long hard) {
    struct rlimit r = { .rlim_cur = soft, .rlim_max = hard };
    return setrlimit(resource, &r);
}

/// The child's side, between fork and exec: reports errno on `report` and exits if a step fails.
static void become(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                   const char *directory, const SPLimits *limits, int report, pid_t starter) {
    int step_errno = 0;
    sigset_t none;
    sigemptyset(&none);
    // Signals at their defaults and none blocked: a thread pool's threads block most, and the
    // parent may ignore some (SIGPIPE); exec keeps both.
    for (int s = 1; s < NSIG; s++) {
        if (s == SIGKILL || s == SIGSTOP) continue;
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(s, &dfl, NULL);
    }
    if (sigprocmask(SIG_SETMASK, &none, NULL) != 0) goto failed;
    if ((limits->newSession ? setsid() : setpgid(0, 0)) < 0) goto failed;
    if (limits->killedWithStarter) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) goto failed;
        // The starter may have ended before the line above: then nobody would send the signal.
        if (getppid() != starter) _exit(127);
    }
    if (limits->cpuSeconds > 0 && limit(RLIMIT_CPU, limits->cpuSeconds, limits->cpuSeconds + 2) != 0) goto failed;
    if (limits->dataBytes > 0 && limit(RLIMIT_DATA, limits->dataBytes, limits->dataBytes) != 0) goto failed;
    if (limits->fileBytes > 0 && limit(RLIMIT_FSIZE, limits->fileBytes, limits->fileBytes) != 0) goto failed;
    if (limits->noCoreFiles && limit(RLIMIT_CORE, 0, 0) != 0) goto failed;
    if (give(in_fd, 0) != 0 || give(out_fd, 1) != 0 || give(err_fd, 2) != 0) goto failed;
    if (directory && chdir(directory) != 0) goto failed;
    // No other descriptor of the parent's reaches the child (a CUPS filter's back and side
    // channels, a job's files): only 0, 1, 2, those below keepDescriptorsBelow, and the report
    // pipe until exec closes it.
    int first = limits->keepDescriptorsBelow > 3 ? limits->keepDescriptorsBelow : 3;
    for (int fd = 3; fd < first; fd++)
        if (fd != report && fcntl(fd, F_GETFD) >= 0 && fcntl(fd, F_SETFD, 0) != 0) goto failed;
    if (report > first) close_range(first, report - 1, 0);
    close_range(report + 1 > first ? report + 1 : first, ~0U, 0);
    execve(path, argv, envp);
failed:
    step_errno = errno;
    while (write(report, &step_errno, sizeof step_errno) < 0 && errno == EINTR) {}
    _exit(127);
}

int SPSpawnBounded(const char *path, char *const argv[], char *const envp[], int in_fd, int out_fd, int err_fd,
                   const char *directory, const SPLimits *limits, pid_t *pid) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    pid_t starter = getpid();
    pid_t child = fork();
    if (child < 0) {
        int e = errno;
        close(report[0]); close(report[1]);
        return e;
    }
    if (child == 0) {
        close(report[0]);
        become(path, argv, envp, in_fd, out_fd, err_fd, directory, limits, report[1], starter);
    }
    close(report[1]);
    // Nothing to read once exec has closed the pipe; an errno when a step before it failed.
    int child_errno = 0;
    ssize_t n;
    do { n = read(report[0], &child_errno, sizeof child_errno); } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n == (ssize_t)sizeof child_errno) {
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {}
        return child_errno ? child_errno : ECHILD;
    }
    *pid = child;
    return 0;
}
