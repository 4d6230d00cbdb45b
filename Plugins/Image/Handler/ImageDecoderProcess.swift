import Foundation
import HandlerSupport
import ImageProtocol

/// Runs `swiftprint-image`, which decodes GIF, TIFF, WebP, HEIF, AVIF, JPEG XL and BMP files and draws SVG into
/// a PDF of one page per image. In a process of its own, the decoders' libraries (librsvg,
/// libheif, libtiff, gdk-pixbuf …) load only for jobs that need them — a one-line text job
/// starts in half the time — and untrusted files are parsed outside the job's process.
enum ImageDecoderProcess {
    /// Decodes `path`; returns the PDF (open, its scratch file already gone) and each page's
    /// pixels per inch when the file states them. The decoder is `$SWIFTPRINT_IMAGE_DECODER`, or
    /// found beside the running executable, or in /usr/local/libexec/swiftprint or
    /// /usr/libexec/swiftprint.
    static func run(path: String, allGIFFrames: Bool, limits: ImageLimits) throws -> (QPDFDocument, [Double?]) {
        let request = HelperRequest(input: path, task: ImageDecodingTask(allGIFFrames: allGIFFrames, maxPixels: limits.maxPixels,
                                                                                 maxImages: limits.maxImages))
        let (document, reply) = try HelperProgram.makePDF("swiftprint-image", environmentVariable: "SWIFTPRINT_IMAGE_DECODER",
                                                          doing: "decode this image", path: path, request: request, limits: limits.helper,
                                                          answer: ImageResolutions.self)
        return (document, reply.answer ?? [])
    }
}
