// See include/CTIFFShim.h for why this exists.
#include "CTIFFShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

struct SPTIFFReader {
    TIFF *tiff;
    char message[256];
};

// libtiff reports through process-wide handlers; the reader whose call is running collects the
// message (the image handler uses one thread).
static _Thread_local SPTIFFReader *current;

static void on_error(thandle_t handle, const char *module, const char *format, va_list args) {
    (void)handle; (void)module;
    if (current && !current->message[0]) vsnprintf(current->message, sizeof current->message, format, args);
}

static void on_warning(thandle_t handle, const char *module, const char *format, va_list args) {
    (void)handle; (void)module; (void)format; (void)args;
}

static void fail(SPTIFFReader *r, char *error, size_t size, const char *fallback) {
    if (error && size) snprintf(error, size, "%s", r->message[0] ? r->message : fallback);
}

SPTIFFReader *sp_tiff_open(const char *path, char *error, size_t errorSize) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
    TIFFSetErrorHandlerExt(on_error);
    TIFFSetWarningHandlerExt(on_warning);
    SPTIFFReader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    current = r;
    r->tiff = TIFFOpen(path, "r");
    current = NULL;
    if (!r->tiff) {
        fail(r, error, errorSize, "cannot open the file");
        free(r);
        return NULL;
    }
    return r;
}

void sp_tiff_close(SPTIFFReader *r) {
    if (!r) return;
    if (r->tiff) TIFFClose(r->tiff);
    free(r);
}

int sp_tiff_page_count(SPTIFFReader *r) { return TIFFNumberOfDirectories(r->tiff); }

int sp_tiff_page_info(SPTIFFReader *r, int page, uint32_t *width, uint32_t *height, double *ppi,
                      const uint8_t **icc, uint32_t *iccLength, char *error, size_t errorSize) {
    current = r;
    r->message[0] = 0;
    int ok = TIFFSetDirectory(r->tiff, (tdir_t)page);
    current = NULL;
    if (!ok) { fail(r, error, errorSize, "cannot read the page"); return -1; }
    *width = *height = 0;
    TIFFGetField(r->tiff, TIFFTAG_IMAGEWIDTH, width);
    TIFFGetField(r->tiff, TIFFTAG_IMAGELENGTH, height);
    float x = 0;
    uint16_t unit = RESUNIT_INCH;
    *ppi = 0;
    if (TIFFGetField(r->tiff, TIFFTAG_XRESOLUTION, &x) && x > 0) {
        TIFFGetFieldDefaulted(r->tiff, TIFFTAG_RESOLUTIONUNIT, &unit);
        *ppi = unit == RESUNIT_CENTIMETER ? x * 2.54 : unit == RESUNIT_INCH ? x : 0;
    }
    void *profile = NULL;
    uint32_t length = 0;
    if (TIFFGetField(r->tiff, TIFFTAG_ICCPROFILE, &length, &profile) && profile && length) {
        *icc = profile;
        *iccLength = length;
    } else {
        *icc = NULL;
        *iccLength = 0;
    }
    return 0;
}

int sp_tiff_read_rgba(SPTIFFReader *r, int page, uint8_t *rgba, char *error, size_t errorSize) {
    current = r;
    r->message[0] = 0;
    uint32_t width = 0, height = 0;
    int ok = TIFFSetDirectory(r->tiff, (tdir_t)page);
    if (ok) {
        TIFFGetField(r->tiff, TIFFTAG_IMAGEWIDTH, &width);
        TIFFGetField(r->tiff, TIFFTAG_IMAGELENGTH, &height);
        // Packed ABGR words: on a little-endian machine their bytes are R, G, B, A.
        ok = TIFFReadRGBAImageOriented(r->tiff, width, height, (uint32_t *)rgba, ORIENTATION_TOPLEFT, 0);
    }
    current = NULL;
    if (!ok) { fail(r, error, errorSize, "cannot decode the page"); return -1; }
    return 0;
}

int sp_tiff_deep_layout(SPTIFFReader *r, int page, int *colorChannels, int *alpha) {
    current = r;
    int ok = TIFFSetDirectory(r->tiff, (tdir_t)page);
    current = NULL;
    if (!ok || TIFFIsTiled(r->tiff)) return 0;
    uint16_t bits = 0, format = SAMPLEFORMAT_UINT, samples = 0, planar = PLANARCONFIG_CONTIG, photometric = 0,
             orientation = ORIENTATION_TOPLEFT, extraCount = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_ORIENTATION, &orientation);
    if (!TIFFGetField(r->tiff, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_EXTRASAMPLES, &extraCount, &extra);
    if (bits != 16 || format != SAMPLEFORMAT_UINT || planar != PLANARCONFIG_CONTIG || orientation != ORIENTATION_TOPLEFT) return 0;
    int colors = photometric == PHOTOMETRIC_MINISBLACK ? 1 : photometric == PHOTOMETRIC_RGB ? 3 : 0;
    if (colors == 0 || samples < colors || samples > colors + 1 || extraCount != samples - colors) return 0;
    // Premultiplied (associated) alpha is left to the RGBA reader, which undoes it.
    if (extraCount == 1 && extra[0] != EXTRASAMPLE_UNASSALPHA) return 0;
    *colorChannels = colors;
    *alpha = extraCount == 1;
    return 1;
}

int sp_tiff_read_deep(SPTIFFReader *r, int page, uint8_t *out, char *error, size_t errorSize) {
    current = r;
    r->message[0] = 0;
    int ok = TIFFSetDirectory(r->tiff, (tdir_t)page);
    uint32_t width = 0, height = 0;
    uint16_t samples = 0;
    TIFFGetField(r->tiff, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(r->tiff, TIFFTAG_IMAGELENGTH, &height);
    TIFFGetFieldDefaulted(r->tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    size_t count = (size_t)width * samples;
    tmsize_t line = TIFFScanlineSize(r->tiff);
    uint16_t *row = ok && line >= (tmsize_t)(count * 2) ? _TIFFmalloc(line) : NULL;
    ok = row != NULL;
    // libtiff gives the samples in this machine's order: written out big-endian.
    for (uint32_t y = 0; ok && y < height; y++) {
        ok = TIFFReadScanline(r->tiff, row, y, 0) == 1;
        uint8_t *to = out + (size_t)y * count * 2;
        for (size_t i = 0; ok && i < count; i++) {
            to[2 * i] = (uint8_t)(row[i] >> 8);
            to[2 * i + 1] = (uint8_t)(row[i] & 0xFF);
        }
    }
    if (row) _TIFFfree(row);
    current = NULL;
    if (!ok) { fail(r, error, errorSize, "cannot decode the page"); return -1; }
    return 0;
}
