import Foundation
import SwiftPrint
import TestSupport
import Testing

/// A formatter with a fixed number of pages that records which it was asked to draw.
final class CountingFormatter: PrintFormatter {
    let pages: Int
    nonisolated(unsafe) var drawn: [Int] = []
    nonisolated(unsafe) var laidOut = 0
    init(pages: Int) { self.pages = pages }

    final class Stream: FormattedPageStream {
        let owner: CountingFormatter
        var next = 0
        init(_ owner: CountingFormatter) { self.owner = owner }
        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            guard next < owner.pages else { return nil }
            defer { next += 1 }
            owner.laidOut += 1
            return Page(owner: owner, number: next)
        }
    }
    struct Page: FormattedPage {
        let owner: CountingFormatter
        let number: Int
        func draw(in context: GraphicsContext, rect: CGRect) throws {
            owner.drawn.append(number)
            context.draw("formatter page \(number + 1)", at: rect.origin, font: .sans)
        }
    }
    override func makePageStream() throws -> FormattedPageStream { Stream(self) }
}

@Suite struct RendererTests {
    @Test func contentRectsFollowUIKitInsetRules() {
        let renderer = PrintPageRenderer()
        renderer.headerHeight = 40
        renderer.footerHeight = 20
        let f = CountingFormatter(pages: 3)
        f.contentInsets = EdgeInsets(top: 30, left: 10, bottom: 99, right: 5)
        f.perPageContentInsets = EdgeInsets(all: 2)
        f.maximumContentHeight = 500
        renderer.addPrintFormatter(f, startingAtPageAt: 1)
        // The renderer's default paper is A4 with no margins until a job sets one.
        let first = f.rectForPage(at: 1), later = f.rectForPage(at: 2)
        #expect(abs(first.minY - (40 + 2 + 30)) < 1e-9)        // header + per-page + first-page top inset
        #expect(abs(later.minY - (40 + 2)) < 1e-9)             // top inset on the first page only
        #expect(first.minX == 2 + 10 && later.minX == 2 + 10)
        #expect(abs(first.width - (595.276 - 4 - 15)) < 0.01)
        #expect(later.height == 500)              // capped; the bottom inset is ignored
        #expect(abs(first.height - min(500, 841.890 - 40 - 20 - 4 - 30)) < 0.01)
    }

    @Test func pagesOutsideTheRangesAreLaidOutButNotDrawnAndCopiesRepeat() throws {
        let f = CountingFormatter(pages: 6)
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(f, startingAtPageAt: 0)
        let dir = try temporaryDirectory()
        let job = PrintJob(renderer: renderer, info: PrintInfo(copies: 2, pageRanges: PageRanges("2,4-5")),
                           paper: PrintPaper(media: .a4))
        let report = try job.writePDF(to: .file(dir + "/out.pdf"))
        #expect(f.drawn == [1, 3, 4, 1, 3, 4])
        #expect(report.pagesDrawn == 6 && report.sheetsWritten == 6)
        #expect(!report.countedBeforeDrawing)
    }

    /// Drawing only shapes, a job never loads fontconfig (~6 ms, ~3 MB): a PDF or a photo
    /// without header or footer draws no text.
    @Test func fontsAreLoadedOnlyByJobsThatDrawText() throws {
        final class Shapes: PrintFormatter {
            final class Stream: FormattedPageStream {
                var done = false
                func nextPage(fitting size: CGSize) throws -> FormattedPage? {
                    defer { done = true }
                    return done ? nil : Page()
                }
            }
            struct Page: FormattedPage {
                func draw(in context: GraphicsContext, rect: CGRect) throws { context.fill(rect.insetBy(dx: 20, dy: 20)) }
            }
            override func makePageStream() throws -> FormattedPageStream { Stream() }
        }
        let dir = try temporaryDirectory()
        let shapes = PrintPageRenderer()
        shapes.addPrintFormatter(Shapes(), startingAtPageAt: 0)
        try PrintJob(renderer: shapes, info: PrintInfo(), paper: PrintPaper(media: .a4)).writePDF(to: .file(dir + "/shapes.pdf"))
        #expect(!shapes.fonts.hasMadeFontMap)
        let text = PrintPageRenderer()
        text.addPrintFormatter(CountingFormatter(pages: 1), startingAtPageAt: 0)
        try PrintJob(renderer: text, info: PrintInfo(), paper: PrintPaper(media: .a4)).writePDF(to: .file(dir + "/text.pdf"))
        #expect(text.fonts.hasMadeFontMap)
    }

    @Test func formattersStartOnTheirOwnPagesAndGapsAreBlank() throws {
        let a = CountingFormatter(pages: 2), b = CountingFormatter(pages: 2)
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(a, startingAtPageAt: 0)
        renderer.addPrintFormatter(b, startingAtPageAt: 3)
        #expect(renderer.numberOfPages == 5)
        #expect(a.pageCount == 2)
    }

    @Test func emptyDocumentsAndEmptyRangesFailWithoutOutput() throws {
        let dir = try temporaryDirectory()
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(CountingFormatter(pages: 0), startingAtPageAt: 0)
        #expect(throws: PrintError.self) {
            try PrintJob(renderer: renderer, info: .unset, paper: PrintPaper(media: .a4)).writePDF(to: .file(dir + "/empty.pdf"))
        }
        let r2 = PrintPageRenderer()
        r2.addPrintFormatter(CountingFormatter(pages: 2), startingAtPageAt: 0)
        #expect(throws: PrintError.self) {
            try PrintJob(renderer: r2, info: PrintInfo(pageRanges: PageRanges("5-")), paper: PrintPaper(media: .a4)).writePDF(to: .file(dir + "/none.pdf"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
