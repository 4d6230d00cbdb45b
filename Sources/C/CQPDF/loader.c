// Finds the assembler engine's function table (see include/CQPDF.h for why it is loaded late).
#define _GNU_SOURCE
#include "CQPDF.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef const SPQFunctions *(*spq_functions_fn)(void);

static void set_error(char **error, const char *message) {
    if (error) *error = strdup(message ? message : "unknown error");
}

// Hidden: the program calls it, but a shared library built with this target (the engine itself)
// must not export it.
__attribute__((visibility("hidden")))
const SPQFunctions *spq_functions_load(const char *path, char **error) {
    void *library = RTLD_DEFAULT;
    if (path) {
        // RTLD_LOCAL: qpdf's and its dependencies' symbols stay out of the program's namespace.
        // RTLD_LAZY: a job calls a small part of libqpdf and of gnutls under it; binding all of
        // their ~2,500 functions at load was ~3 ms of an assembling job.
        // The library is never closed: documents and their C++ runtime state live until exit.
        library = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
        if (!library) {
            set_error(error, dlerror());
            return NULL;
        }
    }
    dlerror();
    spq_functions_fn entry = (spq_functions_fn)dlsym(library, "spq_functions");
    if (!entry) {
        set_error(error, path ? "the library has no spq_functions entry point" : "the engine is not linked into the program");
        return NULL;
    }
    const SPQFunctions *table = entry();
    if (!table || table->version != SPQ_FUNCTIONS_VERSION || table->size != sizeof(SPQFunctions)) {
        char message[160];
        snprintf(message, sizeof message, "the library was built from other sources (table version %d, this program needs %d)",
                 table ? table->version : -1, SPQ_FUNCTIONS_VERSION);
        set_error(error, message);
        return NULL;
    }
    return table;
}
