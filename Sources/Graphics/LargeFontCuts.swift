import CCairo
import CFontSubset
import CPango
import Foundation

/// Small cuts that stand in, when text is drawn, for fonts too large for cairo to embed cheaply.
///
/// cairo 1.16 embeds a CFF font by copying its whole CFF table: for Noto Sans CJK, 15 MB on the
/// heap and as much again of the mapped file made resident, for the few glyphs a page shows
/// (`CFontSubset` says more). So a job that knows every character it can draw says so here, and
/// each such font is drawn from a cut holding just the glyphs those characters can use.
///
/// The cut is made once per face for the whole job, on the face's first use: cairo embeds one
/// font per face it is given, so cuts made page by page would repeat glyphs in the PDF. A run
/// with a glyph the cut lacks is drawn by pango from the whole font, as without cuts: the text is
/// always right, only the memory saving is lost.
package final class LargeFontCuts {
    /// CFF tables this long or longer are cut. Noto Sans CJK's is 15 MB; Latin, Greek and
    /// Cyrillic CFF faces are well under 1 MB.
    package static let minimumCFFLength = 2 << 20

    private let readCharacters: () -> [UInt32]?
    private let report: (String) -> Void
    /// The job's characters, read on first need (once, even when they cannot be read).
    private lazy var characters: [UInt32]? = readCharacters()
    /// By HarfBuzz face: its cut, or nil when it is drawn whole (small, or the cut failed).
    private var cuts: [UnsafeMutableRawPointer: OpaquePointer?] = [:]

    /// `characters` gives every character the job can draw, or nil when it cannot tell (then
    /// nothing is cut); `report` hears why a font could not be cut.
    package init(characters: @escaping () -> [UInt32]?, report: @escaping (String) -> Void) {
        readCharacters = characters
        self.report = report
    }

    deinit {
        FontEngineLock.held { for case let cut? in cuts.values { SPFontSubsetDestroy(cut) } }
    }

    /// How many faces are drawn from cuts (for tests).
    package var cutCount: Int { cuts.values.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// The cut to draw `font`'s glyphs from, or nil to draw them from the font itself.
    func cut(for font: UnsafeMutablePointer<PangoFont>?) -> OpaquePointer? {
        guard let font, let hb = pango_font_get_hb_font(font), let face = hb_font_get_face(hb) else { return nil }
        let key = UnsafeMutableRawPointer(face)
        if let known = cuts[key] { return known }
        var cut: OpaquePointer? = nil
        if SPFontCFFTableLength(font) >= Self.minimumCFFLength {
            if let wanted = characters {
                var error = [CChar](repeating: 0, count: 256)
                cut = wanted.withUnsafeBufferPointer { SPFontSubsetCreate(font, $0.baseAddress, $0.count, &error) }
                if cut == nil {
                    report("\(Self.family(of: font)) is embedded whole (more memory): \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
                }
            }
        }
        cuts[key] = cut
        return cut
    }

    private static func family(of font: UnsafeMutablePointer<PangoFont>) -> String {
        guard let description = pango_font_describe(font) else { return "a font" }
        defer { pango_font_description_free(description) }
        return pango_font_description_get_family(description).map { String(cString: $0) } ?? "a font"
    }
}

extension TextLayout {
    /// Makes the cuts this layout's fonts will be drawn from now rather than when a page is drawn:
    /// the memory HarfBuzz frees after cutting is then reused by the layouts that follow, instead
    /// of adding to theirs at the job's peak.
    package func makeLargeFontCuts() {
        guard let cuts = fonts.largeFontCuts, let iter = pango_layout_get_iter(pointer) else { return }
        defer { pango_layout_iter_free(iter) }
        repeat {
            if let run = pango_layout_iter_get_run_readonly(iter) { _ = cuts.cut(for: run.pointee.item.pointee.analysis.font) }
        } while pango_layout_iter_next_run(iter) != 0
    }

    /// Draws `line` run by run with its left end on the baseline at `origin`, drawing the runs of
    /// cut fonts from their cuts and placing every run as pango_renderer_draw_layout_line does
    /// (a run's start and end offsets, its baseline shift). False, having drawn nothing, when no
    /// run's font is cut or the line has what only pango's own line drawing handles (attributes,
    /// vertical text).
    func drawRunsCutting(_ line: UnsafeMutablePointer<PangoLayoutLine>, baselineOrigin origin: CGPoint,
                         on cairo: OpaquePointer, cuts: LargeFontCuts) -> Bool {
        guard pango_layout_get_attributes(pointer) == nil else { return false }
        var runs: [UnsafeMutablePointer<PangoGlyphItem>] = []
        var anyCut = false
        var node = line.pointee.runs
        while let n = node {
            let run = n.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self)
            let item = run.pointee.item.pointee
            guard item.analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_CENTERED_BASELINE) == 0 else { return false }
            anyCut = anyCut || cuts.cut(for: item.analysis.font) != nil
            runs.append(run)
            node = n.pointee.next
        }
        guard anyCut, let text = pango_layout_get_text(pointer) else { return false }
        let scale = Double(PANGO_SCALE)
        var x = origin.x
        for run in runs {
            x += Double(run.pointee.start_x_offset) / scale
            showGlyphItem(run, text: text, at: CGPoint(x: x, y: origin.y - Double(run.pointee.y_offset) / scale), on: cairo)
            x += Double(pango_glyph_string_get_width(run.pointee.glyphs) + run.pointee.end_x_offset) / scale
        }
        return true
    }
}

extension TextLayout {
    /// Draws one run (or part of one) of this layout's text with the left end of its baseline at
    /// `origin`, from its font's cut when the job has one.
    func showGlyphItem(_ item: UnsafeMutablePointer<PangoGlyphItem>, text: UnsafePointer<CChar>, at origin: CGPoint, on cairo: OpaquePointer) {
        if let cuts = fonts.largeFontCuts, let cut = cuts.cut(for: item.pointee.item.pointee.analysis.font),
           SPFontSubsetShowGlyphItem(cut, cairo, text, item, origin.x, origin.y) { return }
        cairo_move_to(cairo, origin.x, origin.y)
        pango_cairo_show_glyph_item(cairo, text, item)
    }
}
