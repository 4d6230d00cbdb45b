// CTIFFShim: reads TIFF files, every page, through libtiff for the image handler.
//
// Why it exists: libtiff's TIFFGetField is variadic and its error handlers take a va_list,
// neither of which Swift can call or write. Names are prefixed sp_tiff_.
#ifndef CTIFFSHIM_H
#define CTIFFSHIM_H

#include <stddef.h>
#include <stdint.h>

typedef struct SPTIFFReader SPTIFFReader;

/// Opens `path`; NULL with a message in `error` on failure.
SPTIFFReader *sp_tiff_open(const char *path, char *error, size_t errorSize);
void sp_tiff_close(SPTIFFReader *reader);
/// The number of pages (image directories).
int sp_tiff_page_count(SPTIFFReader *reader);
/// Page `page`'s size, resolution (pixels per inch, 0 when unknown) and ICC profile (owned by
/// the reader until the next call). Returns 0, or -1 with a message.
int sp_tiff_page_info(SPTIFFReader *reader, int page, uint32_t *width, uint32_t *height, double *ppi,
                      const uint8_t **icc, uint32_t *iccLength, char *error, size_t errorSize);
/// Decodes page `page` as 8-bit RGBA, rows top to bottom, into `rgba` (width × height × 4).
int sp_tiff_read_rgba(SPTIFFReader *reader, int page, uint8_t *rgba, char *error, size_t errorSize);
/// Whether page `page` can be read at the 16 bits it stores (libtiff's RGBA reader gives 8): 16-bit
/// unsigned samples, grey or RGB, with no extra sample or one unassociated alpha, interleaved, in
/// strips, upright. Then 1 with its colour samples (1 or 3) and whether alpha follows; else 0.
int sp_tiff_deep_layout(SPTIFFReader *reader, int page, int *colorChannels, int *alpha);
/// Decodes such a page into `samples` (width × height × (colour samples + alpha) × 2 bytes), 16
/// bits big-endian, rows top to bottom. Returns 0, or -1 with a message.
int sp_tiff_read_deep(SPTIFFReader *reader, int page, uint8_t *samples, char *error, size_t errorSize);

#endif
