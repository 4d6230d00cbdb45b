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
    class RecordingRenderer: PrintPageRenderer {
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

    /// The job's report, its PDF written to memory (`OutputDestination.memory`).
    static func run(_ renderer: RecordingRenderer, _ info: PrintInfo, margins: EdgeInsets = EdgeInsets(all: 36),
                    into bytes: WrittenBytes = WrittenBytes()) throws -> JobReport {
        let job = PrintJob(renderer: renderer, info: info, paper: PrintPaper(media: .a4, margins: margins),
                           metadata: DocumentMetadata(title: "t", creationDate: Date(timeIntervalSince1970: 0)))
        let report = try job.writePDF(to: .memory(bytes))
        #expect(bytes.data.starts(with: Array("%PDF-".utf8)) && bytes.data.count == report.bytesWritten)
        return report
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

    /// A job that fails half-way leaves its memory output empty, as it leaves no file.
    @Test func aFailedJobWritesNothing() throws {
        final class FailingRenderer: RecordingRenderer {
            struct Stop: Error {}
            override func drawPage(at pageIndex: Int, in printableRect: CGRect, context: GraphicsContext) throws {
                if pageIndex == 2 { throw Stop() }
                try super.drawPage(at: pageIndex, in: printableRect, context: context)
            }
        }
        let renderer = FailingRenderer(pages: 4), bytes = WrittenBytes()
        let job = PrintJob(renderer: renderer, info: PrintInfo(), paper: PrintPaper(media: .a4))
        #expect(throws: FailingRenderer.Stop.self) { try job.writePDF(to: .memory(bytes)) }
        #expect(renderer.drawn.map(\.page) == [0, 1] && bytes.data.isEmpty)
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
