import Foundation
import HandlerSupport

/// Runs `swiftprint-image`, which decodes GIF, TIFF, WebP, HEIF and BMP files and draws SVG into
/// a PDF of one page per image. In a process of its own, the decoders' libraries (librsvg,
/// libheif, libtiff, gdk-pixbuf …) load only for jobs that need them — a one-line text job
/// starts in half the time — and untrusted files are parsed outside the job's process.
enum ImageDecoderProcess {
    /// Decodes `path`; returns the PDF (open, its scratch file already gone) and each page's
    /// pixels per inch when the file states them. The decoder is `$SWIFTPRINT_IMAGE_DECODER`, or
    /// found beside the running executable, or in /usr/local/libexec/swiftprint or
    /// /usr/libexec/swiftprint.
    static func run(path: String, allGIFFrames: Bool, limits: ImageLimits) throws -> (QPDFDocument, [Double?]) {
        let arguments = ["--max-pixels", String(limits.maxPixels)] + (allGIFFrames ? ["--gif-frames", "all"] : [])
        let (document, result) = try HelperProgram.makePDF(
            "swiftprint-image", environmentVariable: "SWIFTPRINT_IMAGE_DECODER", doing: "decode this image",
            input: path, arguments: arguments) { result in
            let complaint = String(decoding: result.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let message = complaint.isEmpty ? "the image decoder failed (status \(result.status))" : complaint
            switch (result.signalled, result.status) {
            case (false, 65): return PrintError(.invalidInput, path: path, message)
            case (false, 66): return PrintError(.inputUnreadable, path: path, message)
            case (false, 69): return PrintError(.notAvailable, path: path, message)
            default:
                let how = result.signalled ? "crashed (signal \(result.status))" : "failed"
                return PrintError(.invalidInput, path: path, complaint.isEmpty ? "the image decoder \(how) on this file" : message)
            }
        }
        return (document, String(decoding: result.output, as: UTF8.self).split(separator: "\n").map { Double($0) })
    }
}
