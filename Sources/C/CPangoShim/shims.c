#include "CPangoShim.h"

cairo_scaled_font_t *SPPangoFontGetScaledFont(PangoFont *font) {
    if (font == NULL || !PANGO_IS_CAIRO_FONT(font)) return NULL;
    return pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
}

gboolean SPPangoFontMapIsCairo(PangoFontMap *fontMap) {
    return fontMap != NULL && PANGO_IS_CAIRO_FONT_MAP(fontMap);
}
