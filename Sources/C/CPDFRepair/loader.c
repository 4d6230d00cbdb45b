// Finds the poppler engine's entry points (see include/CPDFRepair.h for why it is loaded late);
// CLibraryLoader opens it.
#include "CPDFRepair.h"

#include "CLibraryLoader.h"
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
    return functions ? functions() : NULL;
}
