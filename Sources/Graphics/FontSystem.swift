import CCairo
import Foundation
import CPango
import CPangoShim

/// The fonts of one job: a pango font map and a context at 72 dpi (pango assumes 96, which would
/// print a 9 pt font at 12 pt on a PDF page) with metric hinting off, so that text is laid out in
/// the same unhinted units the PDF uses. Use it on one thread.
///
/// The font map is made on first use: a job that draws no text (a PDF or a photo without header
/// or footer) never loads fontconfig's configuration and caches (~6 ms and ~3 MB).
package final class FontSystem {
    typealias FontMapAndContext = (fontMap: UnsafeMutablePointer<PangoFontMap>, context: OpaquePointer)
    private var made: FontMapAndContext?

    /// Set by a job that knows every character it can draw: very large fonts are then drawn
    /// from cuts holding only the glyphs it needs (see `LargeFontCuts`).
    package var largeFontCuts: LargeFontCuts?

    package init() {}

    /// Whether the font map has been made (for tests of the jobs that must not).
    package var hasMadeFontMap: Bool { made != nil }
    package var fontMap: UnsafeMutablePointer<PangoFontMap> { make().fontMap }
    package var context: OpaquePointer { make().context }

    private func make() -> FontMapAndContext {
        if let made { return made }
        // It may wait for the font map a start-up thread prepares without FontEngineLock (see
        // FontLoading), so it may be called with the lock held.
        SPFontconfigPreloadWait()
        let made = PreparedFontMap.take() ?? Self.newFontMap()
        self.made = made
        return made
    }

    /// A font map and its context, set up for PDF pages.
    fileprivate static func newFontMap() -> FontMapAndContext {
        let fontMap = pango_cairo_font_map_new()!
        let context = pango_font_map_create_context(fontMap)!
        // The resolution goes on the context, not the font map: setting it on the map clears the
        // map's caches, which waits for fontconfig to finish loading its configuration (~6 ms),
        // while pango would otherwise load it on its own thread as we go on.
        pango_cairo_context_set_resolution(context, 72)
        // Glyphs where the font puts them: pango would round every position to a whole device
        // unit, which at 72 dpi is a whole point (a 9 pt monospace cell of 5.42 pt drawn as 5).
        pango_context_set_round_glyph_positions(context, 0)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        return (fontMap, context)
    }

    deinit {
        guard let made else { return }
        FontEngineLock.held {
            g_object_unref(UnsafeMutableRawPointer(made.context))
            g_object_unref(made.fontMap)
        }
    }

    /// Vertical metrics of the font pango picks first for `font`, in points.
    ///
    /// They come from that font alone, as pango's own font metrics do (the same numbers):
    /// pango_context_get_metrics would also shape a sample sentence, which waits for fontconfig
    /// to sort every installed face into a fallback list (~3 ms) for widths nobody here needs.
    package func metrics(of font: Font) -> FontMetrics {
        FontEngineLock.held { measuredMetrics(of: font) }
    }

    private func measuredMetrics(of font: Font) -> FontMetrics {
        if let m = loadPrimaryFont(font)?.metrics { return m }
        let desc = FontDescription(font.name)
        let m = pango_context_get_metrics(context, desc.pointer, nil)!
        defer { pango_font_metrics_unref(m) }
        let scale = Double(PANGO_SCALE)
        return FontMetrics(ascent: Double(pango_font_metrics_get_ascent(m)) / scale,
                           descent: Double(pango_font_metrics_get_descent(m)) / scale)
    }

    /// The width of `text` in `font` as pango lays it out, with fallback fonts where needed.
    package func width(of text: String, font: Font) -> Double {
        FontEngineLock.held {
            let layout = TextLayout(fonts: self)
            layout.setFont(font)
            layout.setText(text)
            return layout.size.width
        }
    }

    /// The first font pango would use for `font`, for drawing glyphs without pango.
    package func loadPrimaryFont(_ font: Font) -> LoadedFont? {
        FontEngineLock.held {
            let desc = FontDescription(font.name)
            guard let f = pango_font_map_load_font(fontMap, context, desc.pointer) else { return nil }
            return LoadedFont(font: f)
        }
    }
}

