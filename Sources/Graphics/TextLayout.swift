import CCairo
import CPango
import Foundation
import PrintModel

/// Owns one PangoLayout: a paragraph of text shaped and broken into lines.
package final class TextLayout {
    package let pointer: OpaquePointer
    let fonts: FontSystem
    private var currentFont: String = ""

    package init(fonts: FontSystem) {
        self.fonts = fonts
        pointer = pango_layout_new(fonts.context)
    }

    deinit { FontEngineLock.held { g_object_unref(UnsafeMutableRawPointer(pointer)) } }

    package func setFont(_ font: Font) {
        guard font.name != currentFont else { return }
        currentFont = font.name
        let desc = FontDescription(font.name)
        pango_layout_set_font_description(pointer, desc.pointer)
    }

    /// Sets UTF-8 text without copying it into a Swift String first.
    package func setText(_ utf8: UnsafeBufferPointer<UInt8>) {
        utf8.withMemoryRebound(to: CChar.self) { pango_layout_set_text(pointer, $0.baseAddress, Int32($0.count)) }
    }

    package func setText(_ text: String) { pango_layout_set_text(pointer, text, -1) }

    /// Width to wrap at, in points; nil for no wrapping.
    package func setWidth(_ width: Double?) {
        pango_layout_set_width(pointer, width.map { Int32(($0 * Double(PANGO_SCALE)).rounded(.down)) } ?? -1)
    }

    package enum Wrap { case word, char, wordChar }
    package func setWrap(_ wrap: Wrap) {
        switch wrap {
        case .word: pango_layout_set_wrap(pointer, PANGO_WRAP_WORD)
        case .char: pango_layout_set_wrap(pointer, PANGO_WRAP_CHAR)
        case .wordChar: pango_layout_set_wrap(pointer, PANGO_WRAP_WORD_CHAR)
        }
    }

    package func setEllipsizeEnd(_ on: Bool) {
        pango_layout_set_ellipsize(pointer, on ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE)
    }

    package func setAlignment(_ alignment: TextAlignment) {
        pango_layout_set_justify(pointer, alignment == .justified ? 1 : 0)
        switch alignment {
        case .left, .justified: pango_layout_set_alignment(pointer, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(pointer, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(pointer, PANGO_ALIGN_RIGHT)
        }
    }

    package var lineCount: Int { Int(pango_layout_get_line_count(pointer)) }

    /// Glyphs no font had; pango draws them as hex boxes.
    package var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(pointer)) }

    /// The whole layout's logical size in points.
    package var size: CGSize {
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_size(pointer, &w, &h)
        return CGSize(width: Double(w) / Double(PANGO_SCALE), height: Double(h) / Double(PANGO_SCALE))
    }

    /// Baseline of the first line from the layout's top, in points.
    package var firstBaseline: Double { Double(pango_layout_get_baseline(pointer)) / Double(PANGO_SCALE) }

    /// Every line's logical extents, in points: x of its left end inside the layout (alignment
    /// included), ascent and descent from its baseline, width, the bytes of the text it covers,
    /// and whether its paragraph runs right to left.
    package func lineMetrics() -> [LineMetrics] {
        var result: [LineMetrics] = []
        result.reserveCapacity(lineCount)
        let s = Double(PANGO_SCALE)
        forEachLine { line, logical, baselineFromTop in
            let baseline = Double(baselineFromTop) / s
            result.append(LineMetrics(x: Double(logical.x) / s,
                                      ascent: baseline - Double(logical.y) / s,
                                      descent: Double(logical.y + logical.height) / s - baseline,
                                      width: Double(logical.width) / s,
                                      byteStart: Int(line.pointee.start_index), byteLength: Int(line.pointee.length),
                                      isRightToLeft: pango_layout_line_get_resolved_direction(line) == PANGO_DIRECTION_RTL))
        }
        return result
    }

    /// Each line in turn, with its logical extents and its baseline below the layout's top, in
    /// pango units.
    private func forEachLine(_ body: (UnsafeMutablePointer<PangoLayoutLine>, PangoRectangle, Int32) -> Void) {
        let iter = pango_layout_get_iter(pointer)!
        defer { pango_layout_iter_free(iter) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            body(pango_layout_iter_get_line_readonly(iter)!, logical, pango_layout_iter_get_baseline(iter))
        } while pango_layout_iter_next_line(iter) != 0
    }

    /// Draws line `i` with its baseline's left end at `origin` (alignment offset not added).
    package func drawLine(_ i: Int, baselineOrigin origin: CGPoint, on cairo: OpaquePointer) {
        show(pango_layout_get_line_readonly(pointer, Int32(i))!, baselineOrigin: origin, on: cairo)
    }

    /// Draws the whole layout with its top-left at `origin`.
    package func draw(at origin: CGPoint, on cairo: OpaquePointer) {
        guard fonts.largeFontCuts != nil else {
            cairo_move_to(cairo, origin.x, origin.y)
            pango_cairo_show_layout(cairo, pointer)
            return
        }
        // Line by line at the places pango_cairo_show_layout would put them, so that lines in
        // cut fonts can be drawn from their cuts.
        let s = Double(PANGO_SCALE)
        forEachLine { line, logical, baseline in
            show(line, baselineOrigin: CGPoint(x: origin.x + Double(logical.x) / s, y: origin.y + Double(baseline) / s), on: cairo)
        }
    }

    /// Draws one line, from the cuts of its large fonts when the job has them.
    private func show(_ line: UnsafeMutablePointer<PangoLayoutLine>, baselineOrigin origin: CGPoint, on cairo: OpaquePointer) {
        if let cuts = fonts.largeFontCuts, drawRunsCutting(line, baselineOrigin: origin, on: cairo, cuts: cuts) { return }
        cairo_move_to(cairo, origin.x, origin.y)
        pango_cairo_show_layout_line(cairo, line)
    }
}

