import Foundation
import PrintGraphics
import PrintModel
import PrintOptions

/// The top and bottom edges of a page, where headers and footers go.
public struct PageMarginEdges: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = PageMarginEdges(rawValue: 1)
    public static let bottom = PageMarginEdges(rawValue: 2)
}

/// One laid-out page of a formatter's content, ready to draw.
public protocol FormattedPage {
    /// Draws the page's content into `rect` (the formatter's rect on that page).
    func draw(in context: GraphicsContext, rect: CGRect) throws
    /// The sheet this page asks for instead of the job's paper. Pages that ask for their own
    /// are laid out when drawn, in the rect they get then.
    var sheet: SheetRequest { get }
    /// Whether a new document begins on this page (the second and later items of a
    /// `PrintItemsFormatter`): printed two-sided, it starts on a front side.
    var startsDocument: Bool { get }
}

extension FormattedPage {
    public var sheet: SheetRequest { .jobPaper }
    public var startsDocument: Bool { false }
}

/// What sheet a laid-out page wants.
public enum SheetRequest: Hashable, Sendable {
    /// The job's paper.
    case jobPaper
    /// A sheet of this size in points (a PDF page printed at its own size).
    case size(CGSize)
    /// Paper of this size with these margins, instead of the job's (an HTML named page's own).
    case paper(CGSize, margins: EdgeInsets)
    /// The job's paper turned this way, when the job sets no orientation (a wide photo).
    case orientation(PrintInfo.Orientation)
}

/// A formatter's pages, laid out one at a time so that a long document never lives in memory
/// at once. Laying out a page must be much cheaper than drawing it: pages outside the job's
/// page ranges are laid out (to count them) but never drawn.
public protocol FormattedPageStream: AnyObject {
    /// Lays out the next page in an area of `size` points; nil when no content is left.
    func nextPage(fitting size: CGSize) throws -> FormattedPage?
}

/// Lays content out into pages, like UIKit's UIPrintFormatter, with the same layout semantics:
/// `contentInsets.top` applies to the formatter's first page only and `contentInsets.bottom` is
/// ignored; `perPageContentInsets` apply to every edge of every page; the content area is then
/// capped by `maximumContentWidth`/`maximumContentHeight`, keeping its top-left corner.
open class PrintFormatter {
    public var contentInsets: EdgeInsets = .zero
    public var perPageContentInsets: EdgeInsets = .zero
    public var maximumContentWidth: Double = .greatestFiniteMagnitude
    public var maximumContentHeight: Double = .greatestFiniteMagnitude
    /// The renderer page (from 0) this formatter's content starts on.
    public var startPage: Int = 0
    /// Whether the pages place content by reference (`GraphicsContext.place`): pages of input
    /// PDFs, images stored as they came. The job then assembles its output at the PDF-object level.
    open var placesContent: Bool { false }
    /// The document's own page setup (HTML's `@page`), for the job's paper; nil for most content.
    /// It may have to read the document first, so it can fail and is asked for only when needed.
    open func documentPageSetup() throws -> DocumentPageSetup? { nil }
    /// The document's own title (HTML's `<title>`, Markdown's first heading, a PDF's Title),
    /// known once `documentPageSetup()` has been asked; the job's title and `{title}` when the
    /// job names none, as WeasyPrint titles its PDFs.
    open var documentTitle: String? { nil }
    /// The page edges whose margin the document itself fills (HTML's page-margin boxes); the
    /// job then leaves a header or footer that is only the queue's default off those edges.
    open var documentMarginEdges: PageMarginEdges { [] }
    /// The page edges the job prints its own header or footer on: a document's page-margin
    /// boxes there are left out (an explicit header replaces the document's).
    public var marginEdgesTakenByJob: PageMarginEdges = []
    /// Whether the job sets its own paper, orientation or margins: a document's own page sizes
    /// (HTML's named pages) then give way to them too.
    public var pageSetupTakenByJob = false
    /// The most pages this formatter may lay out, and the document it lays out (for the
    /// error): set by the job for each document (`JobLimits.pagesPerDocument`), nil elsewhere.
    package var pageLimit: (count: Int, path: String)?
    /// The renderer this formatter draws for, set by `PrintPageRenderer.addPrintFormatter`.
    public internal(set) weak var printPageRenderer: PrintPageRenderer?

    public init() {}

    /// Starts laying the content out from its beginning. Subclasses override this.
    open func makePageStream() throws -> FormattedPageStream {
        throw PrintError(.noContent, "\(type(of: self)) does not lay out any pages")
    }

    /// Starts laying the content out with what the renderer laying it out gives (its fonts).
    /// The paginator calls this; a formatter that draws text overrides it, so that it never
    /// reaches back into its renderer. By default it is `makePageStream()`.
    open func makePageStream(in environment: LayoutEnvironment) throws -> FormattedPageStream {
        try makePageStream()
    }

    /// `makePageStream(in:)` (or `makePageStream()` with no environment), held to `pageLimit`:
    /// what every reader of a formatter's pages calls.
    package func pageStream(in environment: LayoutEnvironment?) throws -> FormattedPageStream {
        let stream = try environment.map { try makePageStream(in: $0) } ?? makePageStream()
        guard let pageLimit else { return stream }
        return try PageLimitedStream(stream, limit: pageLimit.count, path: pageLimit.path)
    }

