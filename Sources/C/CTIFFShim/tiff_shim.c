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
