import Foundation
import SwiftPrint
import TestSupport
import Testing

/// UIKit's remaining printing calls: a formatter drawn by a renderer of its own choosing,
/// `prepare(forDrawingPages:)` given the pages the job draws, and the controller's questions.
@Suite struct DelegateParityTests {
    /// Records the range `prepare(forDrawingPages:)` is given.
    final class PreparingRenderer: PrintPageRenderer {
        let counts: Bool
        nonisolated(unsafe) var prepared: Range<Int>?
        init(counts: Bool) { self.counts = counts }
        override var needsPageCountBeforeDrawing: Bool { counts }
        override func prepare(forDrawingPages range: Range<Int>) { prepared = range }
    }

    @Test(arguments: [("2-3", true, 1..<3), ("2-", false, 1..<Int.max), (nil, true, 0..<5), ("4-9", true, 3..<5), ("7-9", true, 6..<6)]
          as [(String?, Bool, Range<Int>)])
    func prepareIsGivenThePagesTheJobDraws(ranges: String?, counts: Bool, expected: Range<Int>) throws {
        let renderer = PreparingRenderer(counts: counts)
        renderer.addPrintFormatter(CountingFormatter(pages: 5), startingAtPageAt: 0)
        var info = PrintInfo()
        info.pageRanges = ranges.flatMap { PageRanges($0) }
        let job = PrintJob(renderer: renderer, info: info, paper: PrintPaper(media: .a4))
        _ = try? job.writePDF(to: .file(try temporaryDirectory() + "/out.pdf"))
        #expect(renderer.prepared == expected)
    }

    /// A renderer that draws a formatter it does not own: page 2 of a three-page text, laid out
    /// from the start to that page.
    final class BorrowingRenderer: PrintPageRenderer {
        let text = SimpleTextPrintFormatter(text: "page one\u{0C}page two\u{0C}page three")
        nonisolated(unsafe) var failure: Error?
        override var numberOfPages: Int { 1 }
        override func drawContentForPage(at pageIndex: Int, in contentRect: CGRect, context: GraphicsContext) {
            do { try text.draw(in: contentRect, forPageAt: 1, context: context) } catch { failure = error }
        }
    }

    @Test func aFormatterDrawsAnyOfItsPagesWhereItIsTold() throws {
        let renderer = BorrowingRenderer()
        let path = try temporaryDirectory() + "/borrowed.pdf"
        try PrintJob(renderer: renderer, info: PrintInfo(), paper: PrintPaper(media: .a4)).writePDF(to: .file(path))
        #expect(renderer.failure == nil)
        let text = try PDF.text(path).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == "page two", "\(text)")
    }

    @Test func theControllerAnswersWhatItPrints() throws {
        let dir = try temporaryDirectory()
        try Data("plain words\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.txt"))
        try Data([0x00, 0xFF, 0x13, 0x37, 0x00, 0x01, 0x02]).write(to: URL(fileURLWithPath: dir + "/b.bin"))
        #expect(PrintInteractionController.canPrint(url: URL(fileURLWithPath: dir + "/a.txt")))
        #expect(!PrintInteractionController.canPrint(url: URL(fileURLWithPath: dir + "/b.bin")))
        #expect(PrintInteractionController.canPrint(data: Data("%PDF-1.4\n".utf8)) == Dispatcher.standard.canPrint(data: Data("%PDF-1.4\n".utf8)))
        #expect(PrintInteractionController.printableUTIs.contains("public.plain-text"))
        #expect(PrintInteractionController.printableUTIs.contains("com.adobe.pdf"))
    }
}
