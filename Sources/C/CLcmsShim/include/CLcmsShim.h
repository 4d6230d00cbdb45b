// Little CMS (lcms2), opened at run time, for raster output in Adobe RGB and CMYK, and for the
// ICC profiles of images that describe their colour by numbers (AVIF's and HEIC's nclx, JPEG
// XL's colour encoding) rather than by a profile.
//
// Why: only those jobs need colour management; every other job would pay for mapping the
// library at start. The functions are lcms2's own (the C file checks their signatures against
// lcms2.h) behind a few calls: transforms, profiles made from numbers, Lab and ΔE2000.
#ifndef CLCMS_SHIM_H
#define CLCMS_SHIM_H

#include <stddef.h>

/// Opens liblcms2 once; 0 when every function was found, else -1 and a message in `*error`
/// (static storage; do not free).
int splcms_load(const char **error);

/// What a transform writes: 8 or 16 bits (this machine's order) a component, RGB or CMYK.
typedef enum { SPLCMS_RGB_8, SPLCMS_RGB_16, SPLCMS_CMYK_8, SPLCMS_CMYK_16 } splcms_output;

/// A transform from a canvas's pixels as cairo stores them (0x00RRGGBB words), in the RGB
/// colours of the ICC profile `source` (`sourceLength` bytes; NULL for sRGB), to the colour
/// space of the ICC profile in `profile`, with ICC rendering intent `intent` (0 perceptual, 1
/// relative colorimetric, 2 saturation, 3 absolute colorimetric) and black point compensation
/// when `blackPoint` is not 0, or NULL with a message in `*error` (to free with free()). The
/// profile's colour space must match `output`.
void *splcms_canvas_transform(const void *source, size_t sourceLength, const void *profile, size_t length, splcms_output output, int intent,
                              int blackPoint, char **error);
void splcms_apply(void *transform, const void *input, void *output, unsigned pixels);
void splcms_free(void *transform);

/// A transfer curve an ICC profile made from numbers may have: the sRGB curve (IEC 61966-2-1),
/// BT.709's (also BT.601's and BT.2020's), a pure power (`gamma`), or linear.
typedef enum { SPLCMS_CURVE_SRGB, SPLCMS_CURVE_BT709, SPLCMS_CURVE_GAMMA, SPLCMS_CURVE_LINEAR } splcms_curve;

/// An RGB ICC profile with the white point `white` and the primaries `primaries` (red, green,
/// blue; CIE xy each) and one curve for all three: malloc'd bytes, `*length` of them, or NULL
/// with a message in `*error` (to free with free()).
void *splcms_rgb_profile(const double white[2], const double primaries[6], splcms_curve curve, double gamma, size_t *length,
                         char **error);
/// A grey ICC profile of white point `white` and curve `curve`, as `splcms_rgb_profile`.
void *splcms_gray_profile(const double white[2], splcms_curve curve, double gamma, size_t *length, char **error);

/// What `splcms_convert` writes: CIE L*a*b* (D50, three doubles a pixel), or 8-bit RGB (three
/// bytes a pixel, as a screen or a raster printer in that RGB shows the colours).
typedef enum { SPLCMS_TO_LAB, SPLCMS_TO_RGB } splcms_target;

/// `count` 8-bit pixels of `channels` (1 or 3) samples in the profile `profile` (NULL: sRGB)
/// converted to `to` in `out`, relative colorimetric; RGB in the RGB profile `rgbProfile`
/// (`rgbLength` bytes; NULL: sRGB). 0, or -1 with a message in `*error` (to free with free()).
int splcms_convert(const void *profile, size_t length, int channels, const unsigned char *pixels, splcms_target to, const void *rgbProfile,
                   size_t rgbLength, void *out, unsigned count, char **error);
/// CIEDE2000 colour difference of two L*a*b* colours.
double splcms_delta_e2000(const double a[3], const double b[3]);

#endif
