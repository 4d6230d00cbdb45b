// See include/CAvifShim.h for why this exists.
#include "CAvifShim.h"

#include "CLibraryLoader.h"
#include <avif/avif.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SP_AVIF_FUNCTIONS(X)                                                                                           \
    X(avifDecoderCreate) X(avifDecoderDestroy) X(avifDecoderSetIOMemory) X(avifDecoderParse) X(avifDecoderNextImage)   \
    X(avifResultToString) X(avifRGBImageSetDefaults) X(avifImageYUVToRGB) X(avifColorPrimariesGetValues)

#define SP_AVIF_POINTER(name) static __typeof__(&name) p_##name;
SP_AVIF_FUNCTIONS(SP_AVIF_POINTER)

static int loaded = -1;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
#define SP_AVIF_SYMBOL(name) {#name, (void **)&p_##name},
    static const sp_symbol symbols[] = {SP_AVIF_FUNCTIONS(SP_AVIF_SYMBOL)};
    loaded = sp_load_library("libavif.so.15", "libavif15", NULL, symbols, sizeof symbols / sizeof symbols[0], failure, sizeof failure);
}

int sp_avif_load(char *error, size_t errorSize) {
    pthread_once(&once, load);
    if (loaded == 0) return 0;
    if (error && errorSize) snprintf(error, errorSize, "%s", failure);
    return -1;
}

struct sp_avif_decoder {
    avifDecoder *decoder;
    sp_avif_info info;
    /// 16-bit samples: deeper than 8 bits, or PQ or HLG (whose tone mapping needs the steps).
    int deep;
};

void sp_avif_close(sp_avif_decoder *d) {
    if (!d) return;
    if (d->decoder) p_avifDecoderDestroy(d->decoder);
    free(d);
}

sp_avif_decoder *sp_avif_open(const uint8_t *data, size_t size, int sequence, uint32_t maxPixels, uint32_t maxFrames,
                              sp_avif_info *info, char *error, size_t errorSize) {
    memset(info, 0, sizeof *info);
    sp_avif_decoder *d = calloc(1, sizeof *d);
    if (!d || !(d->decoder = p_avifDecoderCreate())) {
        snprintf(error, errorSize, "out of memory");
        free(d);
        return NULL;
    }
    avifDecoder *decoder = d->decoder;
    decoder->maxThreads = 2;
    // A sequence's track: what an animated AVIF is (its still item, when it has one, is a copy of
    // the first frame); else the primary item.
    decoder->requestedSource = sequence ? AVIF_DECODER_SOURCE_TRACKS : AVIF_DECODER_SOURCE_PRIMARY_ITEM;
    if (maxPixels > 0 && maxPixels < decoder->imageSizeLimit) decoder->imageSizeLimit = maxPixels;
    if (maxFrames > 0) decoder->imageCountLimit = maxFrames;
    avifResult result = p_avifDecoderSetIOMemory(decoder, data, size);
    if (result == AVIF_RESULT_OK) result = p_avifDecoderParse(decoder);
    if (result != AVIF_RESULT_OK) {
        snprintf(error, errorSize, "%s", p_avifResultToString(result));
        sp_avif_close(d);
        return NULL;
    }
    const avifImage *image = decoder->image;
    int turned = (image->transformFlags & AVIF_TRANSFORM_IROT) && (image->irot.angle & 1);
    info->width = turned ? image->height : image->width;
    info->height = turned ? image->width : image->height;
    info->color_channels = image->yuvFormat == AVIF_PIXEL_FORMAT_YUV400 ? 1 : 3;
    info->alpha = decoder->alphaPresent ? 1 : 0;
    info->depth = image->depth;
    info->frames = decoder->imageCount;
    info->transfer = image->transferCharacteristics;
    float values[8];
    p_avifColorPrimariesGetValues(image->colorPrimaries, values);
    for (int i = 0; i < 6; i++) info->primaries[i] = values[i];
    info->white[0] = values[6];
    info->white[1] = values[7];
    d->info = *info;
    d->deep = image->depth > 8 || info->transfer == AVIF_TRANSFER_CHARACTERISTICS_SMPTE2084 || info->transfer == AVIF_TRANSFER_CHARACTERISTICS_HLG;
    return d;
}

