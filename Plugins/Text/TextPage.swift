import CCairo
import Foundation
import HandlerSupport

/// One page of laid-out text, drawn with cairo glyphs (ASCII lines) and pango (the rest, on the
/// character grid or flowing).
final class TextPage: FormattedPage {
    /// A pango paragraph kept alive while any of its lines waits to be drawn.
    final class Paragraph {
        let layout: TextLayout
        init(layout: TextLayout) { self.layout = layout }
    }

    struct Line {
        enum Content {
            case ascii(Range<Int>)            // bytes in the page's store
            case truncatedASCII(Range<Int>)   // the same, followed by "…"
            case pango(Paragraph, Int)        // line i of a paragraph
            case grid(GridTextLine)
        }
        var content: Content
        /// Offset from the text area's left edge (alignment).
        var x: Double
        /// Baseline below the line's top; once placed, below the column's top.
        var baseline: Double
        /// Vertical space the line takes.
        var advance: Double
        /// The line number to print in the gutter, on a paragraph's first line.
        var number: Int?
        var column = 0
    }

    let geometry: TextGeometry
    let fast: FastGlyphs?
    let columnWidth: Double
    let columnGap: Double
    let clips: Bool
    let color: Color
    var lines: [Line] = []
    var store: [UInt8] = []

    init(geometry: TextGeometry, fast: FastGlyphs?, columnWidth: Double, columnGap: Double, clips: Bool, color: Color) {
        self.geometry = geometry; self.fast = fast; self.columnWidth = columnWidth
        self.columnGap = columnGap; self.clips = clips; self.color = color
        store.reserveCapacity(8192)
    }

    func draw(in context: GraphicsContext, rect: CGRect) throws {
        let cr = context.cairo
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        // A page's glyphs are its stored bytes plus line numbers and ellipses: room for them up
        // front, rather than a dozen reallocations and copies as the arrays grow.
        var glyphs = GlyphRun(capacity: store.count + lines.count * 8)
        var clippedColumn = -1
        for line in lines {
            let columnX = rect.minX + Double(line.column) * (columnWidth + columnGap)
            if clips && line.column != clippedColumn {
                glyphs.flush(fast: fast, on: cr)
                if clippedColumn >= 0 { cairo_restore(cr) }
                cairo_save(cr)
                // Cut at the column's sides only: a glyph taller than the line pitch may reach
                // past the text area's top or bottom, as it would between lines.
                cairo_rectangle(cr, columnX, rect.minY - rect.height, columnWidth, 3 * rect.height)
                cairo_clip(cr)
                clippedColumn = line.column
            }
            let baseline = rect.minY + line.baseline
            let textX = columnX + geometry.numberGutter
            if let number = line.number, let fast {
                let digits = Array(String(number).utf8)
                let x = textX - geometry.digitAdvance - Double(digits.count) * geometry.digitAdvance
                digits.withUnsafeBufferPointer { glyphs.append($0, ellipsis: false, x: x, y: baseline, fast: fast) }
            }
            switch line.content {
            case .ascii(let range), .truncatedASCII(let range):
                guard let fast else { continue }
                var truncated = false
                if case .truncatedASCII = line.content { truncated = true }
                store.withUnsafeBufferPointer { all in
                    glyphs.append(UnsafeBufferPointer(rebasing: all[range]), ellipsis: truncated,
                                  x: textX + line.x, y: baseline, fast: fast)
                }
            case .pango(let paragraph, let index):
                drawKeepingOutOfTheGutter(line, textX: textX, rect: rect, on: cr) {
                    paragraph.layout.drawLine(index, baselineOrigin: CGPoint(x: textX + line.x, y: baseline), on: cr)
                }
            case .grid(let gridLine):
                drawKeepingOutOfTheGutter(line, textX: textX, rect: rect, on: cr) {
                    gridLine.draw(baselineOrigin: CGPoint(x: textX + line.x, y: baseline), on: cr)
                }
            }
        }
        glyphs.flush(fast: fast, on: cr)
        if clippedColumn >= 0 { cairo_restore(cr) }
    }

    /// Draws a shaped line; a right-to-left line too long for its column runs out past the
    /// column's left edge: when it is clipped, it is cut there, not at the column's edge, or it
    /// would cover the line numbers.
    private func drawKeepingOutOfTheGutter(_ line: Line, textX: Double, rect: CGRect, on cr: OpaquePointer, draw: () -> Void) {
        guard clips && line.x < 0 && geometry.numberGutter > 0 else { draw(); return }
        cairo_save(cr)
        cairo_rectangle(cr, textX, rect.minY - rect.height, columnWidth - geometry.numberGutter, 3 * rect.height)
        cairo_clip(cr)
        draw()
        cairo_restore(cr)
    }
}

/// The ASCII glyphs of a page, with their text, collected so that cairo gets one call per page
/// (or per clipped column) instead of one per line: its per-call cost dominated otherwise.
struct GlyphRun {
    private var glyphs: [cairo_glyph_t] = []
    private var text: [UInt8] = []
    /// The glyphs that are ellipses (three bytes of text); every other glyph is one byte.
    private var ellipses: [Int] = []

    init(capacity: Int) {
        glyphs.reserveCapacity(capacity)
        text.reserveCapacity(capacity)
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, ellipsis: Bool, x: Double, y: Double, fast: FastGlyphs) {
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
    mutating func flush(fast: FastGlyphs?, on cr: OpaquePointer) {
        guard let fast, !glyphs.isEmpty else { return }
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
