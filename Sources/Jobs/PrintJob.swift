import Foundation
import Logging
import PageLayout
import PrintGraphics
import PDFOutput
import PrintModel
import PrintOptions
import PrintSupport

/// What a finished job did.
public struct JobReport: Sendable {
    /// Logical pages laid out (counted), in the last pass.
    public var pagesLaidOut = 0
    /// Logical pages drawn, over all copies.
    public var pagesDrawn = 0
    /// Physical sheets written.
    public var sheetsWritten = 0
    /// Whether the document was laid out once just to count its pages before drawing.
    public var countedBeforeDrawing = false
    /// Bytes of output.
    public var bytesWritten = 0
    /// The paper the job was laid out on (the job's, the document's, the queue's or the locale's).
    public var paper: PrintPaper?
}

/// Progress of a running job.
public struct JobProgress: Sendable {
    /// The page (from 1) just finished.
    public var page: Int
    /// The expected page count: exact when counted, else estimated, else nil.
    public var estimatedPages: Int?
    public var isEstimate: Bool
}

/// Runs a page renderer into a document: pages are laid out one at a time, pages outside the
/// page ranges are counted but not drawn, copies are collated, and the output is written
/// atomically (or streamed to standard output).
public final class PrintJob {
    public let renderer: PrintPageRenderer
    public let info: PrintInfo
    public let paper: PrintPaper
    public var metadata: DocumentMetadata
    /// Called after each page is done.
    public var progress: ((JobProgress) -> Void)?
    /// Drawn on each side of the sheet (a header and footer that number sides); the pages then
    /// go onto sides through the assembler even one to a side.
    public var sheetDecoration: SheetDecoration?
    /// The rendering intent the output's pages are drawn in wherever their content names none
    /// (PDF's `ri`, for a printer or a raster renderer that converts their colours); nil or
    /// `auto` leave it to them. The pages then go through the assembler, which writes it.
    public var renderingIntent: RenderingIntent?
    var logger = Logger(label: "swiftprint.job")

    public init(renderer: PrintPageRenderer, info: PrintInfo, paper: PrintPaper, metadata: DocumentMetadata? = nil) {
        self.renderer = renderer
        self.info = info
        self.paper = paper
        self.metadata = metadata ?? .fromEnvironment(title: info.jobName)
    }

    /// Writes the document as PDF to `destination`.
    ///
    /// With n-up, a booklet, a page set, reverse order, mirroring, uncollated copies or two-sided
    /// output, the pages drawn are logical pages that the assembler puts onto sides at the
    /// object level (`SheetPlan`), copies included; otherwise each page is a sheet.
    ///
    /// The job holds `FontEngineLock` throughout: jobs in one process write one at a time.
    @discardableResult
    public func writePDF(to destination: OutputDestination) throws -> JobReport {
        try FontEngineLock.held { try writeHoldingFontEngines(to: destination) }
    }

    private func writeHoldingFontEngines(to destination: OutputDestination) throws -> JobReport {
        try Installation.checkData()
        let copies = max(1, info.copies ?? 1)
        let twoSided = info.duplex?.isTwoSided ?? false
        if let count = info.sheets.photosPerSheet, SheetOptions.photoGridShapes[count] == nil {
            throw PrintError(.invalidOption, "a photo grid of \(count) is not one it makes (\(SheetOptions.photoGridCounts.map(String.init).joined(separator: ", ")))",
                             option: PlacementOptions.photosPerSheet.name)
        }
        if info.sheets.isPhotoGrid, (info.sheets.numberUp ?? 1) > 1 || info.sheets.booklet == true {
            throw PrintError(.invalidOption, "a photo grid is a layout of its own: it cannot be combined with pages per side (number-up) or a booklet",
                             option: PlacementOptions.photosPerSheet.name)
        }
        let imposing = !info.sheets.isNeutral || twoSided || (info.sheets.collate == false && copies > 1) || sheetDecoration != nil
        return try writeSheets(to: OutputFile(destination), copies: imposing ? 1 : copies, imposing: imposing)
    }