    /// How many pages the content takes in its renderer (or on the default paper when it has
    /// none). It lays the whole content out, so a long document pays for it once per call.
    public var pageCount: Int {
        let renderer = printPageRenderer ?? PrintPageRenderer.standalone(for: self)
        return (try? renderer.countPages(of: self)) ?? 0
    }

    /// Draws the content that falls on renderer page `pageIndex` (from 0) into `rect`, as
    /// UIPrintFormatter's `draw(in:forPageAt:)` does (UIKit draws into the current context; here
    /// the context is given). While its renderer draws that page, the page it laid out is
    /// drawn; otherwise the content is laid out from its start to that page first, in its
    /// renderer (or on the default paper when it has none). A page past the content draws
    /// nothing.
    public func draw(in rect: CGRect, forPageAt pageIndex: Int, context: GraphicsContext) throws {
        if let renderer = printPageRenderer, renderer.drawingPageIndex == pageIndex,
           let page = renderer.currentPages[ObjectIdentifier(self)] {
            return try page.draw(in: context, rect: rect)
        }
        guard pageIndex >= startPage else { return }
        let renderer = printPageRenderer ?? PrintPageRenderer.standalone(for: self)
        try FontEngineLock.held {
            let area = renderer.contentArea
            let stream = try pageStream(in: LayoutEnvironment(fonts: renderer.fonts, contentArea: area))
            var page: FormattedPage?
            for index in startPage...pageIndex {
                page = try stream.nextPage(fitting: contentRect(inPageArea: area, isFirstPage: index == startPage).size)
                if page == nil { return }
            }
            try page?.draw(in: context, rect: rect)
        }
    }

    /// The content rect on renderer page `pageIndex` (from 0), per the UIKit rules above.
    public func rectForPage(at pageIndex: Int) -> CGRect {
        guard let renderer = printPageRenderer else { return .zero }
        return contentRect(inPageArea: renderer.contentArea, isFirstPage: pageIndex == startPage)
    }

    /// The content rect inside a page's content area (printable rect less header and footer).
    package func contentRect(inPageArea area: CGRect, isFirstPage: Bool) -> CGRect {
        var rect = area.inset(by: perPageContentInsets)
        rect = rect.inset(by: EdgeInsets(top: isFirstPage ? contentInsets.top : 0,
                                         left: contentInsets.left, bottom: 0, right: contentInsets.right))
        rect.size.width = min(rect.width, maximumContentWidth)
        rect.size.height = min(rect.height, maximumContentHeight)
        return rect
    }

    /// Detaches the formatter from its renderer.
    public func removeFromPrintPageRenderer() {
        printPageRenderer?.removePrintFormatter(self)
    }
}

/// What the renderer that lays a formatter out gives it: its fonts (which the PDF writer
/// embeds) and its content area when the formatter's first page is laid out.
public struct LayoutEnvironment {
    package let fonts: FontSystem
    /// The printable rect less the header and footer bands.
    public let contentArea: CGRect
    package init(fonts: FontSystem, contentArea: CGRect) { self.fonts = fonts; self.contentArea = contentArea }
}

extension FormattedPageStream {
    /// How far through its content the stream is, 0…1, when it can tell; for progress only.
    public var fractionDone: Double? { (self as? ProgressEstimating)?.fractionDone }
}

/// A stream that knows how far through its input it is.
public protocol ProgressEstimating {
    var fractionDone: Double? { get }
}

/// The pages of content whose pages are known by number up front (a PDF's pages, a list of
/// images): page `i` is made when it is reached.
public final class IndexedPageStream: FormattedPageStream, ProgressEstimating {
    private let count: Int
    private let page: (Int) throws -> FormattedPage
    private var next = 0

    public init(count: Int, page: @escaping (Int) throws -> FormattedPage) {
        self.count = count
        self.page = page
    }

    /// How many pages it has.
    package var pageCount: Int { count }

    public func nextPage(fitting size: CGSize) throws -> FormattedPage? {
        guard next < count else { return nil }
        defer { next += 1 }
        return try page(next)
    }

    public var fractionDone: Double? { Double(next) / Double(max(1, count)) }
}

/// A stream that fails once its content goes past a page limit: at once when the count is
/// known up front (a PDF's page tree), else at the first page too many (text, HTML).
final class PageLimitedStream: FormattedPageStream, ProgressEstimating {
    private let stream: FormattedPageStream
    private let limit: Int
    private let path: String
    private var pages = 0

    init(_ stream: FormattedPageStream, limit: Int, path: String) throws {
        self.stream = stream; self.limit = limit; self.path = path
        if let known = (stream as? IndexedPageStream)?.pageCount, known > limit { throw crossed(known) }
    }

    func nextPage(fitting size: CGSize) throws -> FormattedPage? {
        guard let page = try stream.nextPage(fitting: size) else { return nil }
        pages += 1
        if pages > limit { throw crossed(nil) }
        return page
    }

    var fractionDone: Double? { stream.fractionDone }

    private func crossed(_ known: Int?) -> PrintError {
        JobLimits.crossed(LimitOptions.maxPages, path: path, known.map { "the document has \($0) pages, more than the limit of \(limit)" } ?? "the document runs past \(limit) pages, its limit")
    }
}
