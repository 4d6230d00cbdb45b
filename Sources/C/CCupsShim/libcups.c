// libcups through dlopen: see include/CCupsShim.h for why.
#define _GNU_SOURCE
#include "CCupsShim.h"

#include "CLibraryLoader.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#define SPCUPS_SYMBOL(ret, name, params, args) {#name, (void **)&p_##name},
    static const sp_symbol symbols[] = {SPCUPS_FUNCTIONS(SPCUPS_SYMBOL)};
#undef SPCUPS_SYMBOL
    loaded = sp_load_library("libcups.so.2", "libcups2", "CUPS 2.2 or later is needed", symbols, sizeof symbols / sizeof symbols[0],
                             load_error, sizeof load_error) == 0;
}

int spcups_load(const char **error) {
    pthread_once(&load_once, load);
    if (!loaded && error) *error = load_error;
    return loaded ? 0 : -1;
}

void spcups_follow_server_setting(void) {
    // What CUPS_SERVER was ("" when unset) when this thread last set libcups's server here.
    static __thread char seen[1024];
    static __thread int has_seen;
    const char *now = getenv("CUPS_SERVER");
    if (!now) now = "";
    if (has_seen && strcmp(seen, now) == 0) return;
    p_cupsSetServer(NULL);
    // A value too long to keep is read again at the next call, which costs one reconnection.
    has_seen = strlen(now) < sizeof seen;
    if (has_seen) strcpy(seen, now);
}
