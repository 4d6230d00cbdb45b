// See include/CPNGShim.h for why this exists.
#include "CPNGShim.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct SPPNGReader {
    FILE *file;
    png_structp png;
    png_infop info;
    char message[256];
    uint8_t *icc;
    size_t iccLength;
};

static void on_error(png_structp png, png_const_charp message) {
    SPPNGReader *r = png_get_error_ptr(png);
    snprintf(r->message, sizeof r->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void copy_error(SPPNGReader *r, char *error, size_t size) {
    if (error && size) snprintf(error, size, "%s", r->message[0] ? r->message : "unknown libpng error");
}

SPPNGReader *sp_png_open(const char *path, SPPNGInfo *out, char *error, size_t errorSize) {
    SPPNGReader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->file = fopen(path, "rb");
    if (!r->file) {
        snprintf(r->message, sizeof r->message, "cannot open the file");
        copy_error(r, error, errorSize);
        free(r);
        return NULL;
    }
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, on_error, on_warning);
    r->info = r->png ? png_create_info_struct(r->png) : NULL;
    if (!r->info) {
        snprintf(r->message, sizeof r->message, "out of memory");
        copy_error(r, error, errorSize);
        sp_png_close(r);
        return NULL;
    }
    if (setjmp(png_jmpbuf(r->png))) {
        copy_error(r, error, errorSize);
        sp_png_close(r);
        return NULL;
    }
    png_init_io(r->png, r->file);
    png_read_info(r->png, r->info);
    int colorType = png_get_color_type(r->png, r->info);
    int depth = png_get_bit_depth(r->png, r->info);
    if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
    if (colorType == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
    if (png_get_valid(r->png, r->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(r->png);
    int interlaced = png_get_interlace_type(r->png, r->info) != PNG_INTERLACE_NONE;
    if (interlaced) png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);

    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 profileLength = 0;
    if (png_get_iCCP(r->png, r->info, &name, &compression, &profile, &profileLength) && profileLength > 0) {
        r->icc = malloc(profileLength);
        if (r->icc) { memcpy(r->icc, profile, profileLength); r->iccLength = profileLength; }
    }
    out->width = png_get_image_width(r->png, r->info);
    out->height = png_get_image_height(r->png, r->info);
    out->channels = png_get_channels(r->png, r->info);
    out->bitDepth = png_get_bit_depth(r->png, r->info);
    out->interlaced = interlaced;
    out->icc = r->icc;
    out->iccLength = r->iccLength;
    png_uint_32 x = 0, y = 0;
    int unit = 0;
    if (png_get_pHYs(r->png, r->info, &x, &y, &unit) && unit == PNG_RESOLUTION_METER) {
        out->pixelsPerMetreX = x;
        out->pixelsPerMetreY = y;
    } else {
        out->pixelsPerMetreX = out->pixelsPerMetreY = 0;
    }
    return r;
}

size_t sp_png_row_bytes(SPPNGReader *r) { return png_get_rowbytes(r->png, r->info); }

int sp_png_read_row(SPPNGReader *r, uint8_t *row, char *error, size_t errorSize) {
    if (setjmp(png_jmpbuf(r->png))) { copy_error(r, error, errorSize); return -1; }
    png_read_row(r->png, row, NULL);
    return 0;
}

int sp_png_read_image(SPPNGReader *r, uint8_t *buffer, char *error, size_t errorSize) {
    png_uint_32 height = png_get_image_height(r->png, r->info);
    size_t rowBytes = png_get_rowbytes(r->png, r->info);
    png_bytep *rows = malloc(sizeof(png_bytep) * height);
    if (!rows) { snprintf(error, errorSize, "out of memory"); return -1; }
    for (png_uint_32 i = 0; i < height; i++) rows[i] = buffer + i * rowBytes;
    if (setjmp(png_jmpbuf(r->png))) { free(rows); copy_error(r, error, errorSize); return -1; }
    png_read_image(r->png, rows);
    free(rows);
    return 0;
}

int sp_png_finish(SPPNGReader *r, char *error, size_t errorSize) {
    if (setjmp(png_jmpbuf(r->png))) { copy_error(r, error, errorSize); return -1; }
    png_read_end(r->png, NULL);
    return 0;
}

void sp_png_close(SPPNGReader *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    if (r->file) fclose(r->file);
    free(r->icc);
    free(r);
}
