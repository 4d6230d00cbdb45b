// The markup renderer's WebKitGTK driver: one context and one offscreen view, each step run to
// its end on GTK's main context (see CWebKitShim.h for why this is C). The view and its web
// process serve document after document while they stay trustworthy: a new one is made after
// any failure and after a document whose own scripts ran (they may still be running).
#define _GNU_SOURCE
#include "CWebKitShim.h"
#include "display.h"
#include "filter.h"

#include <gdk/gdkx.h>
#include <gtk/gtkunixprint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

struct SPWRenderer {
    SPWDisplay display;
    pid_t parent;        // the swiftprint process that started the renderer
    char *runtimeDir;
    char *filePrinter;   // GTK's print-to-file printer (its name is translated, so found by backend)
    gboolean printersListed;
    gboolean awaitingPrinters; // a print step waits for the list
    WebKitWebContext *context;
    WebKitUserContentFilterStore *filters;
    GtkWidget *window;   // offscreen; holds the current view
    WebKitWebView *view;
    gboolean viewReusable; // no failure, no page scripts since the view was made
    unsigned documents;

    // The step under way.
    gboolean done;
    gboolean timedOut;
    SPWStatus status;
    char *message;
    char *json;
    WebKitUserContentFilter *filter;
};

static char *dup_printf(const char *format, ...) G_GNUC_PRINTF(1, 2);
static char *dup_printf(const char *format, ...) {
    va_list args;
    va_start(args, format);
    char *s = NULL;
    if (vasprintf(&s, format, args) < 0) s = NULL;
    va_end(args);
    return s;
}

void spw_free(void *pointer) { free(pointer); }

void spw_exit_cleanly(int status) { spw_display_cleanup_and_exit(status); }

// Xlib calls this when the connection to the display breaks (Xvfb killed, or stopped by the
// out-of-memory killer), and the process must not go on. GDK's own handler says so in three
// lines that blame "the application" and never name Xvfb; this one says what became of Xvfb
// in the one line the job's error quotes, and ends WebKit's processes with this one.
static int on_display_lost(Display *display) {
    char what[200];
    spw_display_describe_loss(what, sizeof what);
    dprintf(2, "swiftprint-markup: lost its X display %s: %s\n", display ? DisplayString(display) : "", what);
    spw_display_cleanup_and_exit(75);
    return 0;
}

// MARK: Running a step

static gboolean on_step_timeout(gpointer data) {
    SPWRenderer *r = data;
    r->timedOut = TRUE;
    return G_SOURCE_REMOVE;
}

static void finish_step(SPWRenderer *r, SPWStatus status, char *message) {
    if (r->done) { free(message); return; }
    r->done = TRUE;
    r->status = status;
    r->message = message;
}

static void begin_step(SPWRenderer *r) {
    r->done = FALSE;
    r->timedOut = FALSE;
    r->status = SPW_OK;
    free(r->message);
    r->message = NULL;
}

/// A job cancelled by CUPS (SIGTERM to the filter) leaves the renderer without a parent: it
/// then stops at once rather than finishing a step nobody waits for.
static gboolean on_parent_check(gpointer data) {
    SPWRenderer *r = data;
    if (r->parent != 0 && getppid() != r->parent) spw_display_cleanup_and_exit(75);
    return G_SOURCE_CONTINUE;
}

/// Spins GTK's main context until the step ends or `timeout` seconds pass.
static SPWStatus run_step(SPWRenderer *r, double timeout, const char *what, char **error) {
    guint timer = g_timeout_add((guint)(timeout * 1000 > 1 ? timeout * 1000 : 1), on_step_timeout, r);
    guint watch = g_timeout_add(250, on_parent_check, r);
    while (!r->done && !r->timedOut) g_main_context_iteration(NULL, TRUE);
    if (!r->timedOut) g_source_remove(timer);
    g_source_remove(watch);
    if (!r->done) {
        if (r->view) webkit_web_view_stop_loading(r->view);
        r->done = TRUE;
        r->status = SPW_TIMEOUT;
        r->message = dup_printf("%s took longer than %g s and was stopped", what, timeout);
    }
    if (r->status != SPW_OK) r->viewReusable = FALSE;
    if (r->status != SPW_OK && error) { *error = r->message; r->message = NULL; }
    return r->status;
}

