// Little CMS (lcms2), opened at run time, for raster output in Adobe RGB and CMYK.
//
// Why: only a raster job in one of those types needs colour management; every other job would
// pay for mapping the library at start. The functions are lcms2's own (the C file checks their
// signatures against lcms2.h) behind three calls: make a transform, apply it, free it.
#ifndef CLCMS_SHIM_H
#define CLCMS_SHIM_H

#include <stddef.h>

/// Opens liblcms2 once; 0 when every function was found, else -1 and a message in `*error`
/// (static storage; do not free).
int splcms_load(const char **error);

/// What a transform writes: 8 or 16 bits (this machine's order) a component, RGB or CMYK.
typedef enum { SPLCMS_RGB_8, SPLCMS_RGB_16, SPLCMS_CMYK_8, SPLCMS_CMYK_16 } splcms_output;

/// A transform from sRGB pixels as cairo stores them (0x00RRGGBB words) to the colour space of
/// the ICC profile in `profile` (relative colorimetric, black point compensation), or NULL with
/// a message in `*error` (to free with free()). The profile's colour space must match `output`.
void *splcms_transform_from_srgb(const void *profile, size_t length, splcms_output output, char **error);
void splcms_apply(void *transform, const void *input, void *output, unsigned pixels);
void splcms_free(void *transform);

#endif
