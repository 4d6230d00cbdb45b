// See include/CJxlShim.h for why this exists.
#include "CJxlShim.h"

#include "CLibraryLoader.h"
#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SP_JXL_FUNCTIONS(X)                                                                                            \
    X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSubscribeEvents) X(JxlDecoderSetParallelRunner)             \
    X(JxlDecoderSetInput) X(JxlDecoderCloseInput) X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo)                \
    X(JxlDecoderGetColorAsEncodedProfile) X(JxlDecoderSetPreferredColorProfile) X(JxlDecoderGetICCProfileSize)       \
    X(JxlDecoderGetColorAsICCProfile) X(JxlDecoderImageOutBufferSize) X(JxlDecoderSetImageOutBuffer)
#define SP_JXL_THREAD_FUNCTIONS(X)                                                                                     \
    X(JxlThreadParallelRunner) X(JxlThreadParallelRunnerCreate) X(JxlThreadParallelRunnerDestroy)                     \
    X(JxlThreadParallelRunnerDefaultNumWorkerThreads)

#define SP_JXL_POINTER(name) static __typeof__(&name) p_##name;
SP_JXL_FUNCTIONS(SP_JXL_POINTER)
SP_JXL_THREAD_FUNCTIONS(SP_JXL_POINTER)

static int loaded = -1;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#define SP_JXL_SYMBOL(name) {#name, (void **)&p_##name},
    static const sp_symbol symbols[] = {SP_JXL_FUNCTIONS(SP_JXL_SYMBOL)};
    static const sp_symbol threads[] = {SP_JXL_THREAD_FUNCTIONS(SP_JXL_SYMBOL)};
    loaded = sp_load_library("libjxl.so.0.7", "libjxl0.7", NULL, symbols, sizeof symbols / sizeof symbols[0], failure,
                             sizeof failure);
    if (loaded == 0)
        loaded = sp_load_library("libjxl_threads.so.0.7", "libjxl0.7", NULL, threads, sizeof threads / sizeof threads[0],
                                 failure, sizeof failure);
}

int sp_jxl_load(char *error, size_t errorSize) {
    pthread_once(&once, load);
    if (loaded == 0) return 0;
    if (error && errorSize) snprintf(error, errorSize, "%s", failure);
    return -1;
}

struct sp_jxl_decoder {
    JxlDecoder *decoder;
    void *runner;
    JxlPixelFormat format;
};

void sp_jxl_close(sp_jxl_decoder *d) {
    if (!d) return;
    if (d->decoder) p_JxlDecoderDestroy(d->decoder);
    if (d->runner) p_JxlThreadParallelRunnerDestroy(d->runner);
    free(d);
}

/// What a status that is not the event asked for means.
static void say(JxlDecoderStatus status, char *error, size_t errorSize) {
    snprintf(error, errorSize, "%s", status == JXL_DEC_NEED_MORE_INPUT ? "the file ends too early" : "libjxl cannot decode it");
}

