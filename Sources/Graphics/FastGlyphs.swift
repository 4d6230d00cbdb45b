import CCairo
import Foundation

/// Glyphs of printable ASCII (0x20…0x7E) in the primary font, looked up once.
///
/// Why: shaping every line with pango costs about four times texttopdf's whole run on a
/// 100,000-line log. Lines that are plain ASCII, in a font that has all of ASCII, need no
/// shaping: their glyphs and advances are fixed, so they are measured here and drawn with
/// cairo_show_text_glyphs, which keeps the text extractable. Every other line goes to pango.
package final class FastGlyphs {
    package let font: LoadedFont
    package let scaledFont: OpaquePointer
    /// Glyph index per byte 0x20…0x7E (index 0 is byte 0x20). Constants, read for every byte
    /// drawn: a `let` is not checked for exclusive access at run time, a `var` would be.
    package let index: [UInt]
    package let advance: [Double]
    package let ellipsis: (index: UInt, advance: Double)?

    /// Whether every printable ASCII glyph advances the same (a monospace font): text in it can
    /// be set on a character grid of that advance.
    package let isUniform: Bool

    /// Nil when the font lacks any printable ASCII character. With `cellWidth`, every glyph
    /// advances exactly one cell (a uniform font's own advance may differ from a cell set by
    /// characters per inch by the rounding of its size).
    package init?(fonts: FontSystem, font: Font, cellWidth: Double? = nil) {
        guard let loaded = fonts.loadPrimaryFont(font), let scaled = loaded.scaledFont else { return nil }
        self.font = loaded
        scaledFont = scaled
        let ascii = String(decoding: (0x20...0x7E).map { UInt8($0) }, as: UTF8.self)
        var index: [UInt] = [], advance: [Double] = []
        for g in loaded.glyphs(for: ascii) {
            guard let g else { return nil }
            index.append(g.index)
            advance.append(g.advance)
        }
        self.index = index
        isUniform = advance.allSatisfy { abs($0 - advance[0]) < 0.001 }
        self.advance = isUniform && cellWidth != nil ? advance.map { _ in cellWidth! } : advance
        ellipsis = loaded.glyphs(for: "…").first ?? nil
    }

    @inline(__always) package func advance(of byte: UInt8) -> Double { advance[Int(byte) - 0x20] }

    /// The width of `bytes`, all printable ASCII.
    package func width(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        var w = 0.0
        for b in bytes { w += advance[Int(b) - 0x20] }
        return w
    }

    /// Where to break an ASCII paragraph into lines no wider than `maxWidth`: the byte ranges of
    /// each line (trailing spaces at a break belong to the line but not to its width) and widths.
    package func breakLines(_ bytes: UnsafeBufferPointer<UInt8>, maxWidth: Double, wordWrap: Bool,
                    into lines: inout [(range: Range<Int>, width: Double)]) {
        lines.removeAll(keepingCapacity: true)
        let n = bytes.count
        guard n > 0 else { lines.append((0..<0, 0)); return }
        var start = 0
        while start < n {
            var w = 0.0, i = start
            var lastBreak = -1, widthAtBreak = 0.0   // break after a run of spaces ending before lastBreak
            var fitted = true
            while i < n {
                let b = bytes[i]
                let a = advance[Int(b) - 0x20]
                if b == 0x20 {
                    // Spaces may hang past the margin; a break after them is allowed.
                    w += a; i += 1
                    if wordWrap { lastBreak = i; widthAtBreak = w }
                    continue
                }
                if w + a > maxWidth + 0.001 && i > start { fitted = false; break }
                w += a; i += 1
            }
            if fitted {
                lines.append((start..<n, trimmedWidth(bytes, start..<n, w)))
                return
            }
            var end = i
            if wordWrap, lastBreak > start, lastBreak <= i {
                end = lastBreak
                w = widthAtBreak
            }
            lines.append((start..<end, trimmedWidth(bytes, start..<end, w)))
            start = end
        }
    }

    private func trimmedWidth(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ width: Double) -> Double {
        var w = width, j = range.upperBound
        while j > range.lowerBound && bytes[j - 1] == 0x20 { j -= 1; w -= advance[0] }
        return w
    }
}
