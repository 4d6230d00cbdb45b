// See include/CLibraryLoader.h.
#define _GNU_SOURCE
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

int sp_load_library(const char *soname, const char *package, const char *requirement, const sp_symbol *symbols, size_t count,
                    char *error, size_t size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(error, size, "cannot load %s (install %s): %s", soname, package, dlerror());
        return -1;
    }
    for (size_t i = 0; i < count; ++i) {
        if (!(*symbols[i].address = dlsym(library, symbols[i].name))) {
            snprintf(error, size, "%s lacks %s%s%s%s", soname, symbols[i].name, requirement ? " (" : "", requirement ? requirement : "",
                     requirement ? ")" : "");
            return -1;
        }
    }
    return 0;
}

void *sp_open_engine(const char *path, const char *entry, char *error, size_t size) {
    void *library = RTLD_DEFAULT;
    if (path && !(library = dlopen(path, RTLD_LAZY | RTLD_LOCAL))) {
        snprintf(error, size, "%s", dlerror());
        return NULL;
    }
    void *found = dlsym(library, entry);
    if (!found) snprintf(error, size, "%s has no %s entry point", path ? "the library" : "the program", entry);
    return found;
}
