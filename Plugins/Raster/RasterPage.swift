import Foundation
import CUPSLibrary
import HandlerSupport

/// One raster page turned into a PDF page: its header checked, its rows stored as an image
/// object (Flate) in its colour space, the page sized by its pixels and resolution.
enum RasterPage {
    /// Resolutions outside this range are not a printer's (PWG allows 1 to 2^32; a stream
    /// claiming 0 or a million dpi is damaged).
    static let resolutions = 1...9600

    static func add(_ header: RasterPageHeader, from reader: RasterReader, to document: QPDFDocument, limits: ImageLimits) throws {
        let page = reader.pageNumber, path = reader.path
        func invalid(_ why: String) -> PrintError { PrintError(.invalidInput, path: path, "page \(page): \(why)") }
        guard header.width > 0, header.height > 0 else { throw invalid("the header declares no pixels (\(header.width) × \(header.height))") }
        do { try limits.check(width: header.width, height: header.height, path: path) } catch let error as PrintError {
            throw invalid(error.message)
        }
        guard resolutions.contains(header.resolution.x), resolutions.contains(header.resolution.y) else {
            throw invalid("the header declares \(header.resolution.x) × \(header.resolution.y) dpi")
        }
        guard header.isChunked else { throw invalid("its colours are in bands or planes; only interleaved (chunked) pixels are read") }
        guard let components = header.colorSpace.components else {
            throw invalid("colour space \(header.colorSpace) is not one swiftprint reads (grey, black, RGB, Adobe RGB, CMYK)")
        }
        let bits = header.bitsPerColor
        guard [1, 8, 16].contains(bits), bits == 8 || bits == 16 || components == 1,
              header.bitsPerPixel == bits * components, header.bytesPerLine == (header.width * header.bitsPerPixel + 7) / 8 else {
            throw invalid("\(bits) bits per colour, \(header.bitsPerPixel) per pixel and \(header.bytesPerLine) bytes per row do not fit together")
        }
        var info = ImageObjectInfo(width: header.width, height: header.height,
                                   colorModel: components == 1 ? .gray : components == 3 ? .rgb : .cmyk, bitsPerComponent: bits)
        if header.colorSpace == .adobeRGB { info.iccProfile = AdobeRGB.profile }
        // Rows filtered "Up" compress at zlib's level 3 smaller than plain rows at its default
        // level, in half the time (a 10-page Apple raster job: 15.6 MB in 0.64 s, against
        // 14.8 MB in 1.14 s at level 6 and 20 MB unfiltered).
        info.pngPredictor = true
        info.compressionLevel = 3
        let image = try document.addImage(info: info) { sink in
            var row = [UInt8](repeating: 0, count: header.bytesPerLine), above = row
            var filtered = [UInt8](repeating: 0, count: header.bytesPerLine + 1)
            for y in 1...header.height {
                try row.withUnsafeMutableBytes { try reader.readRow(into: $0, rowNumber: y) }
                if bits == 16 { swapToBigEndian(&row) }
                // Black is ink: 0 is white, the opposite of PDF's grey.
                if header.colorSpace == .black { for i in row.indices { row[i] = ~row[i] } }
                PNGRowFilter.up(row, above: above, into: &filtered)
                try filtered.withUnsafeBytes { try sink.writeColor($0) }
                swap(&row, &above)
            }
        }
        // The page is the image at its resolution; the image's unit square is scaled to it.
        let size = CGSize(width: Double(header.width) * 72 / Double(header.resolution.x),
                          height: Double(header.height) * 72 / Double(header.resolution.y))
        try document.appendSheet(size: size, placements: [(image, PDFMatrix(scaleX: size.width, y: size.height), nil)])
    }

    /// After the last page: a stream that said how many pages it holds must hold them all (a
    /// stream cut off inside a page header ends early, which libcups cannot tell from its end).
    static func checkEnd(of reader: RasterReader, declared: Int) throws {
        let read = reader.pageNumber
        guard read > 0 else {
            throw PrintError(.invalidInput, path: reader.path, "the raster stream holds no page (its first page header is missing or cut off)")
        }
        // Writers that do not know the count say 0 (or, in Apple raster, all ones).
        if declared > read, declared < Int(Int32.max) {
            throw PrintError(.invalidInput, path: reader.path, "the raster stream ends after page \(read) of the \(declared) it declares")
        }
    }

    /// 16-bit samples as libcups hands them (this machine's order) to PDF's (big-endian).
    static func swapToBigEndian(_ row: inout [UInt8]) {
        guard UInt16(1).littleEndian == 1 else { return }
        row.withUnsafeMutableBufferPointer { b in
            var i = 0
            while i + 1 < b.count { b.swapAt(i, i + 1); i += 2 }
        }
    }
}
