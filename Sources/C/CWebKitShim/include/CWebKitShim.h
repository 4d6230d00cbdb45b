// CWebKitShim: the markup renderer's driver for WebKitGTK, behind a small blocking C interface.
//
// Why it exists: WebKitGTK is asynchronous GObject code — signals connected with
// g_signal_connect (a macro), GAsyncReadyCallback completions, g_object_new with varargs
// properties, a GLib main loop to spin until each step ends. Done in C, each step becomes one
// call that returns when the step has finished, failed or run out of time, and Swift sees
// only plain C types. Names carry the spw_ prefix. One renderer per process, on one thread
// (GTK's): swiftprint-markup owns it through one Swift type.
#ifndef CWEBKITSHIM_H
#define CWEBKITSHIM_H

#include <stddef.h>

typedef struct SPWRenderer SPWRenderer;

/// Why a step failed. The message says more.
typedef enum {
    SPW_OK = 0,
    SPW_TIMEOUT = 1,          ///< the step did not end within its time limit
    SPW_LOAD_FAILED = 2,      ///< the document could not be loaded
    SPW_CRASHED = 3,          ///< WebKit's web process ended
    SPW_SETUP_FAILED = 4,     ///< display, GTK, WebKit or the content filter could not start
    SPW_PRINT_FAILED = 5,     ///< printing to PDF failed
    SPW_SCRIPT_FAILED = 6,    ///< swiftprint's own script in the page failed
} SPWStatus;

/// Starts a private X server (Xvfb, with an authorisation cookie in `runtimeDir`) and GTK on
/// it, and a WebKit context that keeps nothing on disk and runs its web processes sandboxed.
/// `runtimeDir` is a private, empty folder that outlives the renderer. `printPreload`, when not
/// NULL, is a library WebKit's processes preload (LD_PRELOAD), mounted read-only in the web
/// process's sandbox. NULL on failure, with a message to free with spw_free in `error`.
SPWRenderer *spw_renderer_new(const char *runtimeDir, const char *printPreload, char **error);

/// Stops WebKit and the X server.
void spw_renderer_free(SPWRenderer *renderer);

/// Loads `length` bytes of HTML as the document at `baseURI` (a file: URI; relative links
/// resolve against it) into a new view. The page can fetch nothing but `file:` URIs under
/// `allowedFolderURI` (a file: URI ending in "/"; NULL: nothing at all) and data: URIs; page
/// scripts run only when `scripts` is non-zero. Returns when the page and its resources have
/// loaded, or when `timeout` seconds have passed.
SPWStatus spw_renderer_load(SPWRenderer *renderer, const char *bytes, size_t length, const char *baseURI,
                            const char *allowedFolderURI, int scripts, double timeout, char **error);

/// Runs `script` in swiftprint's own script world of the loaded page (page scripts cannot see
/// or change it) and returns its value as JSON in `json` (free with spw_free).
SPWStatus spw_renderer_evaluate(SPWRenderer *renderer, const char *script, double timeout, char **json, char **error);

/// Prints the loaded page to a PDF at `outputPath` on pages of `width` x `height` points, edge
/// to edge, at CSS's true sizes (1 px = 0.75 pt; margins, header and footer are the
/// paginator's).
SPWStatus spw_renderer_print(SPWRenderer *renderer, const char *outputPath, double width, double height,
                             double timeout, char **error);

/// The X display the renderer uses (":N").
const char *spw_renderer_display(const SPWRenderer *renderer);

/// A renderer that serves later runs (a shared one) keeps working when the process that
/// started it ends; otherwise it stops when its parent goes (a cancelled CUPS job).
void spw_renderer_outlive_parent(SPWRenderer *renderer);

/// Handles what GTK and WebKit have pending, without waiting: for a renderer idle between
/// documents.
void spw_renderer_idle(SPWRenderer *renderer);

/// On SIGINT, SIGTERM or SIGHUP: stops the X server, removes `directory` and everything in
/// it (by running rm, which a signal handler may start, where walking a tree is not safe), and
/// exits with 128 + the signal.
void spw_remove_on_termination_signals(const char *directory);

/// At the end: what a termination signal does (above), with exit status `status`.
void spw_exit_cleanly(int status);

/// Frees a string the functions above returned.
void spw_free(void *pointer);

#endif
