// Finds the poppler engine's entry points (see include/CPDFRepair.h for why it is loaded late);
// CLibraryLoader opens it.
#include "CPDFRepair.h"

#include "CLibraryLoader.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The entry point `name` of the engine at `path`, or NULL with *error set.
static void *engine_symbol(const char *path, const char *name, char **error) {
    char message[512];
    void *entry = sp_open_engine(path, name, message, sizeof message);
    if (!entry && error) *error = strdup(message);
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
    const spr_page_renderer *table = functions ? functions() : NULL;
    if (functions && (!table || table->version != SPR_PAGE_RENDERER_VERSION || table->size != sizeof(spr_page_renderer))) {
        // An engine from before the table had a version begins it with a function: refused too.
        char message[160];
        snprintf(message, sizeof message, "the library was built from other sources (this program needs page renderer version %d)",
                 SPR_PAGE_RENDERER_VERSION);
        if (error) *error = strdup(message);
        return NULL;
    }
    return table;
}
