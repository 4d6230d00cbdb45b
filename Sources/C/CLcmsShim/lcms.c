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
    X(cmsBool, cmsCloseProfile, (cmsHPROFILE hProfile))

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

void *splcms_transform_from_srgb(const void *profile, size_t length, splcms_output output, char **error) {
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
    cmsHPROFILE srgb = p_cmsCreate_sRGBProfile();
    // cairo's 0x00RRGGBB words: B, G, R and an unused byte in memory on a little-endian machine.
    cmsHTRANSFORM transform = p_cmsCreateTransform(srgb, TYPE_BGRA_8, target, formats[output], INTENT_RELATIVE_COLORIMETRIC,
                                                   cmsFLAGS_BLACKPOINTCOMPENSATION);
    p_cmsCloseProfile(srgb);
    p_cmsCloseProfile(target);
    if (!transform && error) *error = strdup("Little CMS cannot make the transform");
    return transform;
}

void splcms_apply(void *transform, const void *input, void *output, unsigned pixels) {
    p_cmsDoTransform(transform, input, output, pixels);
}

void splcms_free(void *transform) { p_cmsDeleteTransform(transform); }