/// Turns `pixels` (w × h, `size` bytes a pixel) a quarter turn `angle` times anticlockwise (irot),
/// then exchanges its top and bottom (`mirror` 0) or its left and right (1) (imir); a new buffer,
/// or NULL when out of memory.
static uint8_t *upright(const uint8_t *pixels, uint32_t w, uint32_t h, size_t size, int angle, int mirror) {
    uint32_t ow = (angle & 1) ? h : w, oh = (angle & 1) ? w : h;
    uint8_t *out = malloc((size_t)ow * oh * size);
    if (!out) return NULL;
    for (uint32_t oy = 0; oy < oh; oy++) {
        for (uint32_t ox = 0; ox < ow; ox++) {
            uint32_t x = ox, y = oy;
            if (mirror == 0) y = oh - 1 - oy;
            if (mirror == 1) x = ow - 1 - ox;
            uint32_t sx, sy;
            switch (angle & 3) {
            case 1: sx = w - 1 - y; sy = x; break;
            case 2: sx = w - 1 - x; sy = h - 1 - y; break;
            case 3: sx = y; sy = h - 1 - x; break;
            default: sx = x; sy = y; break;
            }
            memcpy(out + ((size_t)oy * ow + ox) * size, pixels + ((size_t)sy * w + sx) * size, size);
        }
    }
    return out;
}

int sp_avif_next_frame(sp_avif_decoder *d, uint8_t **pixels, size_t *size, int *bits, uint8_t **icc, size_t *iccSize,
                       char *error, size_t errorSize) {
    *pixels = NULL;
    *icc = NULL;
    *size = 0;
    *iccSize = 0;
    avifResult result = p_avifDecoderNextImage(d->decoder);
    if (result == AVIF_RESULT_NO_IMAGES_REMAINING) return 0;
    if (result != AVIF_RESULT_OK) {
        snprintf(error, errorSize, "%s", p_avifResultToString(result));
        return -1;
    }
    const avifImage *image = d->decoder->image;
    int deep = d->deep;
    *bits = deep ? 16 : 8;
    avifRGBImage rgb;
    p_avifRGBImageSetDefaults(&rgb, image);
    rgb.format = d->info.alpha ? AVIF_RGB_FORMAT_RGBA : AVIF_RGB_FORMAT_RGB;
    rgb.depth = deep ? 16 : 8;
    // Into one buffer of ours, the frame's only copy in RGB: rearranged in place below.
    size_t in = d->info.alpha ? 4 : 3, bytes = deep ? 2 : 1, w = image->width, h = image->height;
    rgb.rowBytes = (uint32_t)(w * in * bytes);
    uint8_t *samples = malloc(w * h * in * bytes);
    if (!samples) {
        snprintf(error, errorSize, "out of memory for a %zux%zu frame", w, h);
        return -1;
    }
    rgb.pixels = samples;
    result = p_avifImageYUVToRGB(image, &rgb);
    if (result != AVIF_RESULT_OK) {
        free(samples);
        snprintf(error, errorSize, "%s", p_avifResultToString(result));
        return -1;
    }
    // As wanted: grey keeps one of its equal colour samples (each pixel moves to an address no
    // later than its own); 16 bits big-endian.
    size_t colors = d->info.color_channels, out = colors + (d->info.alpha ? 1 : 0);
    if (colors == 1) {
        for (size_t i = 0; i < w * h; i++) {
            for (size_t c = 0; c < out; c++) {
                const uint8_t *from = samples + (i * in + (c == 0 ? 0 : in - 1)) * bytes;
                uint8_t *to = samples + (i * out + c) * bytes;
                for (size_t b = 0; b < bytes; b++) to[b] = from[b];
            }
        }
    }
    if (deep) {
        for (size_t i = 0; i < w * h * out; i++) {
            uint16_t v;
            memcpy(&v, samples + 2 * i, 2);
            samples[2 * i] = (uint8_t)(v >> 8);
            samples[2 * i + 1] = (uint8_t)(v & 0xFF);
        }
    }
    int angle = (image->transformFlags & AVIF_TRANSFORM_IROT) ? image->irot.angle & 3 : 0;
    int mirror = (image->transformFlags & AVIF_TRANSFORM_IMIR) ? image->imir.mode : -1;
    if (angle != 0 || mirror >= 0) {
        uint8_t *turned = upright(samples, (uint32_t)w, (uint32_t)h, out * bytes, angle, mirror);
        free(samples);
        if (!turned) {
            snprintf(error, errorSize, "out of memory for a %zux%zu frame", w, h);
            return -1;
        }
        samples = turned;
    }
    *pixels = samples;
    *size = w * h * out * bytes;
    if (image->icc.size > 0 && (*icc = malloc(image->icc.size))) {
        memcpy(*icc, image->icc.data, image->icc.size);
        *iccSize = image->icc.size;
    }
    return 1;
}