// MARK: Start and stop

static void on_printers_listed(gpointer data) {
    SPWRenderer *r = data;
    r->printersListed = TRUE;
    if (r->awaitingPrinters) finish_step(r, SPW_OK, NULL);
}

static gboolean find_file_printer(GtkPrinter *printer, gpointer data) {
    SPWRenderer *r = data;
    GtkPrintBackend *backend = gtk_printer_get_backend(printer);
    if (backend && strcmp(G_OBJECT_TYPE_NAME(backend), "GtkPrintBackendFile") == 0) {
        r->filePrinter = strdup(gtk_printer_get_name(printer));
        return TRUE;
    }
    return FALSE;
}

SPWRenderer *spw_renderer_new(const char *runtimeDir, const char *printPreload, char **error) {
    SPWRenderer *r = calloc(1, sizeof *r);
    r->runtimeDir = strdup(runtimeDir);
    r->parent = getppid();
    char message[600];
    if (spw_display_start(runtimeDir, &r->display, message, sizeof message) != 0) {
        *error = strdup(message);
        spw_renderer_free(r);
        return NULL;
    }
    setenv("DISPLAY", r->display.name, 1);
    setenv("XAUTHORITY", r->display.authority, 1);
    if (!gtk_init_check(NULL, NULL)) {
        *error = dup_printf("GTK cannot open the private display %s", r->display.name);
        spw_renderer_free(r);
        return NULL;
    }
    // After gtk_init, which sets GDK's handler: the last one set is the one called.
    XSetIOErrorHandler(on_display_lost);
    // Listed in the background (90 ms here): the first document loads meanwhile.
    gtk_enumerate_printers(find_file_printer, r, on_printers_listed, FALSE);
    // Set before WebKit starts its processes, which inherit it; the web process sees the file
    // in its sandbox wherever it is installed (CWebPrintDeflateShim says why it is there).
    if (printPreload) {
        const char *before = getenv("LD_PRELOAD");
        char *preload = before && *before ? dup_printf("%s:%s", printPreload, before) : strdup(printPreload);
        setenv("LD_PRELOAD", preload, 1);
        free(preload);
    }
    // Nothing kept on disk between documents; web processes in WebKit's bubblewrap sandbox.
    r->context = webkit_web_context_new_ephemeral();
    webkit_web_context_set_sandbox_enabled(r->context, TRUE);
    if (printPreload) webkit_web_context_add_path_to_sandbox(r->context, printPreload, TRUE);
    webkit_web_context_set_cache_model(r->context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
    char *store = dup_printf("%s/content-filters", runtimeDir);
    r->filters = webkit_user_content_filter_store_new(store);
    free(store);
    return r;
}

void spw_renderer_free(SPWRenderer *r) {
    if (!r) return;
    if (r->window) gtk_widget_destroy(r->window);
    if (r->filters) g_object_unref(r->filters);
    if (r->context) g_object_unref(r->context);
    while (g_main_context_pending(NULL)) g_main_context_iteration(NULL, FALSE);
    spw_display_stop(&r->display);
    free(r->filePrinter);
    free(r->runtimeDir);
    free(r->message);
    free(r);
}

const char *spw_renderer_display(const SPWRenderer *r) { return r->display.name; }

void spw_renderer_outlive_parent(SPWRenderer *r) { r->parent = 0; }

void spw_renderer_idle(SPWRenderer *r) {
    (void)r;
    while (g_main_context_pending(NULL)) g_main_context_iteration(NULL, FALSE);
}

// MARK: The content filter

static void on_filter_saved(GObject *source, GAsyncResult *result, gpointer data) {
    SPWRenderer *r = data;
    GError *e = NULL;
    r->filter = webkit_user_content_filter_store_save_finish(WEBKIT_USER_CONTENT_FILTER_STORE(source), result, &e);
    if (!r->filter) {
        // A filter that does not compile would leave the page unrestricted: that is fatal.
        finish_step(r, SPW_SETUP_FAILED, dup_printf("the content filter does not compile: %s", e ? e->message : "?"));
        g_clear_error(&e);
        return;
    }
    finish_step(r, SPW_OK, NULL);
}

// MARK: Loading

static void on_load_changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)view;
    if (event == WEBKIT_LOAD_FINISHED) finish_step(data, SPW_OK, NULL);
}

