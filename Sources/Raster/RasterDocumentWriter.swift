import CUPSLibrary
import Foundation
import PDFObjects
import PrintGraphics
import PrintModel
import PrintSupport

/// Writes a finished PDF as a PWG or Apple raster stream: each page (a sheet side, with n-up,
/// booklets, copies and the rest already in it) drawn by poppler at the printer's resolution
/// a band of rows at a time, turned into the raster type's samples row by row, and written
/// through libcups, which compresses it. Memory: a sheet of pixels at most, whatever the page's
/// images hold. Pages are drawn by poppler-glib's cairo device (a page without images in bands
/// on a canvas of a few rows), except a page with an image of more pixels than the sheet:
/// cairo's device decodes an image whole (a 24 MP photo: 96 MB; 100 MP: 400 MB), so such a page
/// is drawn by poppler's own rasteriser (`PDFBandRenderer`), which reads an image row by row
/// through its scaler. Colour-managed types (Adobe RGB, CMYK) are drawn by poppler's
/// rasteriser on every page, in Adobe RGB: cairo's device draws in sRGB, which would clip a
/// wide-gamut photo's colours before they reach a printer that can print them.
package struct RasterDocumentWriter {
    /// What it writes: the raster settings, as the raster helper is sent them.
    package let settings: RasterSettings
    /// Adobe RGB and CMYK output: the profile pages are drawn in (Adobe RGB), every colour
    /// managed on its way there; nil for sRGB, unmanaged.
    private var canvasProfile: Data?
    /// CMYK output: Little CMS's transform from the canvas's Adobe RGB to the inks, with the
    /// job's rendering intent.
    private var transform: ColorTransform?

    private var format: RasterWriter.Format { settings.format == .appleRaster ? .apple : .pwg }
    private var type: RasterType { settings.type }
    private var resolution: PrinterResolution { settings.resolution }
    private var duplex: PrintInfo.Duplex { settings.duplex }
    private var sheetBack: SheetBack { settings.sheetBack }

    /// The raster settings of `info` (`RasterSettings(info:)`). A CMYK profile that cannot be
    /// read or is not CMYK is refused here, before any document is read.
    package init(info: PrintInfo, cmykProfile: String? = nil, intent: RenderingIntent = .auto) throws {
        try self.init(settings: RasterSettings(info: info, cmykProfile: cmykProfile, intent: intent))
    }

    package init(settings: RasterSettings) throws {
        self.settings = settings
        switch settings.type {
        case .adobeRGB8, .adobeRGB16, .cmyk8, .cmyk16: canvasProfile = AdobeRGB.profile
        default: canvasProfile = nil
        }
        transform = try Self.transform(for: settings.type, from: canvasProfile, cmykProfile: settings.cmykProfile, intent: settings.intent)
    }

    /// Little CMS's transform for CMYK: from the canvas's colours (`canvas`) to the inks of
    /// `cmykProfile`, which CMYK output must name. Adobe RGB needs none: it is the canvas's.
    private static func transform(for type: RasterType, from canvas: Data?, cmykProfile: String?, intent: RenderingIntent) throws -> ColorTransform? {
        switch type {
        case .cmyk8, .cmyk16:
            guard let cmykProfile else {
                throw PrintError(.invalidOption, "\(type.rawValue) raster output needs the ICC profile of the printer's inks")
            }
            let bytes: Data
            do { bytes = try Data(contentsOf: URL(fileURLWithPath: cmykProfile)) } catch {
                throw PrintError(.inputUnreadable, path: cmykProfile, "cannot read the CMYK profile")
            }
            return try ColorTransform(from: canvas, toProfile: bytes, named: cmykProfile, output: type == .cmyk8 ? .cmyk8 : .cmyk16, intent: intent)
        default:
            return nil
        }
    }

    /// Draws every page of the PDF at `pdfPath` as raster into `sink`, calling `sheetWritten`
    /// with the sheet's number (from 1) once all its bytes are in the sink (the last after the
    /// stream has ended); returns the pages written.
    package func write(pdf pdfPath: String, to sink: @escaping (UnsafeRawBufferPointer) -> Void,
                       sheetWritten: (Int) throws -> Void) throws -> Int {
        let pdf = try PDFRasterizer(path: pdfPath)
        let writer = try RasterWriter(format: format, write: sink)
        var canvas: RasterCanvas?
        var bandRenderer: PDFBandRenderer?
        for index in 0..<pdf.pageCount {
            let size = pdf.pageSize(index)
            let isBack = duplex.isTwoSided && index % 2 == 1
            let header = try writer.beginPage(type: type.rawValue, size: size, resolution: (resolution.x, resolution.y),
                                              sides: duplex.ippSides, sheetBack: sheetBack.rawValue, isBack: isBack, totalPages: pdf.pageCount)
            let hasImages = pdf.pageHasImages(index)
            let rasteriser = hasImages || canvasProfile != nil
            if rasteriser, bandRenderer == nil {
                bandRenderer = try PDFBandRenderer(path: pdfPath, antialias: !drawsWholeDots, canvasProfile: canvasProfile)
            }
            if rasteriser, let renderer = bandRenderer, let plan = try rasteriserPlan(of: index, from: renderer, header: header) {
                canvas = nil
                try writeImageBands(of: index, from: renderer, plan: plan, header: header, to: writer)
            } else {
                // Without images in bands, on a canvas of a few rows (one sheet of text at 300
                // dpi: 2.6 MB, not 34); with images whole, as each band would decode them again.
                let rows = min(hasImages ? header.height : Self.bandRows, header.height)
                if canvas?.width != header.width || canvas?.height != rows {
                    canvas = nil  // the old canvas goes before the new one comes
                    canvas = try RasterCanvas(width: header.width, height: rows)
                }
                try writeBands(of: index, from: pdf, onto: canvas!, header: header, to: writer)
            }
            if index + 1 < pdf.pageCount { try sheetWritten(index + 1) }
        }
        try writer.finish()
        if pdf.pageCount > 0 { try sheetWritten(pdf.pageCount) }
        return pdf.pageCount
    }

    /// Rows of a band drawn without images.
    static let bandRows = 256

    /// The most bytes a band drawn by poppler's rasteriser may hold. Large photos are read once
    /// a page, before its bands, and scaled to their size on the sheet (`PDFBandRenderer
    /// .prepare`), so bands are small: a Letter sheet at 300 dpi in nine. Each band interprets
    /// the page again: a page of text in Adobe RGB took 1.65× as long in 1 MB bands.
    static let imageBandBytes = 4 << 20

    /// The same for a page whose photos were scaled for its bands: drawing such a photo again
    /// costs little, so its bands are smaller still (a 24 MP photo's page peaked 2.8 MB lower in
    /// 1 MB bands than in 4 MB, in the same time, byte for byte the same).
    static let scaledPhotoBandBytes = 1 << 20

    /// The same when a large image is left that each band reads again from its first row (one
    /// turned, masked or in a colour space that must be converted before it is scaled): few
    /// and large bands, a Letter or A4 page at 300 dpi (34–35 MB of pixels) in one.
    static let rereadImageBandBytes = 40 << 20

    /// At printer resolutions (300 dpi and up both ways) text and lines are drawn in whole
    /// dots, as Ghostscript's printer devices draw them: anti-aliasing's grey edges would only be
    /// halftoned by the printer, and they keep PWG's run-length compression from working (a page
    /// of text at 600 dpi: 15 MB without them, 35 MB with). Below that (previews, screens) edges
    /// are smoothed.
    var drawsWholeDots: Bool { min(resolution.x, resolution.y) >= 300 }

    /// Poppler's rasteriser draws page `index` in colour-managed output, and otherwise when the
    /// page draws an image of more pixels than the sheet or one drawn smaller than its pixels
    /// (then read once and scaled before the bands: `PDFBandRenderer.prepare`, whose plan this
    /// returns); nil leaves the page to cairo's device, which draws a page with small images
    /// whole, as it is.
    private func rasteriserPlan(of index: Int, from renderer: PDFBandRenderer, header: RasterPageHeader) throws -> PDFBandRenderer.PagePlan? {
        try FontEngineLock.held {
            let largest = renderer.largestImagePixels(page: index)
            let plan = try renderer.prepare(page: index, resolution: (resolution.x, resolution.y), width: header.width, height: header.height)
            return canvasProfile != nil || largest > Double(header.width) * Double(header.height) || plan.scaledImages ? plan : nil
        }
    }

    /// Page `index` drawn by poppler's rasteriser (see `rasteriserPlan`) in bands of at most
    /// `imageBandBytes` (`scaledPhotoBandBytes` when its photos were scaled for the bands,
    /// `rereadImageBandBytes` when `plan` leaves a large image to each band) and written row by
    /// row as the raster type's samples.
    private func writeImageBands(of index: Int, from renderer: PDFBandRenderer, plan: PDFBandRenderer.PagePlan, header: RasterPageHeader,
                                 to writer: RasterWriter) throws {
        var encoder = RasterRowEncoder(type: type, width: header.width, transform: transform)
        var row = [UInt8](repeating: 0, count: header.bytesPerLine)
        let bandBytes = !plan.smallBands ? Self.rereadImageBandBytes : plan.scaledImages ? Self.scaledPhotoBandBytes : Self.imageBandBytes
        let bandRows = max(1, min(header.height, bandBytes / max(1, header.width * 4)))
        for top in stride(from: 0, to: header.height, by: bandRows) {
            try FontEngineLock.held {
                try renderer.render(page: index, resolution: (resolution.x, resolution.y), width: header.width, height: header.height,
                                    top: top, rows: min(bandRows, header.height - top),
                                    mirrorAcross: header.crossFeedTransform < 0, mirrorAlong: header.feedTransform < 0) { pixels in
                    row.withUnsafeMutableBytes { out in encoder.encode(pixels.baseAddress!.assumingMemoryBound(to: UInt32.self), into: out) }
                    try row.withUnsafeBytes { try writer.write($0) }
                }
            }
        }
    }

    /// Page `index` drawn band by band (the canvas's height at a time) and written row by row
    /// as the raster type's samples (`RasterRowEncoder`).
    private func writeBands(of index: Int, from pdf: PDFRasterizer, onto canvas: RasterCanvas, header: RasterPageHeader,
                            to writer: RasterWriter) throws {
        var encoder = RasterRowEncoder(type: type, width: header.width, transform: transform)
        var row = [UInt8](repeating: 0, count: header.bytesPerLine)
        for top in stride(from: 0, to: header.height, by: canvas.height) {
            try pdf.render(page: index, onto: canvas, resolution: (resolution.x, resolution.y), mirrorAcross: header.crossFeedTransform < 0,
                           mirrorAlong: header.feedTransform < 0, band: (top, header.height), antialias: !drawsWholeDots)
            for y in 0..<min(canvas.height, header.height - top) {
                row.withUnsafeMutableBytes { out in canvas.withRow(y) { encoder.encode($0, into: out) } }
                try row.withUnsafeBytes { try writer.write($0) }
            }
        }
    }
}
