// Finds the poppler engine's entry points (see include/CPDFRepair.h for why it is loaded late).
#define _GNU_SOURCE
#include "CPDFRepair.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

__attribute__((visibility("hidden")))
spr_rewrite_fn spr_rewrite_load(const char *path, char **error) {
    // RTLD_LOCAL: poppler's symbols stay out of the program's namespace. Never closed: poppler
    // keeps global state until exit.
    void *library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        if (error) *error = strdup(dlerror());
        return NULL;
    }
    spr_rewrite_fn entry = (spr_rewrite_fn)dlsym(library, "spr_rewrite");
    if (!entry && error) *error = strdup("the library has no spr_rewrite entry point");
    return entry;
}

__attribute__((visibility("hidden")))
spr_drawn_text_fn spr_drawn_text_load(const char *path, char **error) {
    void *library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        if (error) *error = strdup(dlerror());
        return NULL;
    }
    spr_drawn_text_fn entry = (spr_drawn_text_fn)dlsym(library, "spr_drawn_text");
    if (!entry && error) *error = strdup("the library has no spr_drawn_text entry point");
    return entry;
}
