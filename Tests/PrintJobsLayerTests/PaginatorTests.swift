import Foundation
import PageLayout
import PrintGraphics
import PrintJobs
import PrintModel
import PrintSupport
import Testing

/// The paginator's loop (`PrintJob`) driven by a page renderer that records what it is asked,
/// without the umbrella, a handler or a process: which pages are drawn, in which order, where,
/// and how many sheets they make.
@Suite struct PaginatorTests {
    /// A renderer of `pages` pages that draws nothing and writes down each call.
    final class RecordingRenderer: PrintPageRenderer {
        let pages: Int
        var prepared: [Range<Int>] = []
        var drawn: [(page: Int, content: CGRect)] = []
        var headers: [Int] = [], footers: [Int] = []
        init(pages: Int) { self.pages = pages }
        override var numberOfPages: Int { pages }
        override func prepare(forDrawingPages range: Range<Int>) { prepared.append(range) }
        override func drawContentForPage(at pageIndex: Int, in contentRect: CGRect, context: GraphicsContext) {
            drawn.append((pageIndex, contentRect))
        }
        override func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect, context: GraphicsContext) { headers.append(pageIndex) }
        override func drawFooterForPage(at pageIndex: Int, in footerRect: CGRect, context: GraphicsContext) { footers.append(pageIndex) }
    }

    static func run(_ renderer: RecordingRenderer, _ info: PrintInfo, margins: EdgeInsets = EdgeInsets(all: 36)) throws -> JobReport {
        let out = try #require(TemporaryFiles.make(in: NSTemporaryDirectory(), prefix: "paginator-"))
        close(out.fd)
        defer { unlink(out.path) }
        let job = PrintJob(renderer: renderer, info: info, paper: PrintPaper(media: .a4, margins: margins),
                           metadata: DocumentMetadata(title: "t", creationDate: Date(timeIntervalSince1970: 0)))
        return try job.writePDF(to: .file(out.path))
    }

    @Test func everyPageOnceInOrderInsideTheMargins() throws {
        let renderer = RecordingRenderer(pages: 4)
        renderer.headerHeight = 20
        renderer.footerHeight = 10
        let report = try Self.run(renderer, PrintInfo())
        // Prepared once, from the first page (to the last, open while the count is unknown).
        #expect(renderer.drawn.map(\.page) == [0, 1, 2, 3] && renderer.prepared.map(\.lowerBound) == [0])
        #expect(renderer.headers == [0, 1, 2, 3] && renderer.footers == [0, 1, 2, 3])
        // A4 less 36 pt margins, less the header and footer bands.
        let content = renderer.drawn[0].content
        #expect(content.minX == 36 && content.minY == 36 + 20 && abs(content.width - (595.28 - 72)) < 0.01)
        #expect(abs(content.height - (841.89 - 72 - 30)) < 0.01, "\(content)")
        #expect(report.pagesDrawn == 4 && report.sheetsWritten == 4)
    }

    @Test func pageRangesDrawOnlyTheirPages() throws {
        let renderer = RecordingRenderer(pages: 10)
        let report = try Self.run(renderer, PrintInfo(pageRanges: PageRanges("2-3,5,9-")))
        #expect(renderer.drawn.map(\.page) == [1, 2, 4, 8, 9] && renderer.prepared.map(\.lowerBound) == [1])
        #expect(report.pagesDrawn == 5 && report.sheetsWritten == 5)
    }

    /// Copies and n-up are the assembler's: each page is drawn once, whatever the sheets.
    @Test func copiesAndNUpDrawEachPageOnce() throws {
        let renderer = RecordingRenderer(pages: 5)
        var info = PrintInfo(copies: 3)
        info.sheets.numberUp = 2
        let report = try Self.run(renderer, info)
        #expect(renderer.drawn.map(\.page) == [0, 1, 2, 3, 4])
        #expect(report.sheetsWritten == 9, "three sides of two pages, three times: \(report.sheetsWritten)")
    }
}
