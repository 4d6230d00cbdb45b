import Foundation
import PDFObjects
import PrintGraphics
import PrintModel
import PrintOptions

/// Lays out the pages of a document held as PDF objects (a PDF file, or raster pages stored as
/// images): one formatter page per page, placed by reference through the object-level
/// assembler, never redrawn.
///
/// Each page keeps its own size unless `scaling` is set; then pages are scaled onto the job's
/// paper, and a page whose orientation differs turns the sheet (when the job sets no
/// orientation) rather than the page.
open class PlacedPagesFormatter: PrintFormatter {
    /// Nil: each page is printed at its own size on a sheet of that size. Otherwise pages are
    /// scaled onto the job's paper (`auto` means `auto-fit`).
    public var scaling: PrintScaling?
    /// Where pages go on the sheet when they do not fill it.
    public var position: ContentPosition = .center
    /// CUPS's `scaling`: pages fit the printable area and are drawn at this percent of that
    /// size, whatever `scaling` says (nil: not asked; needs `scaling` set to reach the paper).
    public var percentOfArea: Double?
    /// The number of pages in the document.
    public var documentPageCount: Int { document.pageCount }

    package let document: QPDFDocument

    public override var placesContent: Bool { true }

    package init(document: QPDFDocument) {
        self.document = document
        super.init()
    }

    /// Takes the job's placement: a paper, scaling or position asked for puts pages on the job's
    /// paper; otherwise each page keeps its size (and so has nowhere to move).
    package func apply(_ placement: PlacementSettings, jobNamesPaper: Bool) {
        if placement.scaling != nil || placement.percentOfArea != nil || placement.position != nil || jobNamesPaper {
            scaling = placement.scaling ?? .auto
        }
        percentOfArea = placement.percentOfArea
        if let position = placement.position { self.position = position }
    }

    open override func makePageStream() throws -> FormattedPageStream {
        IndexedPageStream(count: document.pageCount) { [self] index in
            PlacedPage(formatter: self, content: try PlacedContent(page: index, of: document))
        }
    }

    struct PlacedPage: FormattedPage {
        let formatter: PlacedPagesFormatter
        let content: PlacedContent

        var sheet: SheetRequest {
            guard formatter.scaling != nil else { return .size(content.naturalSize) }
            let s = content.naturalSize
            return .orientation(s.width > s.height ? .landscape : .portrait)
        }

        func draw(in context: GraphicsContext, rect: CGRect) throws {
            guard let scaling = formatter.scaling else {
                // At its own size, the page is the sheet.
                let paper = context.paperRect ?? CGRect(origin: .zero, size: content.naturalSize)
                try context.place(content, in: paper)
                return
            }
            // The sheet turns to a landscape page unless the job fixed its orientation; then the
            // page turns instead, so that it fits the paper better.
            try context.place(content, size: content.naturalSize, in: rect, scaling: scaling,
                              percentOfArea: formatter.percentOfArea, position: formatter.position, turnToFit: true)
        }
    }
}