package struct LineMetrics {
    package var x: Double
    package var ascent: Double
    package var descent: Double
    package var width: Double
    package var byteStart: Int
    package var byteLength: Int
    /// The line's resolved direction is right to left (pango's base direction of its paragraph,
    /// from the first strong character): pango then aligns "left" to the right edge.
    package var isRightToLeft: Bool
}

extension TextLayout {
    /// The characters pango found no font for (it draws them as hex boxes).
    package func unknownCharacters() -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        let iter = pango_layout_get_iter(pointer)!
        defer { pango_layout_iter_free(iter) }
        let unknownFlag: UInt32 = 0x1000_0000  // PANGO_GLYPH_UNKNOWN_FLAG; the rest is the character
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs else { continue }
            for i in 0..<Int(glyphs.pointee.num_glyphs) {
                let g = glyphs.pointee.glyphs[i].glyph
                if g & unknownFlag != 0, let scalar = Unicode.Scalar(g & ~unknownFlag) { result.append(scalar) }
            }
        } while pango_layout_iter_next_run(iter) != 0
        return result
    }
}

/// The Unicode script of a character, by its ISO 15924 name ("Thai", "Hebrew"); nil for
/// characters shared between scripts (digits, punctuation) and marks.
package func scriptName(of scalar: Unicode.Scalar) -> String? {
    let script = g_unichar_get_script(scalar.value)
    guard script != G_UNICODE_SCRIPT_COMMON, script != G_UNICODE_SCRIPT_INHERITED,
          script != G_UNICODE_SCRIPT_UNKNOWN else { return nil }
    let code = g_unicode_script_to_iso15924(script)
    // The ISO 15924 code is four letters packed big-endian into a UInt32.
    let letters = [24, 16, 8, 0].map { Character(Unicode.Scalar(UInt8((code >> UInt32($0)) & 0xFF))) }
    return String(letters)
}
