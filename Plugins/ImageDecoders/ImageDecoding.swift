import Foundation
import SwiftPrintCore

/// Turns an image file of a format that must be decoded (GIF, TIFF, WebP, HEIF, BMP) or drawn
/// (SVG) into a PDF of one page per image: the image object filling a page one point per pixel,
/// or the SVG drawn as vectors at its size. `swiftprint-image` runs it in its own process, so
/// that these libraries load only for jobs that need them, and untrusted files are parsed
/// outside the job's process.
package enum ImageDecoding {
    /// Writes the PDF to `output` and returns each page's resolution in pixels per inch, when
    /// the file states one (pages are one point per pixel; SVG pages are in points, 72).
    package static func convert(path: String, allGIFFrames: Bool, limits: ImageLimits, output: String) throws -> [Double?] {
        let head = [UInt8]((try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 4096)) ?? Data())
        let images: [DecodedImage]
        if head.starts(with: Array("GIF8".utf8)) {
            images = try GIFDecoder.open(path: path, allFrames: allGIFFrames, limits: limits)
        } else if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            images = try TIFFDecoder.open(path: path, limits: limits)
        } else if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            images = [try WebPDecoder.open(path: path, limits: limits)]
        } else if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            images = [try HEIFDecoder.open(path: path, limits: limits)]
        } else if head.starts(with: Array("BM".utf8)) {
            images = [try BMPDecoder.open(path: path, limits: limits)]
        } else if String(decoding: head, as: UTF8.self).contains("<svg") {
            let svg = try SVGDocument(path: path)
            let out = try OutputFile(.file(output))
            let writer = try PDFWriter(output: out, metadata: DocumentMetadata(), fonts: FontSystem())
            let ctx = writer.beginSheet(size: svg.naturalSize)
            try svg.draw(in: ctx, rect: CGRect(origin: .zero, size: svg.naturalSize))
            try writer.endSheet()
            try writer.finish()
            return [72]
        } else {
            throw PrintError(.unknownFormat, path: path, "not an image format swiftprint reads (JPEG, PNG, GIF, TIFF, WebP, BMP, HEIF, SVG)")
        }
        let document = try QPDFDocument()
        for image in images {
            let id = try image.addObject(to: document)
            let size = CGSize(width: image.width, height: image.height)
            try document.appendSheet(size: size, placements: [(object: id, transform: PDFMatrix(scaleX: size.width, y: size.height), clip: nil)])
        }
        let out = try OutputFile(.file(output))
        try document.write(to: out)
        try out.commit()
        return images.map(\.ppi)
    }
}
