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
        context.saveState()
        defer { context.restoreState() }
        context.useColor(color)
        // A page's glyphs are its stored bytes plus line numbers and ellipses: room for them up
        // front, rather than a dozen reallocations and copies as the arrays grow.
        var glyphs = GlyphRun(capacity: store.count + lines.count * 8)
        var clippedColumn = -1
        for line in lines {
            let columnX = rect.minX + Double(line.column) * (columnWidth + columnGap)
            if clips && line.column != clippedColumn {
                glyphs.flush(fast: fast, in: context)
                if clippedColumn >= 0 { context.restoreState() }
                context.saveState()
                // Cut at the column's sides only: a glyph taller than the line pitch may reach
                // past the text area's top or bottom, as it would between lines.
                context.clip(to: CGRect(x: columnX, y: rect.minY - rect.height, width: columnWidth, height: 3 * rect.height))
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
                drawKeepingOutOfTheGutter(line, textX: textX, rect: rect, in: context) {
                    paragraph.layout.drawLine(index, baselineOrigin: CGPoint(x: textX + line.x, y: baseline), on: cr)
                }
            case .grid(let gridLine):
                drawKeepingOutOfTheGutter(line, textX: textX, rect: rect, in: context) {
                    gridLine.draw(baselineOrigin: CGPoint(x: textX + line.x, y: baseline), on: cr)
                }
            }
        }
        glyphs.flush(fast: fast, in: context)
        if clippedColumn >= 0 { context.restoreState() }
    }

    /// Draws a shaped line; a right-to-left line too long for its column runs out past the
    /// column's left edge: when it is clipped, it is cut there, not at the column's edge, or it
    /// would cover the line numbers.
    private func drawKeepingOutOfTheGutter(_ line: Line, textX: Double, rect: CGRect, in context: GraphicsContext, draw: () -> Void) {
        guard clips && line.x < 0 && geometry.numberGutter > 0 else { draw(); return }
        context.withSavedState {
            context.clip(to: CGRect(x: textX, y: rect.minY - rect.height, width: columnWidth - geometry.numberGutter, height: 3 * rect.height))
            draw()
        }
    }
}
