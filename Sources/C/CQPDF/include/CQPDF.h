// CQPDF: the object-level PDF assembler's engine, libqpdf (C++), as a table of plain C functions.
//
// Why it exists: Swift cannot call C++ libqpdf directly without C++ interop across the whole
// package, and every qpdf call can throw. The engine (Sources/CQPDFShim) catches every exception
// and hands back qpdf's own message in `*error` (malloc'd; the caller frees it), so the Swift side
// sees plain C types only.
//
// Why a table: the engine is built into its own shared library, libSwiftPrintQPDF.so, which is
// opened on the first job that assembles a PDF. Linked into the program, libqpdf and its
// dependencies (gnutls, nettle, gmp, p11-kit, libjpeg …) would be mapped and relocated by every
// run, ~4 ms of start-up that a text job never uses. The engine exports one symbol,
// spq_functions, which returns this table; spq_functions_load finds it.
#ifndef CQPDF_H
#define CQPDF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One PDF document: an input read from a file, or an output being assembled.
typedef struct SPQDocument SPQDocument;

/// Why opening failed.
enum { SPQ_ERROR_OTHER = 0, SPQ_ERROR_PASSWORD = 1, SPQ_ERROR_DAMAGED = 2, SPQ_ERROR_SYSTEM = 3 };

/// A page's boxes in default user space: x0 y0 x1 y1 (normalised), its /Rotate (0, 90, 180,
/// 270) and /UserUnit.
typedef struct {
    double mediaBox[4];
    double cropBox[4];
    int rotate;
    double userUnit;
} SPQPageGeometry;

/// An image's description. colorSpace: 1 gray, 3 RGB, 4 CMYK.
typedef struct {
    int width, height;
    int components;
    int bitsPerComponent;
    /// An ICC profile for the colour space, or NULL.
    const uint8_t *icc;
    size_t iccLength;
    /// 1 for Adobe-style inverted CMYK JPEGs: writes /Decode [1 0 1 0 1 0 1 0].
    int invertCMYK;
    /// 1 when an 8-bit alpha channel follows as a soft mask (image_write_alpha).
    int hasAlpha;
    int alphaBitsPerComponent;
    /// 1 to ask viewers to smooth the image when they enlarge it (/Interpolate): a map's tiles
    /// shown beyond their zoom.
    int interpolate;
    /// zlib's level for the samples, 1 (fastest) to 9 (smallest); 0 for zlib's default (6).
    /// A 300 dpi A4 map is 38 MB of samples: level 3 writes it in 40 % of level 6's time.
    int compressionLevel;
    /// 1: each row of colour samples comes after a PNG filter-type byte (PDF's Flate predictor
    /// 15), which turns rows like the one above into zeros that compress further; 0: plain rows.
    int pngPredictor;
} SPQImageInfo;

/// An image whose pixels are written row by row, compressed (Flate) as they come, so that a
/// large image never sits in memory uncompressed.
typedef struct SPQImageWriter SPQImageWriter;

/// An object (form XObject or image) drawn with the matrix a b c d e f (PDF `cm`), clipped to
/// the quadrilateral `clip` (four x, y corners in page space) when hasClip is 1.
typedef struct {
    int64_t object;
    double matrix[6];
    int hasClip;
    double clip[8];
} SPQPlacement;

/// Receives output bytes; returns 0 on success, non-zero to stop the write.
typedef int (*spq_write_fn)(void *context, const uint8_t *data, size_t length);

/// Supplies a stream's bytes when the document is written, each piece through
/// `write(writeContext, …)` (stop when it returns non-zero); returns 0 when all were given,
/// non-zero when they could not be (the supplier keeps its own reason).
typedef int (*spq_provide_fn)(void *context, spq_write_fn write, void *writeContext);

/// Where an image's compressed samples go as they come: colour and alpha, each a callback
/// (NULL: held in memory).
typedef struct {
    spq_write_fn color;
    void *colorContext;
    spq_write_fn alpha;
    void *alphaContext;
} SPQImageSpools;

