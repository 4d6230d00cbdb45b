import Foundation
import PrintGraphics
import PrintModel

/// A page as the paginator laid it out, to be drawn: what each formatter put on it.
package struct LaidOutPage {
    /// Its index in the document, from 0.
    package let index: Int
    package let formatterPages: [ObjectIdentifier: FormattedPage]
    /// A document of a job of several begins on it (or on a page before it that was not drawn).
    package let startsDocument: Bool
}

/// Lays a renderer's pages out one at a time and yields each, with the pages in the page
/// ranges to be drawn. Pages outside the ranges are laid out (they number the rest) but not
/// drawn; pages after the last one asked for are not even laid out, unless the count is known.
package final class Paginator {
    /// One page laid out: its number (from 1), and the page when it is to be drawn.
    package struct Step {
        package let number: Int
        package let drawn: LaidOutPage?
    }

    private let cursor: PageCursor
    private let ranges: PageRanges
    private let knownCount: Int?
    private var documentBegins = false
    private var done = false

    package init(renderer: PrintPageRenderer, ranges: PageRanges) throws {
        cursor = try PageCursor(renderer: renderer)
        self.ranges = ranges
        knownCount = renderer.knownPageCount
    }

    /// How far through the document the layout is, when the formatters can tell.
    package var fractionDone: Double? { cursor.fractionDone }

    package func next() throws -> Step? {
        guard !done, let page = try cursor.next() else { return nil }
        let number = page.index + 1
        if page.formatterPages.values.contains(where: \.startsDocument) { documentBegins = true }
        var drawn: LaidOutPage?
        if ranges.contains(number) {
            drawn = LaidOutPage(index: page.index, formatterPages: page.formatterPages, startsDocument: documentBegins)
            documentBegins = false
        }
        if number >= ranges.lastPage, knownCount == nil { done = true }
        return Step(number: number, drawn: drawn)
    }
}

extension PrintPageRenderer {
    /// Draws `page` on `paper`: the paper and the page's laid-out content are the renderer's
    /// while it draws (`paperRect`, `printableRect`, `drawPrintFormatter`), as UIKit's system
    /// sets them. The paper stays set after, as the next page is laid out on it.
    package func draw(_ page: LaidOutPage, on paper: PrintPaper, context: GraphicsContext) throws {
        setPaper(paper)
        context.paperRect = paperRect
        currentPages = page.formatterPages
        drawingPageIndex = page.index
        defer { currentPages = [:]; drawingPageIndex = nil }
        try drawPage(at: page.index, in: printableRect, context: context)
    }
}
