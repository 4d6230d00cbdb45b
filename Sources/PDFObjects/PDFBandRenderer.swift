import CPDFRepair
import Foundation
import PrintModel
import PrintSupport

/// A PDF opened by poppler's own rasteriser (Splash, in libSwiftPrintPDFRepair.so), which draws
/// a page a band of rows at a time and reads each image row by row through its scaler: raster
/// output of pages that draw images, which poppler-glib's cairo device decodes whole first (a
/// 24 MP photo: 96 MB; 100 MP: 400 MB). The one owner of its SPRPages. Not thread-safe: poppler's
/// font engine is shared, so calls are made under the caller's font lock.
package final class PDFBandRenderer {
    private static let loaded = PDFRepair.entry("draw raster pages that hold images") { spr_page_renderer_load($0, $1)?.pointee }

    private let functions: spr_page_renderer
    private let pages: OpaquePointer
    /// Each page's large photos, scaled to their size on the sheet before its bands are drawn.
    private let scratch: Int32

    /// Opens the PDF at `path`; without `antialias` edges and glyphs are drawn in whole dots.
    /// Pages are drawn in sRGB, or, given `canvasProfile` (an RGB ICC profile's bytes), in its
    /// colours, every colour managed on its way there (DeviceRGB taken as sRGB): a wide-gamut
    /// photo keeps what sRGB cannot hold.
    package init(path: String, antialias: Bool, canvasProfile: Data? = nil) throws {
        let functions = try Self.loaded.get(), scratch = try TemporaryFiles.makeUnlinked(prefix: "swiftprint-scaled-", for: "the page's scaled photos")
        self.functions = functions
        self.scratch = scratch
        var error: UnsafeMutablePointer<CChar>?
        let opened: OpaquePointer?
        if let canvasProfile {
            opened = canvasProfile.withUnsafeBytes { functions.open(path, antialias ? 1 : 0, scratch, $0.baseAddress, $0.count, &error) }
        } else {
            opened = functions.open(path, antialias ? 1 : 0, scratch, nil, 0, &error)
        }
        guard let pages = opened else {
            close(scratch)
            throw PrintError(.invalidInput, path: path, QPDFDocument.take(error))
        }
        self.pages = pages
    }

    deinit {
        functions.close(pages)
        close(scratch)
    }

    /// What `prepare` found on a page.
    package struct PagePlan {
        /// No large image is left that every band would read again: bands may be small.
        package var smallBands: Bool
        /// Some image is drawn smaller than its pixels, and was scaled once for the bands.
        package var scaledImages: Bool
    }

    /// Reads page `index`'s photos drawn smaller than their pixels once, scaled to the size
    /// they are drawn at, for its bands to draw from (a page of `width` × `height` pixels at
    /// `resolution`).
    package func prepare(page index: Int, resolution: (x: Int, y: Int), width: Int, height: Int) throws -> PagePlan {
        var error: UnsafeMutablePointer<CChar>?
        let plan = functions.prepare(pages, Int32(index), Double(resolution.x), Double(resolution.y), Int32(width), Int32(height), &error)
        guard plan >= 0 else {
            throw PrintError(.jobFailed, "page \(index + 1): cannot write its scaled photos to a temporary file in \(TemporaryFiles.folder): \(QPDFDocument.take(error))")
        }
        return PagePlan(smallBands: plan & 1 != 0, scaledImages: plan & 2 != 0)
    }

    /// The pixels of the largest image page `index` draws (or of its mask), none decoded; 0
    /// when it draws none.
    package func largestImagePixels(page index: Int) -> Double { functions.largestImage(pages, Int32(index)) }

    /// Draws rows `top ..< top + rows` of page `index`, a page of `width` × `height` pixels at
    /// `resolution` dots per inch, mirrored across and/or along when asked (the back of a
    /// two-sided sheet), and hands each row to `row` in order: `width` pixels of four bytes
    /// (blue, green, red, 255), as a cairo RGB24 row is laid out.
    package func render(page index: Int, resolution: (x: Int, y: Int), width: Int, height: Int, top: Int, rows: Int,
                        mirrorAcross: Bool, mirrorAlong: Bool, row: (UnsafeRawBufferPointer) throws -> Void) throws {
        var data: UnsafePointer<UInt8>?, stride = 0
        var error: UnsafeMutablePointer<CChar>?
        guard functions.render(pages, Int32(index), Double(resolution.x), Double(resolution.y), Int32(width), Int32(height),
                               Int32(top), Int32(rows), mirrorAcross ? 1 : 0, mirrorAlong ? 1 : 0, &data, &stride, &error) == 0,
              let data else {
            throw PrintError(.renderingFailed, "cannot draw page \(index + 1): \(QPDFDocument.take(error))")
        }
        for y in 0..<rows {
            try row(UnsafeRawBufferPointer(start: data + y * stride, count: width * 4))
        }
    }
}