/// What gives a spooled image's samples back when the document is written.
typedef struct {
    spq_provide_fn color;
    void *colorContext;
    spq_provide_fn alpha;
    void *alphaContext;
} SPQImageSuppliers;

/// An entry of a document outline: its title (UTF-8), level (1 for the top), page and height.
typedef struct {
    const char *title;
    int level;
    int page;
    double top;
} SPQOutlineItem;

/// Changes whenever the table below changes: a library built from other sources is refused.
#define SPQ_FUNCTIONS_VERSION 11

/// The engine's functions.
typedef struct {
    int version;
    size_t size;

    /// Opens a PDF file. `password` may be NULL. qpdf repairs what it can (a broken
    /// cross-reference table is rebuilt); `*repairs` receives the number of warnings it reported
    /// while doing so. On failure returns NULL with *error set and *errorKind one of SPQ_ERROR_*.
    SPQDocument *(*document_open)(const char *path, const char *password, int *repairs, int *errorKind, char **error);
    /// Starts an empty output document.
    SPQDocument *(*document_create)(char **error);
    void (*document_free)(SPQDocument *doc);

    /// Page count, or -1 with *error set.
    int (*document_page_count)(SPQDocument *doc, char **error);
    /// 1 when the file is encrypted.
    int (*document_is_encrypted)(SPQDocument *doc);
    /// 1 when the document's permissions allow printing (at any resolution), or when it was
    /// opened with its owner password.
    int (*document_allows_printing)(SPQDocument *doc);
    /// The PDF version string of an opened file ("1.7"); static storage of doc.
    const char *(*document_version)(SPQDocument *doc);

    /// Cuts the embedded TrueType fonts of an opened input (Type0 / CIDFontType2, Identity-H,
    /// identity CID-to-GID map) down to the glyphs its content shows, glyph numbers kept.
    /// Fonts used in any way the scan does not follow stay whole. Call it before any page is
    /// copied or placed. Returns how many font programs were cut (their sizes before and after
    /// in *bytesBefore and *bytesAfter), or -1 with *error set. When content could not be
    /// followed it returns 0 with *error saying why (nothing was changed).
    int (*document_subset_fonts)(SPQDocument *doc, int64_t *bytesBefore, int64_t *bytesAfter, char **error);

    /// Page `index`'s geometry. Returns 0, or -1 with *error set.
    int (*page_geometry)(SPQDocument *doc, int index, SPQPageGeometry *out, char **error);
    /// Appends page `index` of `src` to `dst` as it is (annotations and all). `src` must
    /// outlive the write of `dst`: stream data is copied lazily. With `intent` (a rendering
    /// intent's PDF name: Perceptual, RelativeColorimetric, Saturation, AbsoluteColorimetric),
    /// the page's content is preceded by that intent, for all it draws that names none itself.
    int (*copy_page)(SPQDocument *dst, SPQDocument *src, int index, const char *intent, char **error);
    /// Makes page `index` of `src` a form XObject in `dst` (bounding box = the page's crop box,
    /// no rotation applied) and returns its object number, or -1 with *error set.
    int64_t (*form_from_page)(SPQDocument *dst, SPQDocument *src, int index, char **error);

    /// Adds a JPEG byte for byte (DCTDecode), `length` bytes, and returns its object number, or
    /// -1. Its bytes are asked of `provide` only when the document is written (as often as the
    /// writer needs them; a long one straight into the output), so the document never holds
    /// them: `context` must live until `dst` is written, and must give exactly `length` bytes.
    int64_t (*add_jpeg)(SPQDocument *dst, const SPQImageInfo *info, int64_t length, spq_provide_fn provide, void *context, char **error);
    /// With spools, the compressed colour (and alpha) samples go to them as they come
    /// (temporary files, so that a job of many images holds none of them), and image_end's
    /// suppliers give them back when the document is written; without (NULL) they are held in
    /// memory.
    SPQImageWriter *(*image_begin)(SPQDocument *dst, const SPQImageInfo *info, const SPQImageSpools *spools, char **error);
    /// Colour samples, interleaved, rows top to bottom.
    int (*image_write)(SPQImageWriter *w, const uint8_t *data, size_t length, char **error);
    /// Alpha samples (when hasAlpha), rows top to bottom.
    int (*image_write_alpha)(SPQImageWriter *w, const uint8_t *data, size_t length, char **error);
    /// Finishes the image; returns its object number, or -1. Frees `w` either way. A spooled
    /// image's samples are asked of `suppliers` (whose contexts must live until the document
    /// is written) when the document is written.
    int64_t (*image_end)(SPQImageWriter *w, const SPQImageSuppliers *suppliers, char **error);
    /// Drops an unfinished image.
    void (*image_abandon)(SPQImageWriter *w);

    /// Appends a page of width × height points showing `placements` in order (later on top).
    /// `rotate` becomes the page's /Rotate. With `grayscale` 1 a last layer takes the colour out
    /// of everything beneath (a neutral fill in the Saturation blend mode keeps each point's
    /// luminosity). With `intent` (as copy_page's), the placements are drawn in that rendering
    /// intent.
    int (*add_sheet)(SPQDocument *dst, double width, double height, int rotate,
                     const SPQPlacement *placements, int count, int grayscale, const char *intent, char **error);
    /// Sets an entry of the document information dictionary (Title, Creator, CreationDate …)
    /// to a text string (UTF-8 in, PDF text string out).
    int (*set_info)(SPQDocument *dst, const char *key, const char *utf8, char **error);
    /// Writes `dst` through `write`: deterministic /ID (a digest of the content), streams kept as
    /// they are (compressed ones stay compressed), object streams where qpdf would preserve them.
    int (*document_write)(SPQDocument *dst, spq_write_fn write, void *context, char **error);
    /// Makes a form XObject of width × height points whose content is `operators` (PDF content
    /// stream syntax, no resources: lines and fills, such as n-up page borders) and returns its
    /// object number, or -1.
    int64_t (*add_drawing)(SPQDocument *dst, double width, double height, const char *operators, size_t length, char **error);
    /// Gives `dst` a document outline (bookmarks): `items` in order, each nested under the last
    /// one before it of a lower level, open; each goes to its page (from 0) at `top` points from
    /// the page's bottom (the page's top when `top` is negative). Items whose page does not exist
    /// are left out.
    int (*set_outline)(SPQDocument *dst, const SPQOutlineItem *items, int count, char **error);
    /// Adds a link over the box (x1, y1)–(x2, y2) of page `page` (from 0; PDF space): to `uri`
    /// when it is not NULL, else to page `destPage` at `destTop` points from its bottom (its top
    /// when negative).
    int (*add_link)(SPQDocument *dst, int page, double x1, double y1, double x2, double y2, const char *uri,
                    int destPage, double destTop, char **error);
    /// An entry of an opened document's information dictionary (Title …) as UTF-8, malloc'd
    /// (the caller frees it); NULL when the document has none, or it is not a text string.
    char *(*get_info)(SPQDocument *doc, const char *key);
    /// The pixels (width × height) of the largest image page `index` draws through its
    /// resources: its own images and those of the forms and tiling patterns it uses, however
    /// deep (each object once). What rendering the page would decode, known without decoding
    /// any of it. Returns it, or -1 with *error set.
    int64_t (*page_largest_image)(SPQDocument *doc, int index, char **error);
    /// How many of an opened document's pages were found outside its page tree: a damaged file
    /// whose tree is lost has its page dictionaries hung under a new one, in file order. 0 when
    /// its own tree gave the pages.
    int (*document_recovered_pages)(SPQDocument *doc);
} SPQFunctions;

/// Finds the engine's table: in the shared library at `path` (opened once, never closed), or —
/// with `path` NULL — among what the process has already loaded (a program linked with the
/// SwiftPrintQPDF product). Returns NULL with *error set (malloc'd) when there is none or when
/// it was built from other sources.
const SPQFunctions *spq_functions_load(const char *path, char **error);

#ifdef __cplusplus
}
#endif

#endif
