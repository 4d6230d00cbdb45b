// poppler-glib, the PDF renderer raster output and previews draw pages with, opened at run time.
//
// Why: a conversion to PDF never renders a page, and poppler-glib maps poppler's core, its
// font and colour libraries and more (measured in BENCHMARKS.md): only raster jobs and previews
// open libpoppler-glib.so.8. The functions are declared here rather than through poppler's
// headers, which would need glib's and cairo's include paths from pkg-config and link the
// library into every program; these signatures have not changed since poppler 0.x.
#ifndef CPOPPLER_GLIB_SHIM_H
#define CPOPPLER_GLIB_SHIM_H

/// Opens libpoppler-glib once; 0 when every function was found, else -1 and a message in
/// `*error` (static storage; do not free).
int sppoppler_load(const char **error);

/// A PDF opened by poppler (a PopplerDocument), or NULL with poppler's message in `*error`
/// (to free with free()). `uri` is a file: URI.
void *sppoppler_open(const char *uri, char **error);
int sppoppler_page_count(void *document);
/// Page `index`'s size in points (its crop box, turned by /Rotate); 0 when there is no such page.
int sppoppler_page_size(void *document, int index, double *width, double *height);
/// Draws page `index` for printing onto `cairo` (a cairo_t), in its current transformation.
int sppoppler_render(void *document, int index, void *cairo);
/// 1 when page `index` draws an image (poppler's image mapping lists one), else 0.
int sppoppler_page_has_images(void *document, int index);
/// Page `index`'s text as poppler reads it (UTF-8, to free with free()); NULL when there is no
/// such page.
char *sppoppler_page_text(void *document, int index);
/// Page `index`'s text (`*text`) and, for each of its characters in order, its box (`*boxes`:
/// left, top, right, bottom in points from the page's top-left corner, four doubles a
/// character; `*count` characters). Both to free with free().
int sppoppler_page_text_layout(void *document, int index, char **text, double **boxes, unsigned *count);
void sppoppler_close(void *document);

#endif
