import Foundation
import PrintGraphics
import PrintModel

/// Draws pages, like UIKit's UIPrintPageRenderer: a header band, content, the print formatters
/// that fall on each page, and a footer band. Subclass it and override the draw methods, or use
/// it as it is with formatters. Page indexes count from 0.
open class PrintPageRenderer {
    /// Height of the header band at the top of the printable rect, in points.
    public var headerHeight: Double = 0
    /// Height of the footer band at the bottom of the printable rect, in points.
    public var footerHeight: Double = 0
    /// The whole paper, set by the system before drawing.
    public internal(set) var paperRect: CGRect = CGRect(origin: .zero, size: MediaSize.a4.size)
    /// The part of the paper to draw in, set by the system before drawing.
    public internal(set) var printableRect: CGRect = CGRect(origin: .zero, size: MediaSize.a4.size)

    public private(set) var printFormatters: [PrintFormatter] = []

    /// The fonts of the renderer's jobs, shared by its formatters, its header and footer and the
    /// PDF writer: one pango font map loads each font once.
    package private(set) lazy var fonts = FontSystem()

    /// The document's page count when the paginator counted it before drawing (because
    /// `needsPageCountBeforeDrawing` said so); nil otherwise.
    public package(set) var knownPageCount: Int?

    public init() {}

    /// Adds a formatter whose content starts on page `startPage`.
    public func addPrintFormatter(_ formatter: PrintFormatter, startingAtPageAt startPage: Int) {
        formatter.removeFromPrintPageRenderer()
        formatter.startPage = startPage
        formatter.printPageRenderer = self
        printFormatters.append(formatter)
    }

    func removePrintFormatter(_ formatter: PrintFormatter) {
        printFormatters.removeAll { $0 === formatter }
        formatter.printPageRenderer = nil
    }

    /// The formatters that start on or before `pageIndex`.
    public func printFormatters(forPageAt pageIndex: Int) -> [PrintFormatter] {
        printFormatters.filter { $0.startPage <= pageIndex }
    }

    /// Whether drawing needs the total page count first (a footer saying "page 3 of 40").
    /// Counting lays the document out twice, so only renderers that ask pay for it.
    open var needsPageCountBeforeDrawing: Bool { false }

    /// Whether pages place content by reference (`GraphicsContext.place`); true when any
    /// formatter does. A subclass that places content itself overrides it.
    open var placesContent: Bool { printFormatters.contains { $0.placesContent } }

    /// The number of pages. With formatters it lays them all out; a subclass without formatters
    /// overrides it to say how many pages it draws.
    open var numberOfPages: Int {
        if let knownPageCount { return knownPageCount }
        return (try? countPages()) ?? 0
    }

    /// Called once before drawing, with the range of page indexes the job will draw.
    open func prepare(forDrawingPages range: Range<Int>) {}

    /// Draws page `pageIndex` into `printableRect`: header, content, formatters, footer.
    open func drawPage(at pageIndex: Int, in printableRect: CGRect, context: GraphicsContext) throws {
        if headerHeight > 0 {
            drawHeaderForPage(at: pageIndex, in: CGRect(x: printableRect.minX, y: printableRect.minY,
                                                        width: printableRect.width, height: headerHeight), context: context)
        }
        drawContentForPage(at: pageIndex, in: contentArea, context: context)
        for formatter in printFormatters(forPageAt: pageIndex) {
            try drawPrintFormatter(formatter, forPageAt: pageIndex, context: context)
        }
        if footerHeight > 0 {
            drawFooterForPage(at: pageIndex, in: CGRect(x: printableRect.minX, y: printableRect.maxY - footerHeight,
                                                        width: printableRect.width, height: footerHeight), context: context)
        }
    }

    open func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect, context: GraphicsContext) {}
    open func drawContentForPage(at pageIndex: Int, in contentRect: CGRect, context: GraphicsContext) {}
    open func drawFooterForPage(at pageIndex: Int, in footerRect: CGRect, context: GraphicsContext) {}

    /// Draws the part of `formatter` that falls on `pageIndex`, in its rect for that page.
    open func drawPrintFormatter(_ formatter: PrintFormatter, forPageAt pageIndex: Int, context: GraphicsContext) throws {
        guard currentPages[ObjectIdentifier(formatter)] != nil else { return }
        try formatter.draw(in: formatter.rectForPage(at: pageIndex), forPageAt: pageIndex, context: context)
    }

    // MARK: Pagination support

    /// The printable rect less the header and footer bands.
    var contentArea: CGRect {
        printableRect.inset(by: EdgeInsets(top: headerHeight, left: 0, bottom: footerHeight, right: 0))
    }

    /// The laid-out formatter pages of the page being drawn, and its index (`draw(_:on:context:)`
    /// sets them).
    var currentPages: [ObjectIdentifier: FormattedPage] = [:]
    var drawingPageIndex: Int?

    package func setPaper(_ paper: PrintPaper) {
        paperRect = CGRect(origin: .zero, size: paper.paperSize)
        printableRect = paper.printableRect
    }

    /// Lays every page out without drawing and counts them.
    package func countPages(of only: PrintFormatter? = nil) throws -> Int {
        try FontEngineLock.held {
            let cursor = try PageCursor(renderer: self, only: only)
            var count = 0
            while try cursor.next() != nil { count += 1 }
            return count
        }
    }

    /// A renderer for a formatter that has none, on the default paper.
    static func standalone(for formatter: PrintFormatter) -> PrintPageRenderer {
        let renderer = PrintPageRenderer()
        renderer.setPaper(PrintPaper(media: PaperDefaults.media(for: .general)))
        renderer.printFormatters = [formatter]
        return renderer
    }
}