sp_jxl_decoder *sp_jxl_open(const uint8_t *data, size_t size, sp_jxl_info *info, char *error, size_t errorSize) {
    memset(info, 0, sizeof *info);
    sp_jxl_decoder *d = calloc(1, sizeof *d);
    if (!d || !(d->decoder = p_JxlDecoderCreate(NULL))) {
        snprintf(error, errorSize, "out of memory");
        free(d);
        return NULL;
    }
    d->runner = p_JxlThreadParallelRunnerCreate(NULL, p_JxlThreadParallelRunnerDefaultNumWorkerThreads());
    if (d->runner) p_JxlDecoderSetParallelRunner(d->decoder, p_JxlThreadParallelRunner, d->runner);
    if (p_JxlDecoderSubscribeEvents(d->decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE) != JXL_DEC_SUCCESS ||
        p_JxlDecoderSetInput(d->decoder, data, size) != JXL_DEC_SUCCESS) {
        snprintf(error, errorSize, "libjxl cannot start decoding");
        sp_jxl_close(d);
        return NULL;
    }
    p_JxlDecoderCloseInput(d->decoder);
    JxlBasicInfo basic;
    for (;;) {
        JxlDecoderStatus status = p_JxlDecoderProcessInput(d->decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            if (p_JxlDecoderGetBasicInfo(d->decoder, &basic) != JXL_DEC_SUCCESS) break;
            info->width = basic.xsize;
            info->height = basic.ysize;
            info->color_channels = basic.num_color_channels == 1 ? 1 : 3;
            info->alpha = basic.alpha_bits > 0;
            info->bits_per_sample = basic.bits_per_sample;
            info->animated = basic.have_animation;
            continue;
        }
        if (status != JXL_DEC_COLOR_ENCODING) {
            say(status, error, errorSize);
            sp_jxl_close(d);
            return NULL;
        }
        JxlColorEncoding own;
        int hasOwn = p_JxlDecoderGetColorAsEncodedProfile(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &own) == JXL_DEC_SUCCESS &&
                     (own.color_space == JXL_COLOR_SPACE_RGB || own.color_space == JXL_COLOR_SPACE_GRAY);
        if (!basic.uses_original_profile) {
            // Lossy (XYB): libjxl converts to any colour given as numbers. The file's own when it
            // has them; else wide primaries, so that an Adobe RGB or P3 photo keeps its gamut.
            JxlColorEncoding wanted = own;
            if (!hasOwn) {
                memset(&wanted, 0, sizeof wanted);
                wanted.color_space = info->color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
                wanted.white_point = JXL_WHITE_POINT_D65;
                wanted.primaries = JXL_PRIMARIES_2100;
                wanted.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
                wanted.rendering_intent = JXL_RENDERING_INTENT_RELATIVE;
            }
            p_JxlDecoderSetPreferredColorProfile(d->decoder, &wanted);
        }
        if (hasOwn) {
            info->has_encoding = 1;
            info->transfer = own.transfer_function;
            info->gamma = own.gamma;
            memcpy(info->white, own.white_point_xy, sizeof info->white);
            memcpy(info->primaries, own.primaries_red_xy, 2 * sizeof(double));
            memcpy(info->primaries + 2, own.primaries_green_xy, 2 * sizeof(double));
            memcpy(info->primaries + 4, own.primaries_blue_xy, 2 * sizeof(double));
        }
        int hdr = hasOwn && (own.transfer_function == JXL_TRANSFER_FUNCTION_PQ || own.transfer_function == JXL_TRANSFER_FUNCTION_HLG);
        d->format.num_channels = info->color_channels + (info->alpha ? 1 : 0);
        d->format.data_type = basic.bits_per_sample > 8 || hdr ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8;
        d->format.endianness = JXL_BIG_ENDIAN;
        d->format.align = 0;
        return d;
    }
    snprintf(error, errorSize, "libjxl cannot read its header");
    sp_jxl_close(d);
    return NULL;
}

int sp_jxl_next_frame(sp_jxl_decoder *d, uint8_t **pixels, size_t *size, int *bits, uint8_t **icc, size_t *iccSize, char *error,
                      size_t errorSize) {
    *pixels = NULL;
    *icc = NULL;
    *size = 0;
    *iccSize = 0;
    *bits = d->format.data_type == JXL_TYPE_UINT16 ? 16 : 8;
    for (;;) {
        JxlDecoderStatus status = p_JxlDecoderProcessInput(d->decoder);
        switch (status) {
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER: {
            size_t need = 0;
            if (p_JxlDecoderImageOutBufferSize(d->decoder, &d->format, &need) != JXL_DEC_SUCCESS) goto fail;
            free(*pixels);
            if (!(*pixels = malloc(need))) {
                snprintf(error, errorSize, "out of memory for %zu bytes of pixels", need);
                return -1;
            }
            *size = need;
            if (p_JxlDecoderSetImageOutBuffer(d->decoder, &d->format, *pixels, need) != JXL_DEC_SUCCESS) goto fail;
            continue;
        }
        case JXL_DEC_FULL_IMAGE: {
            size_t length = 0;
            if (p_JxlDecoderGetICCProfileSize(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &length) == JXL_DEC_SUCCESS && length > 0 &&
                (*icc = malloc(length))) {
                if (p_JxlDecoderGetColorAsICCProfile(d->decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, *icc, length) == JXL_DEC_SUCCESS) {
                    *iccSize = length;
                } else {
                    free(*icc);
                    *icc = NULL;
                }
            }
            return 1;
        }
        case JXL_DEC_SUCCESS:
            free(*pixels);
            *pixels = NULL;
            *size = 0;
            return 0;
        default:
            say(status, error, errorSize);
            free(*pixels);
            *pixels = NULL;
            return -1;
        }
    }
fail:
    snprintf(error, errorSize, "libjxl cannot give its pixels");
    free(*pixels);
    *pixels = NULL;
    return -1;
}
