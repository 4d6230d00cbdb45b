import Foundation
import CUPSLibrary
import HandlerSupport

/// Raster streams: Apple raster (what an iPhone sends), PWG raster (driverless printers) and
/// CUPS raster, read by libcups. Each raster page becomes a page of its own size (its pixels at
/// its resolution) holding one image, stored losslessly in the stream's colour space; the pages
/// are then placed like a PDF's (a paper or scaling asked for puts them on the job's paper).
public struct RasterHandler: ContentHandler {
    public let name = "raster"
    public let contentTypes = ["com.apple.urf", "org.pwg.raster", "org.cups.raster"]

    public init() {}

    /// Reads `settings.placement`: the pixel limit, the scaling, CUPS's percent of the
    /// printable area, and where a page sits when it does not fill the paper.
    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let limits = ImageLimits(maxPixels: settings.limits.pixelsPerImage)
        let formatter = try RasterPrintFormatter(input: input, limits: limits)
        formatter.apply(settings.placement, jobNamesPaper: settings.info.media != nil)
        return formatter
    }
}

/// Lays out the pages of a raster stream: one formatter page per raster page.
public final class RasterPrintFormatter: PlacedPagesFormatter {
    /// Reads every page of the raster stream at `input` into image objects, one page's rows at
    /// a time (the pixels of one row are in memory, the compressed pages until the job is
    /// written, as for images).
    public convenience init(input: PrintInput) throws { try self.init(input: input, limits: ImageLimits()) }

    package init(input: PrintInput, limits: ImageLimits) throws {
        let document = try QPDFDocument()
        let reader = try RasterReader(path: input.path)
        var declared = 0
        while let header = reader.nextPage() {
            if reader.pageNumber == 1 { declared = header.totalPageCount }
            try RasterPage.add(header, from: reader, to: document, limits: limits)
        }
        try RasterPage.checkEnd(of: reader, declared: declared)
        super.init(document: document)
    }
}