static gboolean on_load_failed(WebKitWebView *view, WebKitLoadEvent event, gchar *uri, GError *e, gpointer data) {
    (void)view; (void)event;
    finish_step(data, SPW_LOAD_FAILED, dup_printf("WebKit cannot load %s: %s", uri, e ? e->message : "?"));
    return TRUE;
}

static void on_web_process_terminated(WebKitWebView *view, WebKitWebProcessTerminationReason reason, gpointer data) {
    (void)view;
    ((SPWRenderer *)data)->viewReusable = FALSE;
    // WebKit tells a crash from a kill (the out-of-memory killer, an administrator) by
    // neither: both are "crashed".
    const char *why = reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT ? "ran out of memory on this document"
        : "ended while printing this document (it crashed, or was stopped from outside)";
    finish_step(data, SPW_CRASHED, dup_printf("WebKit's web process %s", why));
}

/// Windows the page asks for are refused; so are navigations away from the document.
static gboolean on_decide_policy(WebKitWebView *view, WebKitPolicyDecision *decision, WebKitPolicyDecisionType type,
                                 gpointer data) {
    (void)view; (void)data;
    if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
        webkit_policy_decision_ignore(decision);
        return TRUE;
    }
    return FALSE;
}

static WebKitSettings *document_settings(int scripts) {
    WebKitSettings *s = webkit_settings_new();
    // Scripts swiftprint runs itself (reading @page) need JavaScript on; the page's own
    // scripts, event handlers and javascript: URLs are removed unless asked for.
    webkit_settings_set_enable_javascript(s, TRUE);
    webkit_settings_set_enable_javascript_markup(s, scripts ? TRUE : FALSE);
    webkit_settings_set_javascript_can_open_windows_automatically(s, FALSE);
    webkit_settings_set_allow_file_access_from_file_urls(s, FALSE);
    webkit_settings_set_allow_universal_access_from_file_urls(s, FALSE);
    webkit_settings_set_enable_html5_local_storage(s, FALSE);
    webkit_settings_set_enable_html5_database(s, FALSE);
    webkit_settings_set_enable_page_cache(s, FALSE);
    webkit_settings_set_enable_webaudio(s, FALSE);
    webkit_settings_set_enable_webgl(s, FALSE);
    webkit_settings_set_enable_media(s, FALSE);
    webkit_settings_set_enable_developer_extras(s, FALSE);
    webkit_settings_set_hardware_acceleration_policy(s, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
    webkit_settings_set_print_backgrounds(s, TRUE);
    return s;
}

/// A new offscreen view in the renderer's context, with the style sheet that hands @page to
/// swiftprint.
static void make_view(SPWRenderer *r) {
    WebKitUserContentManager *content = webkit_user_content_manager_new();
    // The page's @page size and margins are the paginator's to apply (swiftprint reads them
    // first); left in, WebKit half-applies them and prints at a scale of its own choosing.
    // WebKit prints a CSS pixel as 0.8 pt (it lays a page out 1.25 times as wide as the paper,
    // "so that thin pages print a little smaller"); CSS says 0.75 pt, hence the zoom. (GTK's
    // print scale will not do: WebKit then breaks pages where it does not print them.)
    WebKitUserStyleSheet *neutral = webkit_user_style_sheet_new(
        "@page { size: auto !important; margin: 0 !important; } html { zoom: 0.9375 !important; }", WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
        WEBKIT_USER_STYLE_LEVEL_USER, NULL, NULL);
    webkit_user_content_manager_add_style_sheet(content, neutral);
    webkit_user_style_sheet_unref(neutral);
    r->view = WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "web-context", r->context,
                                           "user-content-manager", content, NULL));
    g_object_unref(content);
    r->window = gtk_offscreen_window_new();
    gtk_window_set_default_size(GTK_WINDOW(r->window), 1024, 768);
    gtk_container_add(GTK_CONTAINER(r->window), GTK_WIDGET(r->view));
    // The window is not shown: a shown one is drawn while the first page is being made, and
    // WebKit's UI process then waits for the web process's first backing store, which for about
    // one cold start in ten timed out after half a second with both processes waiting. Printing
    // needs no drawing. A page whose own scripts run gets it shown (below): scripts may wait
    // for animation frames, which a hidden page does not get.
    gtk_widget_show(GTK_WIDGET(r->view));
    // The size the shown window gives it (the screen layout the print starts from), unshown.
    GtkAllocation size = {0, 0, 1024, 768};
    gtk_widget_size_allocate(GTK_WIDGET(r->view), &size);
    g_signal_connect(r->view, "load-changed", G_CALLBACK(on_load_changed), r);
    g_signal_connect(r->view, "load-failed", G_CALLBACK(on_load_failed), r);
    g_signal_connect(r->view, "web-process-terminated", G_CALLBACK(on_web_process_terminated), r);
    g_signal_connect(r->view, "decide-policy", G_CALLBACK(on_decide_policy), r);
    r->viewReusable = TRUE;
}

