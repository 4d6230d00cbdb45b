import Foundation
import HandlerSupport

/// Turns an image file of a format that must be decoded (GIF, TIFF, WebP, HEIF, AVIF, JPEG XL,
/// BMP) or drawn
/// (SVG) into a PDF of one page per image: the image object filling a page one point per pixel,
/// or the SVG drawn as vectors at its size. `swiftprint-image` runs it in its own process, so
/// that these libraries load only for jobs that need them, and untrusted files are parsed
/// outside the job's process.
package enum ImageDecoding {
    /// Writes the PDF to `output` and returns each page's resolution in pixels per inch, when
    /// the file states one (pages are one point per pixel; SVG pages are in points, 72).
    package static func convert(path: String, allGIFFrames: Bool, limits: ImageLimits, output: String) throws -> [Double?] {
        let images: [DecodedImage]
        let head = ImageFormat.head(of: path)
        let brands = Set(ImageFormat.brands(head: head))
        switch ImageFormat(head: head) {
        case .gif: images = try GIFDecoder.open(path: path, allFrames: allGIFFrames, limits: limits)
        case .tiff: images = try TIFFDecoder.open(path: path, limits: limits)
        case .webp: images = [try WebPDecoder.open(path: path, limits: limits)]
        // AVIF by libavif (its sequences libheif cannot read); HEIC by libheif.
        case .heif where !brands.isDisjoint(with: ["avif", "avis"]):
            let file = try AVIFFile(path: path, sequence: brands.contains("avis"), limits: limits)
            return try convertFrames(of: file, allFrames: allGIFFrames, kind: "AVIF animation", limits: limits, output: output)
        case .heif: images = [try HEIFDecoder.open(path: path, limits: limits)]
        case .jxl: return try convertFrames(of: JXLFile(path: path, limits: limits), allFrames: allGIFFrames, kind: "JPEG XL animation", limits: limits, output: output)
        case .bmp: images = [try BMPDecoder.open(path: path, limits: limits)]
        case .svg:
            let svg = try SVGDocument(path: path)
            let out = try OutputFile(.file(output))
            let writer = try PDFWriter(output: out, metadata: DocumentMetadata(), fonts: FontSystem())
            let ctx = writer.beginSheet(size: svg.naturalSize)
            try svg.draw(in: ctx, rect: CGRect(origin: .zero, size: svg.naturalSize))
            try writer.endSheet()
            try writer.finish()
            return [72]
        case .jpeg, .png, nil:
            // JPEG and PNG are read in the job's own process; anything else is not an image.
            throw PrintError(.unknownFormat, path: path, ImageFormat.unknownMessage)
        }
        let document = try QPDFDocument()
        for image in images { try add(image, to: document) }
        try write(document, to: output)
        return images.map(\.ppi)
    }

    /// An animation's first frame, or every frame when asked (as GIF's), decoded one at a time as
    /// they are written (libjxl says how many only by decoding them).
    static func convertFrames(of file: some FrameSequence, allFrames: Bool, kind: String, limits: ImageLimits, output: String) throws -> [Double?] {
        let document = try QPDFDocument()
        var count = 0
        while count == 0 || (allFrames && file.isAnimated), let pixels = try file.nextFrame() {
            count += 1
            try limits.check(images: count, kind: kind, path: file.path)
            try add(DecodedImage(width: pixels.width, height: pixels.height) { pixels }, to: document)
        }
        guard count > 0 else { throw PrintError(.invalidInput, path: file.path, "the \(kind) has no frames") }
        try write(document, to: output)
        return Array(repeating: nil, count: count)
    }

    /// `image` as a page of its own, one point a pixel.
    static func add(_ image: DecodedImage, to document: QPDFDocument) throws {
        let id = try image.addObject(to: document)
        let size = CGSize(width: image.width, height: image.height)
        try document.appendSheet(size: size, placements: [(object: id, transform: PDFMatrix(scaleX: size.width, y: size.height), clip: nil)])
    }

    static func write(_ document: QPDFDocument, to output: String) throws {
        let out = try OutputFile(.file(output))
        try document.write(to: out)
        try out.commit()
    }
}
