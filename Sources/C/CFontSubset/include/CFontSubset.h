// CFontSubset: small stand-ins for very large CFF fonts, so that cairo never copies them whole.
//
// Why this module exists: cairo 1.16 embeds a CFF (OpenType/PostScript) font in a PDF by first
// copying the font's whole CFF table onto the heap, and reading it makes the whole table resident
// in the mapped font file too. For Noto Sans CJK that table is 15 MB: one line of Chinese took a
// text job from 33 to 69 MB. Here HarfBuzz cuts such a font down to the glyphs a document can
// use, and FreeType opens the cut from memory for cairo: pango still lays text out with the
// whole font, and each glyph it picks is drawn as the same glyph of the cut, under the number
// the cut gave it. libharfbuzz-subset is opened on first use: most jobs never need it.
// Names carry the SP prefix so they never clash with the libraries' own.
#ifndef CFONTSUBSET_H
#define CFONTSUBSET_H

#include <pango/pangocairo.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// The length in bytes of the font's CFF table; 0 for a TrueType font or when there is none.
size_t SPFontCFFTableLength(PangoFont *font);

/// A cut of one font face: the glyphs for a set of characters, as a cairo font face.
typedef struct SPFontSubset SPFontSubset;

/// Cuts `font`'s face down to the glyphs that the `count` characters in `codepoints` can use
/// (their cmap glyphs and every glyph the font's layout rules reach from them). NULL when the
/// cut cannot be made; then `error` (at least 256 bytes) says why.
SPFontSubset *SPFontSubsetCreate(PangoFont *font, const uint32_t *codepoints, size_t count, char *error);

void SPFontSubsetDestroy(SPFontSubset *subset);

/// Draws one pango run with the cut in place of its font, as pango would draw it (glyphs at the
/// same places, text and clusters kept for extraction), with the run's left end at (x, y) on the
/// baseline. Draws nothing and returns false when the cut lacks one of the run's glyphs or the run
/// has glyphs pango draws specially (unknown characters, empty glyphs).
bool SPFontSubsetShowGlyphItem(SPFontSubset *subset, cairo_t *cr, const char *text,
                               PangoGlyphItem *run, double x, double y);

#endif