SPWStatus spw_renderer_load(SPWRenderer *r, const char *bytes, size_t length, const char *baseURI,
                            const char *allowedFolderURI, int scripts, double timeout, char **error) {
    if (r->window && !r->viewReusable) {
        gtk_widget_destroy(r->window);
        r->window = NULL;
        r->view = NULL;
    }
    // The filter first: a page must never load without it.
    char *rules = spw_filter_rules(allowedFolderURI);
    GBytes *source = g_bytes_new_take(rules, strlen(rules));
    char *identifier = dup_printf("document-%u", ++r->documents);
    begin_step(r);
    r->filter = NULL;
    webkit_user_content_filter_store_save(r->filters, identifier, source, NULL, on_filter_saved, r);
    g_bytes_unref(source);
    SPWStatus status = run_step(r, timeout, "compiling the content filter", error);
    free(identifier);
    if (status != SPW_OK) {
        if (status == SPW_TIMEOUT) status = SPW_SETUP_FAILED;
        return status;
    }
    if (!r->view) make_view(r);
    // This document's filter replaces the last one's (messages to the web process keep their
    // order, so it is in force before the load below starts).
    WebKitUserContentManager *content = webkit_web_view_get_user_content_manager(r->view);
    webkit_user_content_manager_remove_all_filters(content);
    webkit_user_content_manager_add_filter(content, r->filter);
    webkit_user_content_filter_unref(r->filter);
    r->filter = NULL;
    WebKitSettings *settings = document_settings(scripts);
    webkit_web_view_set_settings(r->view, settings);
    g_object_unref(settings);
    if (scripts) {
        r->viewReusable = FALSE;
        gtk_widget_show_all(r->window);
    }

    begin_step(r);
    GBytes *html = g_bytes_new(bytes, length);
    webkit_web_view_load_bytes(r->view, html, "text/html", NULL, baseURI);
    g_bytes_unref(html);
    return run_step(r, timeout, "loading the document", error);
}

// MARK: Scripts

