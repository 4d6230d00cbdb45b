// Finding a library's functions at run time, for the shims that open a library only when a job
// needs it (libcups, poppler-glib, Little CMS, libcurl, libheif, libharfbuzz-subset) and for
// swiftprint's own engines (the qpdf and poppler engines beside the executables): the one place
// that calls dlopen, for its flags and for what the messages say.
#ifndef CLIBRARY_LOADER_H
#define CLIBRARY_LOADER_H

#include <stddef.h>

/// One function to find: its name in the library, and where its address goes.
typedef struct {
    const char *name;
    void **address;
} sp_symbol;

/// Opens `soname` (RTLD_LOCAL: its symbols stay out of the program's namespace; never closed,
/// as the libraries keep global state) and finds each of `symbols`. 0, or -1 with a message in
/// `error` naming the library and the package that brings it (`package`), or the function it
/// lacks and what version is needed (`requirement`, may be NULL).
int sp_load_library(const char *soname, const char *package, const char *requirement, const sp_symbol *symbols, size_t count,
                    char *error, size_t size);

/// Opens swiftprint's engine library at `path` and finds its entry point `entry`; with `path`
/// NULL, finds `entry` in the program itself (an engine linked in). RTLD_LAZY: a job calls a
/// small part of the library (binding all of libqpdf's and gnutls's functions at load was ~3 ms
/// of a job); RTLD_LOCAL: its symbols stay out of the program's namespace; never closed: the
/// engines keep global state until exit. NULL, with dlopen's message or "no ENTRY entry point"
/// in `error`.
void *sp_open_engine(const char *path, const char *entry, char *error, size_t size);

#endif
