// A private X server for GTK: WebKitGTK 2.50 is GTK 3, and GTK 3 cannot start without a
// display. Xvfb reports its display number on a pipe (-displayfd) once it accepts clients, so
// there is no sleeping and no race; an authorisation cookie keeps other local users (CUPS jobs
// come from strangers) off it; it dies with its parent (PR_SET_PDEATHSIG) and when its last
// client disconnects (-terminate).
#define _GNU_SOURCE
#include "display.h"
#include "CWebKitShim.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void put16(FILE *f, unsigned n) {
    fputc((n >> 8) & 0xff, f);
    fputc(n & 0xff, f);
}

/// Writes an Xauthority file with one MIT-MAGIC-COOKIE-1 entry for any host and display.
static int write_cookie(const char *path, char *message, size_t size) {
    unsigned char cookie[16];
    if (getrandom(cookie, sizeof cookie, 0) != (ssize_t)sizeof cookie) {
        snprintf(message, size, "cannot make an X authorisation cookie: %s", strerror(errno));
        return -1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    static const char name[] = "MIT-MAGIC-COOKIE-1";
    put16(f, 0xffff);   // FamilyWild: any address
    put16(f, 0);        // address
    put16(f, 0);        // display number: any
    put16(f, sizeof name - 1);
    fwrite(name, 1, sizeof name - 1, f);
    put16(f, sizeof cookie);
    fwrite(cookie, 1, sizeof cookie, f);
    if (fclose(f) != 0) {
        snprintf(message, size, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/// The last line Xvfb wrote to its log, for an error message.
static void last_log_line(const char *logPath, char *out, size_t size) {
    out[0] = 0;
    FILE *f = fopen(logPath, "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        size_t n = strlen(line);
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (n > 0) snprintf(out, size, "%s", line);
    }
    fclose(f);
}

// In the child: Xvfb on a display of its choosing, which it writes (with a newline) to `fd`.
// Never returns.
static void exec_xvfb(pid_t parent, int fd, const char *authority, const char *logPath) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    // The write end goes onto a descriptor of its own, never the read end's number.
    int wfd = fcntl(fd, F_DUPFD, 10);
    if (wfd < 0) _exit(127);
    int log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) dup2(null, 0);
    if (log >= 0) { dup2(log, 1); dup2(log, 2); }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    char fdText[16];
    snprintf(fdText, sizeof fdText, "%d", wfd);
    // No GLX (WebKit draws in software here; loading Mesa took Xvfb 35 ms of its 75) and no
    // core font folders to scan (GTK and WebKit draw text client-side with fontconfig).
    execlp("Xvfb", "Xvfb", "-displayfd", fdText, "-auth", authority, "-nolisten", "tcp",
           "-screen", "0", "1280x1024x24", "-dpi", "96", "-terminate", "-nocursor",
           "-extension", "GLX", "-fp", "built-ins", (char *)NULL);
    dprintf(2, "cannot run Xvfb: %s\n", strerror(errno));
    _exit(127);
}

// The display number Xvfb writes on `fd` when it is ready, waiting up to 20 s; -1 if none came.
static long read_display_number(int fd) {
    char number[32] = {0};
    size_t got = 0;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (got < sizeof number - 1) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed >= 20000) break;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)(20000 - elapsed));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        ssize_t n = read(fd, number + got, sizeof number - 1 - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
        if (memchr(number, '\n', got)) break;
    }
    char *end = NULL;
    long n = strtol(number, &end, 10);
    return got == 0 || end == number || n < 0 ? -1 : n;
}

int spw_display_start(const char *runtimeDir, SPWDisplay *display, char *message, size_t size) {
    memset(display, 0, sizeof *display);
    snprintf(display->authority, sizeof display->authority, "%s/Xauthority", runtimeDir);
    if (write_cookie(display->authority, message, size) != 0) return -1;
    char logPath[4096];
    snprintf(logPath, sizeof logPath, "%s/Xvfb.log", runtimeDir);

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(message, size, "cannot start Xvfb: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(message, size, "cannot start Xvfb: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) exec_xvfb(parent, fds[1], display->authority, logPath);
    close(fds[1]);
    display->pid = pid;
    spw_display_watch_for_cleanup(pid);

    long n = read_display_number(fds[0]);
    close(fds[0]);
    if (n < 0) {
        char line[400];
        last_log_line(logPath, line, sizeof line);
        snprintf(message, size, "cannot start a private X display for WebKit (Xvfb%s%s); install the xvfb package",
                 line[0] ? ": " : " did not report a display", line);
        spw_display_stop(display);
        return -1;
    }
    snprintf(display->name, sizeof display->name, ":%ld", n);
    return 0;
}

void spw_display_stop(SPWDisplay *display) {
    if (display->pid <= 0) return;
    kill(display->pid, SIGTERM);
    for (int i = 0; i < 100; i++) {
        if (waitpid(display->pid, NULL, WNOHANG) != 0) { display->pid = 0; return; }
        usleep(10000);
    }
    kill(display->pid, SIGKILL);
    waitpid(display->pid, NULL, 0);
    display->pid = 0;
}

// MARK: Clean-up on signals

static char *cleanupDirectory;
static pid_t cleanupServer;

void spw_display_cleanup_and_exit(int status) {
    if (cleanupServer > 0) kill(cleanupServer, SIGKILL);
    if (cleanupDirectory) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/rm", "rm", "-rf", "--", cleanupDirectory, (char *)NULL);
            _exit(127);
        }
        if (pid > 0) waitpid(pid, NULL, 0);
    }
    // WebKit's web and network processes (inside bubblewrap) are in this process group: a web
    // process stuck in a page's endless script never notices that its UI process is gone.
    signal(SIGTERM, SIG_IGN);
    if (getpgrp() == getpid()) kill(0, SIGTERM);
    _exit(status);
}

static void remove_and_exit(int signal) { spw_display_cleanup_and_exit(128 + signal); }

void spw_display_describe_loss(char *out, size_t size) {
    if (cleanupServer <= 0) {
        snprintf(out, size, "Xvfb is gone");
        return;
    }
    // The connection closes as Xvfb dies, a moment before the kernel makes it a zombie.
    int status = 0;
    pid_t reaped = 0;
    for (int i = 0; i < 50 && reaped == 0; i++) {
        reaped = waitpid(cleanupServer, &status, WNOHANG);
        if (reaped == 0) usleep(10000);
    }
    if (reaped == cleanupServer && WIFSIGNALED(status)) {
        snprintf(out, size, "Xvfb was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    } else if (reaped == cleanupServer && WIFEXITED(status)) {
        snprintf(out, size, "Xvfb exited with status %d", WEXITSTATUS(status));
    } else if (reaped == 0) {
        snprintf(out, size, "Xvfb is still running, but the connection to it broke");
    } else {
        snprintf(out, size, "Xvfb is gone");
    }
    if (reaped == cleanupServer) cleanupServer = 0;
}

void spw_display_watch_for_cleanup(pid_t server) { cleanupServer = server; }


void spw_remove_on_termination_signals(const char *directory) {
    cleanupDirectory = strdup(directory);
    // A group of its own, so that clean-up can end every process WebKit started.
    setpgid(0, 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_and_exit;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    // A process that starts this one from a thread that blocks signals (Foundation's Process,
    // from a Dispatch thread) passes the mask on: unblocked here, or a SIGTERM never arrives.
    sigset_t termination;
    sigemptyset(&termination);
    sigaddset(&termination, SIGINT);
    sigaddset(&termination, SIGTERM);
    sigaddset(&termination, SIGHUP);
    sigprocmask(SIG_UNBLOCK, &termination, NULL);
}
