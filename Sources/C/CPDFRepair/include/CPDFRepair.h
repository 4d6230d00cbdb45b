// The C interface of swiftprint's poppler-core engine: damaged-PDF repair, and text in drawing order.
//
// Why it exists: qpdf rebuilds a damaged file's cross-reference table by reading objects at line
// starts and taking the first trailer it meets; poppler also finds objects that follow an
// "endobj" on the same line and takes the last trailer that names a catalog. So a file qpdf
// cannot rebuild into pages is read again by poppler, whose reconstruction is written back object
// by object (as pdfunite writes its output) for qpdf to place as usual: pages are never redrawn.
//
// The same engine reads the text of WebKit's prints in the order it is drawn, for the markup
// page map, and draws raster output's pages that hold images (below).
//
// poppler's core library is large and C++: it lives in libSwiftPrintPDFRepair.so (the
// SwiftPrintPDFRepair product), opened only when a PDF needs repairing, a markup document's
// page map is read or a raster page with images (or in a wide gamut) is drawn, so no other job maps poppler's core
// (those jobs have it mapped already, under poppler-glib).
#ifndef CPDFREPAIR_H
#define CPDFREPAIR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Reads the PDF at `input` with poppler and writes its objects, as poppler reconstructed them,
// to a new file at `output`. Returns 0 with *pages set to the pages poppler found; on failure
// returns -1 with *error set (free it with free()).
typedef int (*spr_rewrite_fn)(const char *input, const char *output, int *pages, char **error);

// Opens the engine at `path` and finds spr_rewrite; NULL with *error set when it cannot.
spr_rewrite_fn spr_rewrite_load(const char *path, char **error);

// The same library reads a PDF's text in the order it is drawn (poppler-glib gives only its
// reading order, which takes a table's columns or a preformatted line apart): every page's
// characters as UTF-8 in *text, four doubles per character in *boxes (left, top, right, bottom,
// in points from the page's top-left corner), and in *pageStarts (*pageCount + 1 entries) the
// index of each page's first character. Returns 0, or -1 with *error set. Free all with free().
typedef int (*spr_drawn_text_fn)(const char *input, char **text, double **boxes, int **pageStarts, int *pageCount, char **error);

// Opens the engine at `path` and finds spr_drawn_text; NULL with *error set when it cannot.
spr_drawn_text_fn spr_drawn_text_load(const char *path, char **error);

// And it draws pages that hold images for raster output, a band at a time, with poppler's
// rasteriser (Splash), which reads each image row by row where poppler-glib decodes it whole.
typedef struct SPRPages SPRPages;
// Changes whenever the table below changes: an engine built from other sources is refused (its
// functions would be called with other arguments than they take).
#define SPR_PAGE_RENDERER_VERSION 2
typedef struct {
    int version;
    size_t size;
    // Opens the PDF at `input`; NULL with *error set. `antialias` 0: edges and glyphs in whole
    // dots (fixed for the document: poppler makes its font engine with it). `scratch`: an open
    // file, empty, that stays the caller's, for each page's photos scaled to their size on it.
    // `canvasProfile` (`canvasProfileLength` bytes; NULL for sRGB): the RGB ICC profile whose
    // colours the pages are drawn in. With one, every colour is managed on its way there:
    // tagged images and colours from their profiles, DeviceRGB as sRGB, DeviceGray as grey of
    // sRGB's curve and DeviceCMYK as poppler's formula makes it sRGB, so that a wide-gamut photo
    // keeps the colours outside sRGB.
    SPRPages *(*open)(const char *input, int antialias, int scratch, const void *canvasProfile, size_t canvasProfileLength, char **error);
    // Before drawing page `page` (from 0) at `dpiX` × `dpiY`, `width` × `height` pixels: reads
    // its large photos once and keeps them scaled in the scratch file, for every band to draw
    // its rows from. Returns 1 when what is left to read in each band is small (so bands can
    // be small), plus 2 when it scaled any image; or -1 with *error set to why the scratch
    // file cannot be written (strerror's words: "No space left on device").
    int (*prepare)(SPRPages *pages, int page, double dpiX, double dpiY, int width, int height, char **error);
    // Draws rows [top, top + rows) of page `page` (from 0), of `width` × `height` pixels at
    // `dpiX` × `dpiY`, on white; mirrored across (each row reversed) and/or along (the page's
    // rows read from its other end) when asked. On success returns 0 with *data pointing at the
    // band's rows, *stride bytes apart, four bytes a pixel (blue, green, red, 255), valid until
    // the next call; else -1 with *error set (free it with free()).
    int (*render)(SPRPages *pages, int page, double dpiX, double dpiY, int width, int height, int top, int rows,
                  int mirrorAcross, int mirrorAlong, const unsigned char **data, long *stride, char **error);
    // The pixels of the largest image page `page` draws (width × height, of an image or of its
    // mask), none decoded; 0 when it draws none.
    double (*largestImage)(SPRPages *pages, int page);
    void (*close)(SPRPages *pages);
} spr_page_renderer;

// Opens the engine at `path` and finds its page renderer; NULL with *error set when it cannot,
// or when the engine's table is not this program's (SPR_PAGE_RENDERER_VERSION).
const spr_page_renderer *spr_page_renderer_load(const char *path, char **error);

#ifdef __cplusplus
}
#endif

#endif
