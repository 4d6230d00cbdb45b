import CCairo
import CPango
import Foundation

/// One line of text set on a character grid: pango shapes it (fallback fonts, right-to-left,
/// complex scripts), then every unit of it is put in the cells its characters take, so that
/// columns line up whatever fonts the line needed.
///
/// A unit is a cluster (a character with its combining marks, an emoji sequence), except in the
/// scripts set a word at a time (`wordScripts`): there a whole word is one unit, shaped as a
/// whole and given the sum of its characters' cells. Spaces, digits and punctuation between
/// such words are units of their own, so they stay on the grid too.
///
/// A unit narrower than its cells is centred in them; a wider one (a fallback glyph bigger than
/// the primary font's cell) is scaled down to fit them, on its baseline: condensed when that
/// takes off less than 40 % of its width, shrunk whole otherwise.
package final class GridTextLine {
    package let layout: TextLayout
    package let cellWidth: Double
    /// The cells the whole line takes.
    package private(set) var cells = 0
    /// Whether the line's base direction is right to left (its first strong character).
    package let isRightToLeft: Bool

    /// A unit of one run, in the text's (logical) order within its run.
    private struct Unit {
        var run: Int
        var byteStart: Int, byteEnd: Int
        /// Glyph indices in the run's glyph string, lowest to highest (visual order).
        var firstGlyph: Int, lastGlyph: Int
        var cells: Int
        /// Width as shaped, in pango units.
        var natural: Int32
        /// Cells before it on the line, in visual order.
        var cellOffset = 0
        /// A space (U+0020 or the ideographic space): its gap is a word break.
        var isSpace = false
    }
    private var units: [Unit] = []
    private var runs: [UnsafeMutablePointer<PangoGlyphItem>] = []

    /// Lays out `text` (UTF-8, one line) in `font` on cells `cellWidth` points wide.
    package init(fonts: FontSystem, font: Font, text: UnsafeBufferPointer<UInt8>, cellWidth: Double) {
        layout = TextLayout(fonts: fonts)
        layout.setFont(font)
        layout.setWidth(nil)
        pango_layout_set_single_paragraph_mode(layout.pointer, 1)
        layout.setText(text)
        self.cellWidth = cellWidth
        let line = pango_layout_get_line_readonly(layout.pointer, 0)!
        isRightToLeft = pango_layout_line_get_resolved_direction(line) == PANGO_DIRECTION_RTL
        var node = line.pointee.runs
        while let n = node {
            runs.append(n.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self))
            node = n.pointee.next
        }
        let all = pango_layout_get_text(layout.pointer)!
        for (index, run) in runs.enumerated() { addUnits(of: run, index: index, text: all) }
        // Cells in visual order: runs are in visual order, and a run's units are in logical
        // order, which is visual from the right in a right-to-left run.
        var offset = 0, start = 0
        while start < units.count {
            var end = start
            while end < units.count, units[end].run == units[start].run { end += 1 }
            let backward = runs[units[start].run].pointee.item.pointee.analysis.level & 1 != 0
            for i in backward ? Array((start..<end).reversed()) : Array(start..<end) {
                units[i].cellOffset = offset
                offset += units[i].cells
            }
            start = end
        }
        cells = offset
    }

    /// Splits one run into units and counts their cells.
    private func addUnits(of run: UnsafeMutablePointer<PangoGlyphItem>, index: Int, text: UnsafePointer<CChar>) {
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        let analysis = run.pointee.item.pointee.analysis
        let script = Int(analysis.script)  // a PangoScript, which is a GUnicodeScript
        let joins = Self.wordScripts.contains(script)
        let glyphs = run.pointee.glyphs!.pointee.glyphs!
        var iter = PangoGlyphItemIter()
        var more = pango_glyph_item_iter_init_start(&iter, run, text)
        var previousJoins = false
        while more != 0 {
            let byteStart = Int(iter.start_index), byteEnd = Int(iter.end_index)
            // A right-to-left run's clusters go from its last glyph down: (end_glyph, start_glyph].
            let backward = iter.start_glyph > iter.end_glyph
            let g0 = Int(backward ? iter.end_glyph + 1 : iter.start_glyph)
            let g1 = Int(backward ? iter.start_glyph : iter.end_glyph - 1)
            var natural: Int32 = 0
            if g1 >= g0 { for g in g0...g1 { natural += glyphs[g].geometry.width } }
            var cells = 0, first: UInt32 = 0, spaces = true
            GridCells.forEachCell(in: UnsafeBufferPointer(start: bytes + byteStart, count: byteEnd - byteStart)) { offset, scalar, width in
                if offset == 0 { first = scalar }
                if scalar != 0x20 && scalar != 0x3000 { spaces = false }
                cells += width
            }
            // A mark with nothing to sit on still shows (on a dotted circle): one cell.
            if cells == 0 && natural > 0 { cells = 1 }
            let clusterJoins = joins && Int(g_unichar_get_script(first).rawValue) == script
            if clusterJoins && previousJoins, var last = units.last, last.run == index {
                last.byteEnd = byteEnd
                last.firstGlyph = min(last.firstGlyph, g0)
                last.lastGlyph = max(last.lastGlyph, g1)
                last.cells += cells
                last.natural += natural
                units[units.count - 1] = last
            } else {
                units.append(Unit(run: index, byteStart: byteStart, byteEnd: byteEnd, firstGlyph: g0, lastGlyph: g1,
                                  cells: cells, natural: natural, isSpace: spaces))
            }
            previousJoins = clusterJoins
            more = pango_glyph_item_iter_next_cluster(&iter)
        }
    }

    /// A unit too wide for its cells is condensed (scaled across only) down to this fraction of
    /// its width, and shrunk whole beyond it. Condensed, a letter keeps its height, and its word
    /// stays one word to text extractors (pdftotext starts a new word where the font size
    /// changes); squeezed further, it would be unreadable.
    static let narrowestCondensing = 0.6

    /// Scripts whose words are set as wholes. In those whose letters join or reorder when shaped
    /// (Arabic, the Indic scripts, Thai …) cutting a word into cells would break its shaping.
    /// Hebrew (and Samaritan) letters are written apart, but no monospace face here has them:
    /// a proportional one draws them, so a letter a cell leaves gaps (or squeezes) that every
    /// text extractor reads as word breaks, and copying gave "ד ג סק ר ן" for "דג סקרן". As a
    /// word, a right-to-left word is also one span to extractors, read in its own order.
    static let wordScripts: Set<Int> = Set(([
        G_UNICODE_SCRIPT_HEBREW, G_UNICODE_SCRIPT_SAMARITAN,
        G_UNICODE_SCRIPT_ARABIC, G_UNICODE_SCRIPT_SYRIAC, G_UNICODE_SCRIPT_THAANA, G_UNICODE_SCRIPT_NKO,
        G_UNICODE_SCRIPT_MONGOLIAN, G_UNICODE_SCRIPT_MANDAIC, G_UNICODE_SCRIPT_ADLAM, G_UNICODE_SCRIPT_HANIFI_ROHINGYA,
        G_UNICODE_SCRIPT_DEVANAGARI, G_UNICODE_SCRIPT_BENGALI, G_UNICODE_SCRIPT_GURMUKHI, G_UNICODE_SCRIPT_GUJARATI,
        G_UNICODE_SCRIPT_ORIYA, G_UNICODE_SCRIPT_TAMIL, G_UNICODE_SCRIPT_TELUGU, G_UNICODE_SCRIPT_KANNADA,
        G_UNICODE_SCRIPT_MALAYALAM, G_UNICODE_SCRIPT_SINHALA, G_UNICODE_SCRIPT_THAI, G_UNICODE_SCRIPT_LAO,
        G_UNICODE_SCRIPT_TIBETAN, G_UNICODE_SCRIPT_MYANMAR, G_UNICODE_SCRIPT_KHMER, G_UNICODE_SCRIPT_BALINESE,
        G_UNICODE_SCRIPT_JAVANESE, G_UNICODE_SCRIPT_SUNDANESE, G_UNICODE_SCRIPT_TAI_THAM, G_UNICODE_SCRIPT_CHAKMA,
    ] as [GUnicodeScript]).map { Int($0.rawValue) })

    /// Pango units from the line's start to the start of cell `n`: rounded per cell boundary, so
    /// that no rounding adds up along a line.
    @inline(__always) private func position(ofCell n: Int) -> Int32 {
        Int32((Double(n) * cellWidth * Double(PANGO_SCALE)).rounded())
    }

    /// Draws the line with the left end of its first cell on the baseline at `origin`.
    package func draw(baselineOrigin origin: CGPoint, on cr: OpaquePointer) {
        guard !units.isEmpty, let text = pango_layout_get_text(layout.pointer) else { return }
        let scale = Double(PANGO_SCALE)
        var first = 0
        for (index, run) in runs.enumerated() {
            var end = first
            while end < units.count, units[end].run == index { end += 1 }
            defer { first = end }
            guard end > first, let copy = pango_glyph_item_copy(run) else { continue }
            let y = origin.y - Double(run.pointee.y_offset) / scale
            centre(units[first..<end], in: copy)
            // Pieces, in logical order: runs of unscaled units drawn together, each scaled unit
            // alone under its scale.
            var piece = first
            while piece < end {
                let scaled = units[piece].natural > cellsWidth(units[piece])
                var last = piece
                if !scaled { while last + 1 < end, units[last + 1].natural <= cellsWidth(units[last + 1]) { last += 1 } }
                let part: UnsafeMutablePointer<PangoGlyphItem>
                if last + 1 < end {
                    part = pango_glyph_item_split(copy, text, Int32(units[last].byteEnd) - copy.pointee.item.pointee.offset)
                } else {
                    part = copy
                }
                let leftCell = units[piece...last].map(\.cellOffset).min()!
                let x = origin.x + Double(position(ofCell: leftCell)) / scale
                if scaled {
                    let u = units[piece]
                    let s = Double(cellsWidth(u)) / Double(u.natural)
                    cairo_save(cr)
                    cairo_translate(cr, x, y)
                    cairo_scale(cr, s, s >= Self.narrowestCondensing ? 1 : s)
                    layout.showGlyphItem(part, text: text, at: CGPoint(x: 0, y: 0), on: cr)
                    cairo_restore(cr)
                } else {
                    layout.showGlyphItem(part, text: text, at: CGPoint(x: x, y: y), on: cr)
                }
                pango_glyph_item_free(part)
                piece = last + 1
            }
        }
    }

    /// Centres each unscaled unit of a run (a copy, about to be drawn) in its cells.
    ///
    /// A unit much narrower than its cells (an ideograph in two cells of a Latin monospace font)
    /// leaves a gap that text extractors, which break words at a tenth of the font size, take for
    /// a space: "日 本 語". So a stretch of such units (spaces end it: their gaps are word breaks)
    /// in a left-to-right run becomes one cluster
    /// with an invisible space glyph of its font at each end of its cells: cairo writes it as one
    /// span of text (ActualText) exactly as wide as its cells, read as "日本語". Inside it, and in
    /// every other unit, glyphs are moved to the middle of their cells, and a unit's last glyph
    /// advances to the end of them.
    private func centre(_ units: ArraySlice<Unit>, in copy: UnsafeMutablePointer<PangoGlyphItem>) {
        let glyphs = copy.pointee.glyphs!.pointee.glyphs!
        let leftToRight = copy.pointee.item.pointee.analysis.level & 1 == 0
        let space = leftToRight ? Self.spaceGlyph(of: copy.pointee.item.pointee.analysis.font) : nil
        let threshold = Int32(cellWidth * Double(PANGO_SCALE) / 10)
        // Stretches of gapped units, as glyph ranges with their cells' margins at each end.
        var stretches: [Stretch] = []
        for u in units where u.natural <= cellsWidth(u) && u.lastGlyph >= u.firstGlyph {
            let target = cellsWidth(u)
            let shift = (target - u.natural) / 2
            let gapped = space != nil && !u.isSpace && target - u.natural > threshold
            if gapped, let last = stretches.last, last.last + 1 == u.firstGlyph {
                // Joins the stretch before it: that one's trailing margin and this one's leading
                // margin become advance of its last glyph.
                glyphs[last.last].geometry.width += last.trail + shift
                stretches[stretches.count - 1] = (last.first, u.lastGlyph, last.lead, target - u.natural - shift)
            } else if gapped {
                stretches.append((u.firstGlyph, u.lastGlyph, shift, target - u.natural - shift))
            } else {
                for g in u.firstGlyph...u.lastGlyph { glyphs[g].geometry.x_offset += shift }
                glyphs[u.lastGlyph].geometry.width += target - u.natural
            }
        }
        guard let space, !stretches.isEmpty else { return }
        Self.insertFillers(around: stretches, space: space, in: copy)
    }

    /// A stretch of gapped units as glyph indexes, with its cells' margins at each end.
    private typealias Stretch = (first: Int, last: Int, lead: Int32, trail: Int32)

    /// Puts an invisible space glyph (`space`) at each end of each stretch, the stretch made one
    /// cluster, so that cairo writes it as one span of text exactly as wide as its cells.
    private static func insertFillers(around stretches: [Stretch], space: (glyph: PangoGlyph, advance: Int32),
                                      in copy: UnsafeMutablePointer<PangoGlyphItem>) {
        let old = copy.pointee.glyphs!
        let count = Int(old.pointee.num_glyphs)
        let new = pango_glyph_string_new()!
        pango_glyph_string_set_size(new, Int32(count + 2 * stretches.count))
        var j = 0
        func put(_ info: PangoGlyphInfo, cluster: Int32) {
            new.pointee.glyphs[j] = info
            new.pointee.log_clusters[j] = cluster
            j += 1
        }
        func filler(width: Int32, offset: Int32) -> PangoGlyphInfo {
            var info = PangoGlyphInfo()
            info.glyph = space.glyph
            info.geometry.width = width
            info.geometry.x_offset = offset
            return info
        }
        var g = 0
        for stretch in stretches {
            while g < stretch.first { put(old.pointee.glyphs[g], cluster: old.pointee.log_clusters[g]); g += 1 }
            // One cluster: the stretch's text, from its first glyph's.
            let cluster = old.pointee.log_clusters[stretch.first]
            var lead = filler(width: stretch.lead, offset: 0)
            lead.attr.is_cluster_start = 1
            put(lead, cluster: cluster)
            while g <= stretch.last {
                var info = old.pointee.glyphs[g]
                info.attr.is_cluster_start = 0
                put(info, cluster: cluster)
                g += 1
            }
            // Ending exactly at the cells' end (over the last glyph when the space is wider than
            // what is left: it draws nothing).
            put(filler(width: stretch.trail, offset: stretch.trail - space.advance), cluster: cluster)
        }
        while g < count { put(old.pointee.glyphs[g], cluster: old.pointee.log_clusters[g]); g += 1 }
        copy.pointee.glyphs = new
        pango_glyph_string_free(old)
    }

    /// The space glyph of `font` and its advance in pango units; nil when it has none.
    private static func spaceGlyph(of font: UnsafeMutablePointer<PangoFont>?) -> (glyph: PangoGlyph, advance: Int32)? {
        guard let font, let hb = pango_font_get_hb_font(font) else { return nil }
        var glyph: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(hb, 0x20, &glyph) != 0 else { return nil }
        return (glyph, hb_font_get_glyph_h_advance(hb, glyph))
    }

    /// The width of a unit's cells in pango units, from its place on the line.
    @inline(__always) private func cellsWidth(_ u: Unit) -> Int32 {
        position(ofCell: u.cellOffset + u.cells) - position(ofCell: u.cellOffset)
    }
}
