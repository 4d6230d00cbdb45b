// poppler-glib through dlopen: see include/CPopplerGlibShim.h for why.
#define _GNU_SOURCE
#include "CPopplerGlibShim.h"

#include "CLibraryLoader.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// glib's error record, as glib declares it (GQuark domain; gint code; gchar *message).
typedef struct { unsigned int domain; int code; char *message; } SPGError;

static void *(*p_new_from_file)(const char *uri, const char *password, SPGError **error);
static int (*p_get_n_pages)(void *document);
static void *(*p_get_page)(void *document, int index);
static void (*p_get_size)(void *page, double *width, double *height);
static void (*p_render_for_printing)(void *page, void *cairo);
static void (*p_object_unref)(void *object);
static void (*p_error_free)(SPGError *error);
static void *(*p_get_image_mapping)(void *page);
static void (*p_free_image_mapping)(void *list);
static char *(*p_get_text)(void *page);
// PopplerRectangle, as poppler-glib declares it (x1, y1, x2, y2: doubles).
typedef struct { double x1, y1, x2, y2; } SPRectangle;
static char *(*p_get_text_for_area)(void *page, SPRectangle *area);
static int (*p_get_text_layout_for_area)(void *page, SPRectangle *area, SPRectangle **rectangles, unsigned *count);
static void (*p_free)(void *memory);

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    const sp_symbol symbols[] = {
        {"poppler_document_new_from_file", (void **)&p_new_from_file}, {"poppler_document_get_n_pages", (void **)&p_get_n_pages},
        {"poppler_document_get_page", (void **)&p_get_page}, {"poppler_page_get_size", (void **)&p_get_size},
        {"poppler_page_render_for_printing", (void **)&p_render_for_printing}, {"g_object_unref", (void **)&p_object_unref},
        {"g_error_free", (void **)&p_error_free}, {"poppler_page_get_image_mapping", (void **)&p_get_image_mapping},
        {"poppler_page_free_image_mapping", (void **)&p_free_image_mapping}, {"poppler_page_get_text", (void **)&p_get_text},
        {"poppler_page_get_text_for_area", (void **)&p_get_text_for_area},
        {"poppler_page_get_text_layout_for_area", (void **)&p_get_text_layout_for_area},
        {"g_free", (void **)&p_free},
    };
    loaded = sp_load_library("libpoppler-glib.so.8", "libpoppler-glib8", NULL, symbols, sizeof symbols / sizeof symbols[0], load_error,
                             sizeof load_error) == 0;
}

int sppoppler_load(const char **error) {
    pthread_once(&load_once, load);
    if (!loaded && error) *error = load_error;
    return loaded ? 0 : -1;
}

void *sppoppler_open(const char *uri, char **error) {
    SPGError *gerror = NULL;
    void *document = p_new_from_file(uri, NULL, &gerror);
    if (!document) {
        if (error) *error = strdup(gerror && gerror->message ? gerror->message : "poppler cannot read it");
        if (gerror) p_error_free(gerror);
    }
    return document;
}

int sppoppler_page_count(void *document) { return p_get_n_pages(document); }

int sppoppler_page_size(void *document, int index, double *width, double *height) {
    void *page = p_get_page(document, index);
    if (!page) return 0;
    p_get_size(page, width, height);
    p_object_unref(page);
    return 1;
}

int sppoppler_render(void *document, int index, void *cairo) {
    void *page = p_get_page(document, index);
    if (!page) return 0;
    p_render_for_printing(page, cairo);
    p_object_unref(page);
    return 1;
}

int sppoppler_page_has_images(void *document, int index) {
    void *page = p_get_page(document, index);
    if (!page) return 0;
    // A GList of PopplerImageMapping: NULL when the page draws no image.
    void *images = p_get_image_mapping(page);
    p_free_image_mapping(images);
    p_object_unref(page);
    return images != NULL;
}

char *sppoppler_page_text(void *document, int index) {
    void *page = p_get_page(document, index);
    if (!page) return NULL;
    char *text = p_get_text(page);
    p_object_unref(page);
    if (!text) return NULL;
    char *copy = strdup(text);
    p_free(text);
    return copy;
}

int sppoppler_page_text_layout(void *document, int index, char **text, double **boxes, unsigned *count) {
    *text = NULL; *boxes = NULL; *count = 0;
    void *page = p_get_page(document, index);
    if (!page) return 0;
    // Poppler reads text as a selection from the area's top-left corner to its bottom-right:
    // from the page's own corner, a line that starts a hair above the page's top (a glyph's
    // box may) is sometimes left out, depending on how poppler groups the page's lines. An
    // area larger than the page takes every character poppler keeps (those on the page).
    double width = 0, height = 0;
    p_get_size(page, &width, &height);
    SPRectangle area = {-72, -72, width + 72, height + 72};
    char *t = p_get_text_for_area(page, &area);
    SPRectangle *rects = NULL;
    unsigned n = 0;
    int ok = p_get_text_layout_for_area(page, &area, &rects, &n);
    p_object_unref(page);
    if (t) { *text = strdup(t); p_free(t); }
    if (ok && rects && n > 0) {
        *boxes = malloc(sizeof(double) * 4 * n);
        for (unsigned i = 0; i < n; i++) {
            (*boxes)[4 * i] = rects[i].x1 < rects[i].x2 ? rects[i].x1 : rects[i].x2;
            (*boxes)[4 * i + 1] = rects[i].y1 < rects[i].y2 ? rects[i].y1 : rects[i].y2;
            (*boxes)[4 * i + 2] = rects[i].x1 < rects[i].x2 ? rects[i].x2 : rects[i].x1;
            (*boxes)[4 * i + 3] = rects[i].y1 < rects[i].y2 ? rects[i].y2 : rects[i].y1;
        }
        *count = n;
    }
    if (rects) p_free(rects);
    return 1;
}

void sppoppler_close(void *document) { p_object_unref(document); }
