// lcms2 through dlopen: see include/CLcmsShim.h for why.
#define _GNU_SOURCE
#include "CLcmsShim.h"

#include "CLibraryLoader.h"
#include <lcms2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPLCMS_FUNCTIONS(X)                                                                                        \
    X(cmsHPROFILE, cmsOpenProfileFromMem, (const void *MemPtr, cmsUInt32Number dwSize))                            \
    X(cmsHPROFILE, cmsCreate_sRGBProfile, (void))                                                                  \
    X(cmsColorSpaceSignature, cmsGetColorSpace, (cmsHPROFILE hProfile))                                            \
    X(cmsHTRANSFORM, cmsCreateTransform,                                                                           \
      (cmsHPROFILE Input, cmsUInt32Number InputFormat, cmsHPROFILE Output, cmsUInt32Number OutputFormat,          \
       cmsUInt32Number Intent, cmsUInt32Number dwFlags))                                                           \
    X(void, cmsDoTransform, (cmsHTRANSFORM Transform, const void *InputBuffer, void *OutputBuffer, cmsUInt32Number Size)) \
    X(void, cmsDeleteTransform, (cmsHTRANSFORM hTransform))                                                        \
    X(cmsBool, cmsCloseProfile, (cmsHPROFILE hProfile))                                                            \
    X(cmsHPROFILE, cmsCreateRGBProfile,                                                                            \
      (const cmsCIExyY *WhitePoint, const cmsCIExyYTRIPLE *Primaries, cmsToneCurve *const TransferFunction[3]))    \
    X(cmsHPROFILE, cmsCreateGrayProfile, (const cmsCIExyY *WhitePoint, const cmsToneCurve *TransferFunction))      \
    X(cmsHPROFILE, cmsCreateLab4Profile, (const cmsCIExyY *WhitePoint))                                            \
    X(cmsToneCurve *, cmsBuildParametricToneCurve, (cmsContext ContextID, cmsInt32Number Type, const cmsFloat64Number Params[])) \
    X(void, cmsFreeToneCurve, (cmsToneCurve * Curve))                                                              \
    X(cmsBool, cmsMD5computeID, (cmsHPROFILE hProfile))                                                            \
    X(cmsBool, cmsSaveProfileToMem, (cmsHPROFILE hProfile, void *MemPtr, cmsUInt32Number *BytesNeeded))           \
    X(cmsFloat64Number, cmsCIE2000DeltaE,                                                                          \
      (const cmsCIELab *Lab1, const cmsCIELab *Lab2, cmsFloat64Number Kl, cmsFloat64Number Kc, cmsFloat64Number Kh))