    /// Lays out and draws the pages in the page ranges, `copies` times (collated), into
    /// `output`; when `imposing`, through the assembler, which puts them onto sides.
    private func writeSheets(to output: OutputFile, copies: Int, imposing: Bool) throws -> JobReport {
        renderer.setPaper(paper)
        var report = JobReport()
        report.paper = paper
        if renderer.needsPageCountBeforeDrawing {
            logger.debug("laying the document out once to count its pages")
            renderer.knownPageCount = try renderer.countPages()
            report.countedBeforeDrawing = true
        }
        renderer.prepare(forDrawingPages: Self.pagesDrawn(by: info.pageRanges ?? .all, of: renderer.knownPageCount))
        let writer = try makeWriter(output: output, imposing: imposing)
        for _ in 0..<copies {
            report.pagesLaidOut = 0
            let paginator = try Paginator(renderer: renderer, ranges: info.pageRanges ?? .all)
            while let page = try paginator.next() {
                report.pagesLaidOut = page.number
                if let drawn = page.drawn {
                    if drawn.startsDocument, report.pagesDrawn > 0 { writer.documentStarts(atPage: report.pagesDrawn) }
                    try draw(drawn, into: writer)
                    report.pagesDrawn += 1
                }
                if let progress {
                    let total = renderer.knownPageCount
                    let estimate = total ?? paginator.fractionDone.flatMap { $0 > 0.02 ? Int((Double(page.number) / $0).rounded()) : nil }
                    progress(JobProgress(page: page.number, estimatedPages: estimate, isEstimate: total == nil))
                }
            }
        }
        return try finish(writer, output: output, report: report)
    }

    /// The indexes (from 0) of the pages a job with `ranges` draws, from the first it asks for to
    /// the last, within `pageCount` when it is known (else open: `Int.max`), as UIKit's
    /// `prepare(forDrawingPages:)` is given them.
    static func pagesDrawn(by ranges: PageRanges, of pageCount: Int?) -> Range<Int> {
        let first = (ranges.ranges.first?.lowerBound ?? 1) - 1
        let end = min(ranges.lastPage, pageCount ?? Int.max)
        return first..<max(first, end)
    }

    /// The writer for this job, given its plan when it is made: the assembler's when content is
    /// placed by reference, pages go onto sides or a rendering intent is written, else cairo's
    /// alone.
    private func makeWriter(output: OutputFile, imposing: Bool) throws -> SheetWriter {
        let gray = info.outputType == .grayscale || info.outputType == .photoGrayscale
        guard renderer.placesContent || imposing || renderingIntent?.pdfName != nil else {
            return try PDFWriter(output: output, metadata: metadata, fonts: renderer.fonts, grayscale: gray)
        }
        let plan = imposing ? SheetImposition(info: info, paper: paper.paperSize, decoration: sheetDecoration, printableArea: paper.printableRect) : nil
        return try AssemblingPDFWriter(output: output, metadata: metadata, fonts: renderer.fonts, grayscale: gray, intent: renderingIntent,
                                       imposition: plan)
    }

    /// Draws one laid-out page on a sheet of its own: its paper, or in the photo grid the size of
    /// a cell (the plan puts it in its cell).
    private func draw(_ page: LaidOutPage, into writer: SheetWriter) throws {
        let cell = info.sheets.isPhotoGrid
            ? info.sheets.photosPerSheet.flatMap { SheetPlan.photoCell(0, count: $0, gutter: info.sheets.photoGutter, in: paper.printableRect) } : nil
        let sheetPaper = cell.map { PrintPaper(media: paper.media).resized(to: $0.size) } ?? self.sheetPaper(for: page)
        let context = writer.beginSheet(size: sheetPaper.paperSize)
        try context.withSavedState { try renderer.draw(page, on: sheetPaper, context: context) }
        try writer.endSheet()
    }

    /// Ends the output, or abandons it with the reason when nothing was drawn.
    private func finish(_ writer: SheetWriter, output: OutputFile, report: JobReport) throws -> JobReport {
        var report = report
        guard report.pagesDrawn > 0 else {
            output.abandon()
            if report.pagesLaidOut == 0 { throw PrintError(.noContent, "the document has no pages") }
            throw PrintError(.invalidOption, "the page ranges \(info.pageRanges ?? .all) select none of the document's \(report.pagesLaidOut) pages")
        }
        do { try writer.finish() } catch { output.abandon(); throw error }
        report.sheetsWritten = writer.sheetsWritten
        report.bytesWritten = output.bytesWritten
        return report
    }

    /// The paper for a page: the job's, unless the page asks for its own size or, when the job
    /// leaves orientation open, for a turn.
    private func sheetPaper(for page: LaidOutPage) -> PrintPaper {
        for formatted in page.formatterPages.values {
            switch formatted.sheet {
            case .jobPaper: continue
            case .size(let size): return paper.resized(to: size)
            case .paper(let size, let margins):
                return PrintPaper(media: .custom(points: size), orientation: size.width > size.height ? .landscape : .portrait, margins: margins)
            case .orientation(let o): return info.orientation == nil ? paper.turned(to: o) : paper
            }
        }
        return paper
    }
}
