import CCairo
import Foundation

/// The ASCII glyphs of a page, with their text, collected so that cairo gets one call per page
/// (or per clipped column) instead of one per line: its per-call cost dominated otherwise.
package struct GlyphRun {
    private var glyphs: [cairo_glyph_t] = []
    private var text: [UInt8] = []
    /// The glyphs that are ellipses (three bytes of text); every other glyph is one byte.
    private var ellipses: [Int] = []

    package init(capacity: Int) {
        glyphs.reserveCapacity(capacity)
        text.reserveCapacity(capacity)
    }

    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, ellipsis: Bool, x: Double, y: Double, fast: FastGlyphs) {
        var pen = x
        fast.index.withUnsafeBufferPointer { index in
            fast.advance.withUnsafeBufferPointer { advance in
                for b in bytes {
                    let i = Int(b) - 0x20
                    glyphs.append(cairo_glyph_t(index: index[i], x: pen, y: y))
                    pen += advance[i]
                }
            }
        }
        text.append(contentsOf: bytes)
        if ellipsis, let e = fast.ellipsis {
            ellipses.append(glyphs.count)
            glyphs.append(cairo_glyph_t(index: e.index, x: pen, y: y))
            text.append(0xE2); text.append(0x80); text.append(0xA6)
        }
    }

    /// Draws what was collected with `fast`'s font and empties the run.
    package mutating func flush(fast: FastGlyphs?, in context: GraphicsContext) {
        guard let fast, !glyphs.isEmpty else { return }
        let cr = context.raw
        // One cluster per glyph, made here in one go rather than one append per glyph.
        var clusters = [cairo_text_cluster_t](repeating: cairo_text_cluster_t(num_bytes: 1, num_glyphs: 1),
                                              count: glyphs.count)
        for i in ellipses { clusters[i].num_bytes = 3 }
        cairo_set_scaled_font(cr, fast.scaledFont)
        text.withUnsafeBufferPointer { t in
            t.withMemoryRebound(to: CChar.self) { chars in
                cairo_show_text_glyphs(cr, chars.baseAddress, Int32(chars.count), glyphs, Int32(glyphs.count),
                                       clusters, Int32(clusters.count), cairo_text_cluster_flags_t(0))
            }
        }
        glyphs.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        ellipses.removeAll()
    }
}