#define SPLCMS_POINTER(ret, name, params)                                                                          \
    static ret(*p_##name) params;                                                                                  \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), ret(*) params), #name " signature");
SPLCMS_FUNCTIONS(SPLCMS_POINTER)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded;

static void load(void) {
#define SPLCMS_SYMBOL(ret, name, params) {#name, (void **)&p_##name},
    static const sp_symbol symbols[] = {SPLCMS_FUNCTIONS(SPLCMS_SYMBOL)};
#undef SPLCMS_SYMBOL
    loaded = sp_load_library("liblcms2.so.2", "liblcms2-2", NULL, symbols, sizeof symbols / sizeof symbols[0], load_error,
                             sizeof load_error) == 0;
}

int splcms_load(const char **error) {
    pthread_once(&load_once, load);
    if (!loaded && error) *error = load_error;
    return loaded ? 0 : -1;
}

void *splcms_canvas_transform(const void *source, size_t sourceLength, const void *profile, size_t length, splcms_output output, int intent,
                              int blackPoint, char **error) {
    static const cmsUInt32Number formats[] = {TYPE_RGB_8, TYPE_RGB_16, TYPE_CMYK_8, TYPE_CMYK_16};
    cmsHPROFILE target = p_cmsOpenProfileFromMem(profile, (cmsUInt32Number)length);
    if (!target) {
        if (error) *error = strdup("Little CMS cannot read the ICC profile");
        return NULL;
    }
    int cmyk = output == SPLCMS_CMYK_8 || output == SPLCMS_CMYK_16;
    if (p_cmsGetColorSpace(target) != (cmyk ? cmsSigCmykData : cmsSigRgbData)) {
        if (error) *error = strdup(cmyk ? "the ICC profile is not a CMYK profile" : "the ICC profile is not an RGB profile");
        p_cmsCloseProfile(target);
        return NULL;
    }
    cmsHPROFILE canvas = source ? p_cmsOpenProfileFromMem(source, (cmsUInt32Number)sourceLength) : p_cmsCreate_sRGBProfile();
    if (!canvas || p_cmsGetColorSpace(canvas) != cmsSigRgbData) {
        if (error) *error = strdup("the canvas's ICC profile is not an RGB profile");
        if (canvas) p_cmsCloseProfile(canvas);
        p_cmsCloseProfile(target);
        return NULL;
    }
    // cairo's 0x00RRGGBB words: B, G, R and an unused byte in memory on a little-endian machine.
    cmsHTRANSFORM transform = p_cmsCreateTransform(canvas, TYPE_BGRA_8, target, formats[output], (cmsUInt32Number)intent,
                                                   blackPoint ? cmsFLAGS_BLACKPOINTCOMPENSATION : 0);
    p_cmsCloseProfile(canvas);
    p_cmsCloseProfile(target);
    if (!transform && error) *error = strdup("Little CMS cannot make the transform");
    return transform;
}

void splcms_apply(void *transform, const void *input, void *output, unsigned pixels) {
    p_cmsDoTransform(transform, input, output, pixels);
}

void splcms_free(void *transform) { p_cmsDeleteTransform(transform); }

/// lcms2's parametric curve for `curve`: the sRGB and BT.709 curves are both its type 4
/// (a power above a break point, a straight line below), with their standards' constants.
static cmsToneCurve *make_curve(splcms_curve curve, double gamma) {
    switch (curve) {
    case SPLCMS_CURVE_SRGB: {
        const cmsFloat64Number p[] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
        return p_cmsBuildParametricToneCurve(NULL, 4, p);
    }
    case SPLCMS_CURVE_BT709: {
        const cmsFloat64Number p[] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
        return p_cmsBuildParametricToneCurve(NULL, 4, p);
    }
    case SPLCMS_CURVE_LINEAR: {
        const cmsFloat64Number p[] = {1.0};
        return p_cmsBuildParametricToneCurve(NULL, 1, p);
    }
    case SPLCMS_CURVE_GAMMA:
    default: {
        const cmsFloat64Number p[] = {gamma > 0 ? gamma : 2.2};
        return p_cmsBuildParametricToneCurve(NULL, 1, p);
    }
    }
}

static void *save(cmsHPROFILE profile, size_t *length, char **error) {
    cmsUInt32Number size = 0;
    void *bytes = NULL;
    p_cmsMD5computeID(profile);
    if (p_cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (bytes = malloc(size)) &&
        p_cmsSaveProfileToMem(profile, bytes, &size)) {
        *length = size;
    } else {
        free(bytes);
        bytes = NULL;
        if (error) *error = strdup("Little CMS cannot write the ICC profile");
    }
    p_cmsCloseProfile(profile);
    return bytes;
}

void *splcms_rgb_profile(const double white[2], const double primaries[6], splcms_curve curve, double gamma, size_t *length,
                         char **error) {
    cmsCIExyY w = {white[0], white[1], 1.0};
    cmsCIExyYTRIPLE p = {{primaries[0], primaries[1], 1.0}, {primaries[2], primaries[3], 1.0}, {primaries[4], primaries[5], 1.0}};
    cmsToneCurve *c = make_curve(curve, gamma);
    if (!c) {
        if (error) *error = strdup("Little CMS cannot make the tone curve");
        return NULL;
    }
    cmsToneCurve *curves[3] = {c, c, c};
    cmsHPROFILE profile = p_cmsCreateRGBProfile(&w, &p, curves);
    p_cmsFreeToneCurve(c);
    if (!profile) {
        if (error) *error = strdup("Little CMS cannot make an RGB profile of these primaries");
        return NULL;
    }
    return save(profile, length, error);
}

void *splcms_gray_profile(const double white[2], splcms_curve curve, double gamma, size_t *length, char **error) {
    cmsCIExyY w = {white[0], white[1], 1.0};
    cmsToneCurve *c = make_curve(curve, gamma);
    if (!c) {
        if (error) *error = strdup("Little CMS cannot make the tone curve");
        return NULL;
    }
    cmsHPROFILE profile = p_cmsCreateGrayProfile(&w, c);
    p_cmsFreeToneCurve(c);
    if (!profile) {
        if (error) *error = strdup("Little CMS cannot make a grey profile");
        return NULL;
    }
    return save(profile, length, error);
}

int splcms_convert(const void *profile, size_t length, int channels, const unsigned char *pixels, splcms_target to, const void *rgbProfile,
                   size_t rgbLength, void *out, unsigned count, char **error) {
    cmsHPROFILE source = profile ? p_cmsOpenProfileFromMem(profile, (cmsUInt32Number)length) : p_cmsCreate_sRGBProfile();
    if (!source) {
        if (error) *error = strdup("Little CMS cannot read the ICC profile");
        return -1;
    }
    cmsHPROFILE target = to == SPLCMS_TO_LAB ? p_cmsCreateLab4Profile(NULL)
                         : rgbProfile      ? p_cmsOpenProfileFromMem(rgbProfile, (cmsUInt32Number)rgbLength)
                                           : p_cmsCreate_sRGBProfile();
    if (!target) {
        p_cmsCloseProfile(source);
        if (error) *error = strdup("Little CMS cannot read the RGB profile");
        return -1;
    }
    cmsHTRANSFORM t = p_cmsCreateTransform(source, channels == 1 ? TYPE_GRAY_8 : TYPE_RGB_8, target,
                                           to == SPLCMS_TO_LAB ? TYPE_Lab_DBL : TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, 0);
    p_cmsCloseProfile(source);
    p_cmsCloseProfile(target);
    if (!t) {
        if (error) *error = strdup("Little CMS cannot make the transform");
        return -1;
    }
    p_cmsDoTransform(t, pixels, out, count);
    p_cmsDeleteTransform(t);
    return 0;
}

double splcms_delta_e2000(const double a[3], const double b[3]) {
    cmsCIELab x = {a[0], a[1], a[2]}, y = {b[0], b[1], b[2]};
    return p_cmsCIE2000DeltaE(&x, &y, 1, 1, 1);
}
