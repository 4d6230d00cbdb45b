// The private X server the renderer runs GTK on (display.c).
#ifndef SPW_DISPLAY_H
#define SPW_DISPLAY_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;
    char name[32];         ///< ":N"
    char authority[4096];  ///< the Xauthority file clients need
} SPWDisplay;

/// Starts Xvfb with a fresh cookie in `runtimeDir`; 0 on success, else -1 and a message.
int spw_display_start(const char *runtimeDir, SPWDisplay *display, char *message, size_t size);

/// Stops the server (SIGTERM, then SIGKILL after a second) and reaps it.
void spw_display_stop(SPWDisplay *display);

/// Lets the signal clean-up (spw_remove_on_termination_signals) kill `server` too.
void spw_display_watch_for_cleanup(pid_t server);

/// What became of the server, in a few words for a message ("Xvfb was killed by signal 9
/// (Killed)"): for a renderer whose connection to the display broke.
void spw_display_describe_loss(char *out, size_t size);

/// Stops the server, removes the folder given to spw_remove_on_termination_signals, ends the
/// rest of the process group (WebKit's processes) and exits with `status`.
void spw_display_cleanup_and_exit(int status);

#endif