/// Font loading for programs that know early that they will lay out text: the CLI, at start-up.
///
/// `loadHere` looks fonts up without `FontEngineLock`, because the first job may hold the lock
/// while it waits for the font map being prepared. That is safe at start-up, where it is used:
/// no other font map exists yet, and the job that will use this one waits for it to be ready.
package enum FontLoading {
    /// Starts loading fontconfig's configuration and font list (~6 ms) on another thread, so
    /// that it overlaps with whatever the program does before its first font lookup.
    package static func startInBackground() { SPFontconfigPreloadStart() }

    /// Promises a `loadHere()` soon, from a thread with other start-up work to do first: the
    /// first font map wanted meanwhile waits for it rather than load fontconfig a second time.
    package static func promiseLoad() { PreparedFontMap.begin() }

    /// Loads fontconfig's configuration and font list on the calling thread (what
    /// `startInBackground` does on a thread of its own), then makes the font map the process's
    /// first job will use, with `fonts` already looked up in it (~1.5 ms for the first:
    /// fontconfig matches it against every installed face); keeps a `promiseLoad()`.
    package static func loadHere(preparing fonts: [Font] = []) {
        PreparedFontMap.begin()
        SPFontconfigLoad()
        let made = FontSystem.newFontMap()
        for font in fonts {
            let desc = FontDescription(font.name)
            if let f = pango_font_map_load_font(made.fontMap, made.context, desc.pointer) { g_object_unref(f) }
        }
        PreparedFontMap.publish(made)
    }
}

/// The font map `FontLoading.loadHere(preparing:)` makes on a start-up thread, for the first
/// `FontSystem` of the process to adopt (pango keeps the fonts looked up in it). It passes from
/// one thread to the other once, and only one thread uses it at a time.
private enum PreparedFontMap {
    private enum State { case none, preparing, ready(Made), taken }
    // Safe: handed from the preparing thread to the taking one once, through `condition`.
    private struct Made: @unchecked Sendable {
        let value: FontSystem.FontMapAndContext
    }
    private static let condition = NSCondition()
    // Safe: read and written only with `condition` locked.
    nonisolated(unsafe) private static var state = State.none

    static func begin() {
        condition.withLock { if case .none = state { state = .preparing } }
    }

    static func publish(_ made: FontSystem.FontMapAndContext) {
        let adopted = condition.withLock {
            guard case .preparing = state else { return false }
            state = .ready(Made(value: made))
            condition.broadcast()
            return true
        }
        if !adopted {
            g_object_unref(UnsafeMutableRawPointer(made.context))
            g_object_unref(made.fontMap)
        }
    }

    /// The prepared font map, once; waits while one is being prepared.
    static func take() -> FontSystem.FontMapAndContext? {
        condition.withLock {
            while case .preparing = state { condition.wait() }
            guard case .ready(let made) = state else { return nil }
            state = .taken
            return made.value
        }
    }
}

package struct FontMetrics: Sendable {
    package var ascent: Double
    package var descent: Double
    package var height: Double { ascent + descent }
}

/// Owns one PangoFont and lends its cairo scaled font.
package final class LoadedFont {
    let font: UnsafeMutablePointer<PangoFont>

    init(font: UnsafeMutablePointer<PangoFont>) { self.font = font }

    deinit { FontEngineLock.held { g_object_unref(font) } }

    /// The cairo font to draw with; it lives as long as this object.
    package var scaledFont: OpaquePointer? { SPPangoFontGetScaledFont(font) }

    /// Ascent and descent in points, from the font's HarfBuzz extents as pango computes them.
    var metrics: FontMetrics? {
        guard let hb = pango_font_get_hb_font(font) else { return nil }
        var extents = hb_font_extents_t()
        hb_font_get_extents_for_direction(hb, HB_DIRECTION_LTR, &extents)
        guard extents.ascender != 0 || extents.descender != 0 else { return nil }
        let scale = Double(PANGO_SCALE)
        return FontMetrics(ascent: Double(extents.ascender) / scale, descent: Double(-extents.descender) / scale)
    }

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
