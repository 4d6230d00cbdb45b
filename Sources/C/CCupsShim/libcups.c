// libcups through dlopen: see include/CCupsShim.h for why.
#define _GNU_SOURCE
#include "CCupsShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// One pointer per function, and a compile-time check that the signature written in the list
// is the one libcups's header declares (typeof makes no reference to the symbol itself).
#define SPCUPS_POINTER(ret, name, params, args)                                                   \
    static ret(*p_##name) params;                                                                 \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), ret(*) params), #name " signature");
SPCUPS_FUNCTIONS(SPCUPS_POINTER)

#define SPCUPS_FORWARD(ret, name, params, args) ret spcups_##name params { return p_##name args; }
SPCUPS_FUNCTIONS(SPCUPS_FORWARD)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
    void *library = dlopen("libcups.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load libcups (install libcups2): %s", dlerror());
        return;
    }
#define SPCUPS_FIND(ret, name, params, args)                                                                  \
    if (!(*(void **)&p_##name = dlsym(library, #name))) {                                                    \
        snprintf(load_error, sizeof load_error, "libcups.so.2 lacks %s (CUPS 2.2 or later is needed)", #name); \
        return;                                                                                              \
    }
    SPCUPS_FUNCTIONS(SPCUPS_FIND)
#undef SPCUPS_FIND
    loaded = 1;
}

int spcups_load(const char **error) {
    pthread_once(&load_once, load);
    if (!loaded && error) *error = load_error;
    return loaded ? 0 : -1;
}
