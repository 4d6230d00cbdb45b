// Finds the assembler engine's function table (see include/CQPDF.h for why it is loaded late);
// CLibraryLoader opens it.
#include "CQPDF.h"

#include "CLibraryLoader.h"
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
    char message[512];
    spq_functions_fn entry = (spq_functions_fn)sp_open_engine(path, "spq_functions", message, sizeof message);
    if (!entry) {
        set_error(error, path ? message : "the engine is not linked into the program");
        return NULL;
    }
    const SPQFunctions *table = entry();
    if (!table || table->version != SPQ_FUNCTIONS_VERSION || table->size != sizeof(SPQFunctions)) {
        snprintf(message, sizeof message, "the library was built from other sources (table version %d, this program needs %d)",
                 table ? table->version : -1, SPQ_FUNCTIONS_VERSION);
        set_error(error, message);
        return NULL;
    }
    return table;
}
