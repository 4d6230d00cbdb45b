// CPangoShim: the few pango/GObject entry points Swift cannot call directly.
//
// Why this module exists: pango's type-checking casts (PANGO_CAIRO_FONT_MAP(), PANGO_CAIRO_FONT())
// are function-like macros, which Swift does not import. Each shim below is one such call with
// the cast done in C. Names carry the SP prefix so they never clash with the libraries' own.
#ifndef CPANGOSHIM_H
#define CPANGOSHIM_H

#include <pango/pangocairo.h>

/// pango_cairo_font_get_scaled_font() on a generic PangoFont; NULL if the font is not a cairo font.
cairo_scaled_font_t *SPPangoFontGetScaledFont(PangoFont *font);

/// TRUE when the font map can give cairo fonts (it is a PangoCairoFontMap).
gboolean SPPangoFontMapIsCairo(PangoFontMap *fontMap);

// Not a macro but a thread (preload.c): Swift has no lightweight thread of its own to start.

/// Starts fontconfig's initialisation (FcInit) on a background thread, once.
void SPFontconfigPreloadStart(void);

/// Waits for the initialisation SPFontconfigPreloadStart began, if it is still running.
void SPFontconfigPreloadWait(void);

/// fontconfig's initialisation (FcInit) on the calling thread.
void SPFontconfigLoad(void);

#endif
