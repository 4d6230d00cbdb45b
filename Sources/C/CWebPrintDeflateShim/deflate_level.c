// Why this library exists: WebKit's web process prints through Skia, which embeds every font
// whole (Debian's WebKit builds it without a subsetter) and compresses each font and page with
// zlib at its default level. swiftprint then inflates those fonts, subsets them and compresses
// the result again (qpdf), so the web process's compression is work thrown away: for a one-page
// invoice with five faces it is three quarters of the print's time (3.6 MB deflated, then
// inflated). Preloaded into WebKit's processes by swiftprint-markup (LD_PRELOAD, set before
// WebKit starts them), it makes every deflate stream they start store its data uncompressed
// (level 0): still valid zlib streams, and Skia then writes such a stream without a filter.
// What swiftprint writes has the same content; only its stream dictionaries' key order and
// /ID differ from a print made without it.
//
// It defines zlib's two stream initialisers and calls the real ones (the next definition, in
// libz) with level 0.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <zlib.h>

typedef int (*deflate_init2)(z_streamp, int, int, int, int, int, const char *, int);

/// zlib's own deflateInit2_: the next definition after this one, or, when libz was loaded by a
/// plug-in into a scope of its own (which "next" does not search), the one of libz by name.
static deflate_init2 real_deflate_init2(void) {
    static deflate_init2 real;
    if (!real) real = (deflate_init2)dlsym(RTLD_NEXT, "deflateInit2_");
    if (!real) {
        void *zlib = dlopen("libz.so.1", RTLD_LAZY | RTLD_NOLOAD);
        if (zlib) real = (deflate_init2)dlsym(zlib, "deflateInit2_");
    }
    return real;
}

int deflateInit2_(z_streamp stream, int level, int method, int windowBits, int memLevel, int strategy,
                  const char *version, int streamSize) {
    (void)level;
    deflate_init2 real = real_deflate_init2();
    if (!real) return Z_VERSION_ERROR;
    return real(stream, Z_NO_COMPRESSION, method, windowBits, memLevel, strategy, version, streamSize);
}

int deflateInit_(z_streamp stream, int level, const char *version, int streamSize) {
    return deflateInit2_(stream, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, version, streamSize);
}
