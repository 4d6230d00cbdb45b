import CCupsShim
import Foundation
import PrintModel

/// A raster page's header as Swift values: what a reader needs to store its pixels and what a
/// writer sets for the printer. Read from and written to libcups's `cups_page_header2_t`.
package struct RasterPageHeader: Sendable {
    /// How pixels are coloured, as CUPS numbers them (`cups_cspace_t`); the ones swiftprint
    /// reads and writes are named.
    package enum ColorSpace: Equatable, Sendable {
        /// Luminance, 0 black (CUPS's W and PWG's sgray).
        case gray
        /// Black ink, 0 white (CUPS's K and PWG's black).
        case black
        /// Red, green, blue (CUPS's RGB and PWG's srgb).
        case rgb
        case adobeRGB
        case cmyk
        case other(UInt32)

        init(cups value: UInt32) {
            switch value {
            case CUPS_CSPACE_W.rawValue, CUPS_CSPACE_SW.rawValue: self = .gray
            case CUPS_CSPACE_K.rawValue: self = .black
            case CUPS_CSPACE_RGB.rawValue, CUPS_CSPACE_SRGB.rawValue: self = .rgb
            case CUPS_CSPACE_ADOBERGB.rawValue: self = .adobeRGB
            case CUPS_CSPACE_CMYK.rawValue: self = .cmyk
            default: self = .other(value)
            }
        }

        /// Colour components per pixel, when known.
        package var components: Int? {
            switch self {
            case .gray, .black: 1
            case .rgb, .adobeRGB: 3
            case .cmyk: 4
            case .other: nil
            }
        }
    }

    /// Pixels across and down.
    package var width: Int
    package var height: Int
    package var bitsPerColor: Int
    package var bitsPerPixel: Int
    package var bytesPerLine: Int
    package var colorSpace: ColorSpace
    /// Whether a pixel's components follow each other (CUPS_ORDER_CHUNKED), the one order PWG
    /// and Apple raster have.
    package var isChunked: Bool
    /// Dots per inch across and down.
    package var resolution: (x: Int, y: Int)
    /// Pages in the whole stream, when the writer said (PWG's TotalPageCount; Apple raster's
    /// file header); 0 when unknown.
    package var totalPageCount: Int
    /// -1 when the back side was mirrored across (left-right) or along (top-bottom) the feed.
    package var crossFeedTransform: Int
    package var feedTransform: Int

    init(_ h: cups_page_header2_t) {
        width = Int(h.cupsWidth); height = Int(h.cupsHeight)
        bitsPerColor = Int(h.cupsBitsPerColor); bitsPerPixel = Int(h.cupsBitsPerPixel)
        bytesPerLine = Int(h.cupsBytesPerLine)
        colorSpace = ColorSpace(cups: h.cupsColorSpace.rawValue)
        isChunked = h.cupsColorOrder == CUPS_ORDER_CHUNKED
        resolution = (Int(h.HWResolution.0), Int(h.HWResolution.1))
        totalPageCount = Int(h.cupsInteger.0)
        crossFeedTransform = Int(Int32(bitPattern: h.cupsInteger.1))
        feedTransform = Int(Int32(bitPattern: h.cupsInteger.2))
    }
}

/// A raster stream being read: CUPS raster (v1, v2, v3, either byte order), PWG raster and
/// Apple raster, decoded by libcups (run lengths, byte order). The one owner of its
/// `cups_raster_t` and of the file it reads.
package final class RasterReader {
    private let raster: OpaquePointer
    private let fd: Int32
    package let path: String
    /// Pages whose header was read, from 1.
    package private(set) var pageNumber = 0

    package init(path: String) throws {
        try LibCUPS.load()
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw PrintError.system(.inputUnreadable, path: path, "cannot open", errno: errno) }
        guard let raster = spcups_cupsRasterOpen(fd, CUPS_RASTER_READ) else {
            let reason = LibCUPS.rasterError ?? "no raster sync word"
            close(fd)
            throw PrintError(.invalidInput, path: path, "not a raster stream libcups can read: \(reason)")
        }
        self.raster = raster
    }

    deinit {
        spcups_cupsRasterClose(raster)
        close(fd)
    }

    /// The next page's header, or nil at the end of the stream.
    package func nextPage() -> RasterPageHeader? {
        var header = cups_page_header2_t()
        guard spcups_cupsRasterReadHeader2(raster, &header) != 0 else { return nil }
        pageNumber += 1
        return RasterPageHeader(header)
    }

    /// Reads the current page's next row (its header's `bytesPerLine`) into `row`; 16-bit
    /// samples come in this machine's byte order. `rowNumber` (from 1) names the row in errors.
    package func readRow(into row: UnsafeMutableRawBufferPointer, rowNumber: Int) throws {
        let count = UInt32(row.count)
        let base = row.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard spcups_cupsRasterReadPixels(raster, base, count) == count else {
            throw PrintError(.invalidInput, path: path, "page \(pageNumber) is truncated: the stream ends in row \(rowNumber)")
        }
    }
}

