// CPNGShim: reads PNG files through libpng for the image handler.
//
// Why it exists: libpng reports errors by longjmp, which Swift cannot take part in. Each
// function here sets the jump point itself and turns an error (a bad CRC, a truncated stream)
// into a return code and a message. Names are prefixed sp_png_.
#ifndef CPNGSHIM_H
#define CPNGSHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct SPPNGReader SPPNGReader;

typedef struct {
    uint32_t width, height;
    /// Samples per pixel after expansion: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
    int channels;
    /// 8 or 16 (smaller depths and palettes are expanded to 8).
    int bitDepth;
    int interlaced;
    /// The embedded ICC profile (iCCP), owned by the reader, or NULL.
    const uint8_t *icc;
    size_t iccLength;
    /// Pixels per metre from pHYs, 0 when unknown.
    uint32_t pixelsPerMetreX, pixelsPerMetreY;
} SPPNGInfo;

/// Opens `path` and reads the header; NULL with a message in `error` on failure.
SPPNGReader *sp_png_open(const char *path, SPPNGInfo *info, char *error, size_t errorSize);
/// Bytes in one row after expansion.
size_t sp_png_row_bytes(SPPNGReader *reader);
/// Reads the next row (non-interlaced images); 0, or -1 with the message in `error`.
int sp_png_read_row(SPPNGReader *reader, uint8_t *row, char *error, size_t errorSize);
/// Reads the whole image into `buffer` (height × row bytes), for interlaced images.
int sp_png_read_image(SPPNGReader *reader, uint8_t *buffer, char *error, size_t errorSize);
/// Reads to the end of the file, checking the CRCs of what follows the pixels.
int sp_png_finish(SPPNGReader *reader, char *error, size_t errorSize);
void sp_png_close(SPPNGReader *reader);

#endif