static void on_evaluated(GObject *source, GAsyncResult *result, gpointer data) {
    SPWRenderer *r = data;
    GError *e = NULL;
    JSCValue *value = webkit_web_view_evaluate_javascript_finish(WEBKIT_WEB_VIEW(source), result, &e);
    if (!value) {
        finish_step(r, SPW_SCRIPT_FAILED, dup_printf("reading the page failed: %s", e ? e->message : "?"));
        g_clear_error(&e);
        return;
    }
    char *json = jsc_value_to_json(value, 0);
    g_object_unref(value);
    free(r->json);
    r->json = json ? strdup(json) : strdup("null");
    g_free(json);
    finish_step(r, SPW_OK, NULL);
}

SPWStatus spw_renderer_evaluate(SPWRenderer *r, const char *script, double timeout, char **json, char **error) {
    if (!r->view) { *error = strdup("no document is loaded"); return SPW_SCRIPT_FAILED; }
    begin_step(r);
    webkit_web_view_evaluate_javascript(r->view, script, -1, "swiftprint", NULL, NULL, on_evaluated, r);
    SPWStatus status = run_step(r, timeout, "reading the page", error);
    if (status == SPW_OK) { *json = r->json; r->json = NULL; }
    return status;
}

// MARK: Printing

static void on_print_finished(WebKitPrintOperation *op, gpointer data) {
    (void)op;
    finish_step(data, SPW_OK, NULL);
}

static void on_print_failed(WebKitPrintOperation *op, GError *e, gpointer data) {
    (void)op;
    finish_step(data, SPW_PRINT_FAILED, dup_printf("WebKit could not print the page: %s", e ? e->message : "?"));
}

SPWStatus spw_renderer_print(SPWRenderer *r, const char *outputPath, double width, double height, double timeout,
                             char **error) {
    if (!r->view) { *error = strdup("no document is loaded"); return SPW_PRINT_FAILED; }
    if (!r->printersListed) {
        r->awaitingPrinters = TRUE;
        begin_step(r);
        run_step(r, timeout, "listing GTK's printers", NULL);
        r->awaitingPrinters = FALSE;
    }
    if (!r->filePrinter) {
        *error = strdup("GTK's print-to-file printer is missing (is GTK_PRINT_BACKENDS set without \"file\"?)");
        return SPW_SETUP_FAILED;
    }
    GtkPrintSettings *settings = gtk_print_settings_new();
    gtk_print_settings_set_printer(settings, r->filePrinter);
    gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_FILE_FORMAT, "pdf");
    char *uri = g_filename_to_uri(outputPath, NULL, NULL);
    gtk_print_settings_set(settings, GTK_PRINT_SETTINGS_OUTPUT_URI, uri);
    g_free(uri);
    GtkPageSetup *setup = gtk_page_setup_new();
    GtkPaperSize *paper = gtk_paper_size_new_custom("swiftprint", "swiftprint", width, height, GTK_UNIT_POINTS);
    gtk_page_setup_set_paper_size(setup, paper);
    gtk_paper_size_free(paper);
    gtk_page_setup_set_orientation(setup, GTK_PAGE_ORIENTATION_PORTRAIT);
    gtk_page_setup_set_top_margin(setup, 0, GTK_UNIT_POINTS);
    gtk_page_setup_set_bottom_margin(setup, 0, GTK_UNIT_POINTS);
    gtk_page_setup_set_left_margin(setup, 0, GTK_UNIT_POINTS);
    gtk_page_setup_set_right_margin(setup, 0, GTK_UNIT_POINTS);

    WebKitPrintOperation *op = webkit_print_operation_new(r->view);
    webkit_print_operation_set_print_settings(op, settings);
    webkit_print_operation_set_page_setup(op, setup);
    g_object_unref(settings);
    g_object_unref(setup);
    g_signal_connect(op, "finished", G_CALLBACK(on_print_finished), r);
    g_signal_connect(op, "failed", G_CALLBACK(on_print_failed), r);
    begin_step(r);
    webkit_print_operation_print(op);
    SPWStatus status = run_step(r, timeout, "printing the document", error);
    g_signal_handlers_disconnect_by_data(op, r);
    g_object_unref(op);
    return status;
}