/// A raster stream being written as PWG or Apple raster through libcups (which compresses and
/// orders the bytes), into a sink. The one owner of its `cups_raster_t`.
package final class RasterWriter {
    package enum Format: Sendable { case pwg, apple }

    /// Where libcups's bytes go: the sink, reached from C through the stream's context pointer.
    private final class Sink {
        let write: (UnsafeRawBufferPointer) -> Void
        init(_ write: @escaping (UnsafeRawBufferPointer) -> Void) { self.write = write }
    }

    private var raster: OpaquePointer?
    private let sink: Sink

    /// `write` takes every byte of the stream, in order.
    package init(format: Format, write: @escaping (UnsafeRawBufferPointer) -> Void) throws {
        try LibCUPS.load()
        sink = Sink(write)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let callback: cups_raster_iocb_t = { context, buffer, length in
            guard let context, let buffer else { return -1 }
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().write(UnsafeRawBufferPointer(start: buffer, count: length))
            return length
        }
        guard let raster = spcups_cupsRasterOpenIO(callback, context, format == .pwg ? CUPS_RASTER_WRITE_PWG : CUPS_RASTER_WRITE_APPLE) else {
            throw PrintError(.outputFailed, "cannot start the raster stream: \(LibCUPS.rasterError ?? "libcups failed")")
        }
        self.raster = raster
    }

    deinit { if let raster { spcups_cupsRasterClose(raster) } }

    /// Starts a page: a PWG header made by libcups for `type` (`srgb_8`, `sgray_16`, …), the
    /// media of `size`, the resolution, and two-sided printing's back-side transform; returns
    /// the header as written, which says how the back is to be mirrored. One copy: copies are
    /// sheets of the stream.
    package func beginPage(type: String, size: CGSize, resolution: (x: Int, y: Int), sides: String,
                           sheetBack: String?, isBack: Bool, totalPages: Int) throws -> RasterPageHeader {
        var header = cups_page_header2_t()
        // pwg_media_t sizes are in hundredths of millimetres.
        let media = spcups_pwgMediaForSize(Int32((size.width * 2540 / 72).rounded()), Int32((size.height * 2540 / 72).rounded()))
        guard let media, spcups_cupsRasterInitPWGHeader(&header, media, type, Int32(resolution.x), Int32(resolution.y), sides,
                                                         isBack ? sheetBack : nil) != 0 else {
            throw PrintError(.invalidOption, "libcups cannot make a \(type) page header: \(LibCUPS.rasterError ?? "unknown media or type")")
        }
        // The exact size (libcups rounds to its media's), so that a page of any size keeps it.
        header.cupsWidth = UInt32((size.width * Double(resolution.x) / 72).rounded())
        header.cupsHeight = UInt32((size.height * Double(resolution.y) / 72).rounded())
        header.cupsBytesPerLine = (header.cupsWidth * header.cupsBitsPerPixel + 7) / 8
        header.PageSize = (UInt32(size.width.rounded()), UInt32(size.height.rounded()))
        header.cupsPageSize = (Float(size.width), Float(size.height))
        header.NumCopies = 1
        header.cupsInteger.0 = UInt32(totalPages)
        guard spcups_cupsRasterWriteHeader2(raster, &header) != 0 else {
            throw PrintError(.outputWriteFailed, "cannot write a raster page header: \(LibCUPS.rasterError ?? "write failed")")
        }
        return RasterPageHeader(header)
    }

    /// Writes rows of the current page (whole rows, 16-bit samples in this machine's order).
    package func write(_ rows: UnsafeRawBufferPointer) throws {
        let base = UnsafeMutablePointer(mutating: rows.baseAddress!.assumingMemoryBound(to: UInt8.self))
        guard spcups_cupsRasterWritePixels(raster, base, UInt32(rows.count)) == UInt32(rows.count) else {
            throw PrintError(.outputWriteFailed, "cannot write raster rows: \(LibCUPS.rasterError ?? "write failed")")
        }
    }

    /// Ends the stream (libcups writes what it still holds).
    package func finish() throws {
        if let raster { spcups_cupsRasterClose(raster) }
        raster = nil
    }
}

extension LibCUPS {
    /// libcups's last raster error, trimmed, if it recorded one.
    static var rasterError: String? {
        guard let text = spcups_cupsRasterErrorString().map({ String(cString: $0) }) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
