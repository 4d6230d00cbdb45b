import CCairo
import CPango
import SPShims

/// The fonts of one job: a pango font map set to 72 dpi (pango assumes 96, which would print a
/// 9 pt font at 12 pt on a PDF page) and a context with metric hinting off, so that text is laid
/// out in the same unhinted units the PDF uses. Use it on one thread.
package final class FontSystem {
    package let fontMap: UnsafeMutablePointer<PangoFontMap>
    package let context: OpaquePointer

    package init() {
        fontMap = pango_cairo_font_map_new()
        SPPangoFontMapSetResolution(fontMap, 72)
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(fontMap)
    }

    /// Vertical metrics of the font pango picks first for `font`, in points.
    package func metrics(of font: Font) -> FontMetrics {
        let desc = FontDescription(font.name)
        let m = pango_context_get_metrics(context, desc.pointer, nil)!
        defer { pango_font_metrics_unref(m) }
        let scale = Double(PANGO_SCALE)
        return FontMetrics(ascent: Double(pango_font_metrics_get_ascent(m)) / scale,
                           descent: Double(pango_font_metrics_get_descent(m)) / scale,
                           approximateCharWidth: Double(pango_font_metrics_get_approximate_char_width(m)) / scale,
                           digitWidth: Double(pango_font_metrics_get_approximate_digit_width(m)) / scale)
    }

    /// The first font pango would use for `font`, for drawing glyphs without pango.
    package func loadPrimaryFont(_ font: Font) -> LoadedFont? {
        let desc = FontDescription(font.name)
        guard let f = pango_font_map_load_font(fontMap, context, desc.pointer) else { return nil }
        return LoadedFont(font: f)
    }
}

package struct FontMetrics: Sendable {
    package var ascent: Double
    package var descent: Double
    package var approximateCharWidth: Double
    package var digitWidth: Double
    package var height: Double { ascent + descent }
}

/// Owns one PangoFont and lends its cairo scaled font.
package final class LoadedFont {
    let font: UnsafeMutablePointer<PangoFont>

    init(font: UnsafeMutablePointer<PangoFont>) { self.font = font }

    deinit { g_object_unref(font) }

    /// The cairo font to draw with; it lives as long as this object.
    package var scaledFont: OpaquePointer? { SPPangoFontGetScaledFont(font) }

    /// The glyph index and advance (points) of each scalar in `text`; nil where the font has none.
    package func glyphs(for text: String) -> [(index: UInt, advance: Double)?] {
        guard let scaled = scaledFont else { return text.unicodeScalars.map { _ in nil } }
        return text.unicodeScalars.map { scalar in
            var glyphs: UnsafeMutablePointer<cairo_glyph_t>? = nil
            var count: Int32 = 0
            let utf8 = String(scalar)
            let status = cairo_scaled_font_text_to_glyphs(scaled, 0, 0, utf8, Int32(utf8.utf8.count),
                                                          &glyphs, &count, nil, nil, nil)
            defer { cairo_glyph_free(glyphs) }
            guard status == CAIRO_STATUS_SUCCESS, count == 1, let g = glyphs?.pointee, g.index != 0 else { return nil }
            var extents = cairo_text_extents_t()
            var one = g
            cairo_scaled_font_glyph_extents(scaled, &one, 1, &extents)
            return (g.index, extents.x_advance)
        }
    }
}
