// Finds the poppler engine's entry points (see include/CPDFRepair.h for why it is loaded late).
#define _GNU_SOURCE
#include "CPDFRepair.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The entry point `name` of the engine at `path`, or NULL with *error set.
static void *engine_symbol(const char *path, const char *name, char **error) {
    // RTLD_LOCAL: poppler's symbols stay out of the program's namespace. Never closed: poppler
    // keeps global state until exit.
    void *library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        if (error) *error = strdup(dlerror());
        return NULL;
    }
    void *entry = dlsym(library, name);
    if (!entry && error && asprintf(error, "the library has no %s entry point", name) < 0) *error = NULL;
    return entry;
}

__attribute__((visibility("hidden")))
spr_rewrite_fn spr_rewrite_load(const char *path, char **error) {
    return (spr_rewrite_fn)engine_symbol(path, "spr_rewrite", error);
}

__attribute__((visibility("hidden")))
spr_drawn_text_fn spr_drawn_text_load(const char *path, char **error) {
    return (spr_drawn_text_fn)engine_symbol(path, "spr_drawn_text", error);
}

__attribute__((visibility("hidden")))
const spr_page_renderer *spr_page_renderer_load(const char *path, char **error) {
    typedef const spr_page_renderer *(*functions_fn)(void);
    functions_fn functions = (functions_fn)engine_symbol(path, "spr_page_renderer_functions", error);
    return functions ? functions() : NULL;
}
