import Foundation
import SwiftPrint
import TestSupport
import Testing

/// Very large CFF fonts (Noto Sans CJK) are drawn from cuts holding the job's glyphs, so that
/// cairo never copies them whole. The check is what poppler draws and reads back, against the
/// same page drawn from the whole font.
@Suite struct LargeFontCutTests {
    static let lines = [
        "Chinese: 我能吞下玻璃而不伤身体。",
        "Korean: 나는 유리를 먹을 수 있어요.",
        "Japanese: 私はガラスを食べられます。",
        "Arabic: أنا قادر على أكل الزجاج",
    ]

    /// Draws `lines` on one page, each line through the graphics context (pango, with fallback
    /// fonts); with `characters`, large fonts are cut to those.
    final class Lines: PrintFormatter {
        let lines: [String]
        init(_ lines: [String]) { self.lines = lines }
        final class Stream: FormattedPageStream {
            let lines: [String]
            var done = false
            init(_ lines: [String]) { self.lines = lines }
            func nextPage(fitting size: CGSize) throws -> FormattedPage? {
                defer { done = true }
                return done ? nil : Page(lines: lines)
            }
        }
        struct Page: FormattedPage {
            let lines: [String]
            func draw(in context: GraphicsContext, rect: CGRect) throws {
                for (i, line) in lines.enumerated() {
                    context.draw(line, at: CGPoint(x: rect.minX, y: rect.minY + Double(i) * 30), font: Font("DejaVu Sans 16")!)
                }
                context.draw(lines.joined(separator: " "), in: CGRect(x: rect.minX, y: rect.minY + 200, width: 300, height: 300),
                             font: Font("DejaVu Sans 12")!)
            }
        }
        override func makePageStream() throws -> FormattedPageStream { Stream(lines) }
    }

    func render(cuttingTo characters: String?) throws -> (pdf: String, cuts: Int, reports: [String]) {
        let renderer = PrintPageRenderer()
        nonisolated(unsafe) var reports: [String] = []
        if let characters {
            renderer.fonts.largeFontCuts = LargeFontCuts(characters: { characters.unicodeScalars.map(\.value) },
                                                          report: { reports.append($0) })
        }
        renderer.addPrintFormatter(Lines(Self.lines), startingAtPageAt: 0)
        let pdf = try temporaryDirectory() + "/page.pdf"
        try PrintJob(renderer: renderer, info: PrintInfo(), paper: PrintPaper(media: .a4, margins: EdgeInsets(all: 20)))
            .writePDF(to: .file(pdf))
        return (pdf, renderer.fonts.largeFontCuts?.cutCount ?? 0, reports)
    }

    @Test func aCutDrawsWhatTheWholeFontDraws() throws {
        let whole = try render(cuttingTo: nil)
        // With what line breaking can add: a hyphen where a word is broken.
        let cut = try render(cuttingTo: Self.lines.joined() + " -\u{2010}")
        #expect(cut.cuts >= 1, "no font was cut")
        #expect(cut.reports.isEmpty, "\(cut.reports)")
        #expect(try PDF.grayPixels(cut.pdf, page: 1, dpi: 100).pixels == PDF.grayPixels(whole.pdf, page: 1, dpi: 100).pixels)
        #expect(try PDF.text(cut.pdf) == PDF.text(whole.pdf))
        #expect(try PDF.text(cut.pdf).contains("我能吞下玻璃而不伤身体"))
        // The cut is embedded instead of the whole font, not beside it.
        #expect(try fontNames(cut.pdf) == fontNames(whole.pdf))
    }

    @Test func aGlyphTheCutLacksIsDrawnFromTheWholeFont() throws {
        let whole = try render(cuttingTo: nil)
        // The cut knows the Chinese line only: the Japanese and Korean lines' glyphs are not in it.
        let partial = try render(cuttingTo: Self.lines[0] + " ")
        #expect(partial.cuts >= 1)
        // The same glyphs at the same places; the cut and the whole font, two font programs,
        // may shade a glyph's edge at a fraction of a point differently.
        let a = try PDF.grayPixels(partial.pdf, page: 1, dpi: 100).pixels, b = try PDF.grayPixels(whole.pdf, page: 1, dpi: 100).pixels
        try #require(a.count == b.count)
        let differing = zip(a, b).filter { abs(Int($0) - Int($1)) > 48 }.count
        #expect(Double(differing) / Double(a.count) < 0.0005, "\(differing) pixels differ")
        #expect(try PDF.text(partial.pdf) == PDF.text(whole.pdf))
    }

    /// Embedded font names without their subset tags, sorted.
    func fontNames(_ pdf: String) throws -> [String] {
        try Tool.run("pdffonts", [pdf]).text.split(separator: "\n").dropFirst(2)
            .compactMap { $0.split(separator: " ").first?.split(separator: "+").last.map(String.init) }.sorted()
    }
}
