import Foundation
import SwiftPrintCore

/// Runs `swiftprint-image`, which decodes GIF, TIFF, WebP, HEIF and BMP files and draws SVG into
/// a PDF of one page per image. In a process of its own, the decoders' libraries (librsvg,
/// libheif, libtiff, gdk-pixbuf …) load only for jobs that need them — a one-line text job
/// starts in half the time — and untrusted files are parsed outside the job's process.
enum ImageDecoderProcess {
    /// The decoder: `$SWIFTPRINT_IMAGE_DECODER`, beside the running executable, or in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint.
    static var executable: String? { HelperProgram.find("swiftprint-image", environmentVariable: "SWIFTPRINT_IMAGE_DECODER") }

    /// Decodes `path`; returns the PDF (open, its scratch file already gone) and each page's
    /// pixels per inch when the file states them.
    static func run(path: String, allGIFFrames: Bool, limits: ImageLimits) throws -> (QPDFDocument, [Double?]) {
        guard let decoder = executable else {
            throw PrintError(.notAvailable, path: path, "cannot decode this image: swiftprint-image is not installed beside swiftprint")
        }
        let scratch = try OutputFile.scratch(prefix: "swiftprint-image-")
        defer { scratch.removeScratch() }
        try scratch.commit()
        let arguments = [path, scratch.scratchPath!, "--max-pixels", String(limits.maxPixels)] + (allGIFFrames ? ["--gif-frames", "all"] : [])
        let result: ChildProcess.Result
        do { result = try ChildProcess.run(decoder, arguments) } catch {
            throw PrintError(.notAvailable, path: path, "cannot start \(decoder): \(error.localizedDescription)")
        }
        guard result.status == 0, !result.signalled else {
            let complaint = String(decoding: result.errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let message = complaint.isEmpty ? "the image decoder failed (status \(result.status))" : complaint
            switch (result.signalled, result.status) {
            case (false, 65): throw PrintError(.invalidInput, path: path, message)
            case (false, 66): throw PrintError(.inputUnreadable, path: path, message)
            case (false, 69): throw PrintError(.notAvailable, path: path, message)
            default:
                let how = result.signalled ? "crashed (signal \(result.status))" : "failed"
                throw PrintError(.invalidInput, path: path, complaint.isEmpty ? "the image decoder \(how) on this file" : message)
            }
        }
        let ppi = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map { Double($0) }
        // qpdf maps the file, so the scratch copy can go as soon as it is open.
        return (try QPDFDocument(path: scratch.scratchPath!), ppi)
    }
}
