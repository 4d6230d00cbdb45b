import Foundation
import SwiftPrintCore

/// Runs `swiftprint-image`, which decodes GIF, TIFF, WebP, HEIF and BMP files and draws SVG into
/// a PDF of one page per image. In a process of its own, the decoders' libraries (librsvg,
/// libheif, libtiff, gdk-pixbuf …) load only for jobs that need them — a one-line text job
/// starts in half the time — and untrusted files are parsed outside the job's process.
enum ImageDecoderProcess {
    /// Whether the file's first bytes are a format swiftprint-image reads.
    static func handles(_ head: [UInt8]) -> Bool {
        head.starts(with: Array("GIF8".utf8))
            || head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || (head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && Array(head[8..<12]) == Array("WEBP".utf8))
            || (head.count >= 12 && Array(head[4..<8]) == Array("ftyp".utf8))
            || head.starts(with: Array("BM".utf8))
            || String(decoding: head, as: UTF8.self).contains("<svg")
    }

    /// The decoder: `$SWIFTPRINT_IMAGE_DECODER`, beside the running executable, or in
    /// /usr/local/libexec/swiftprint or /usr/libexec/swiftprint.
    static var executable: String? {
        var candidates: [String] = []
        if let path = ProcessInfo.processInfo.environment["SWIFTPRINT_IMAGE_DECODER"] { candidates.append(path) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("swiftprint-image").path)
        }
        candidates += ["/usr/local/libexec/swiftprint/swiftprint-image", "/usr/libexec/swiftprint/swiftprint-image"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Decodes `path`; returns the PDF (open, its scratch file already gone) and each page's
    /// pixels per inch when the file states them.
    static func run(path: String, allGIFFrames: Bool, limits: ImageLimits) throws -> (QPDFDocument, [Double?]) {
        guard let decoder = executable else {
            throw PrintError(.notAvailable, path: path, "cannot decode this image: swiftprint-image is not installed beside swiftprint")
        }
        let scratch = try OutputFile.scratch(prefix: "swiftprint-image-")
        defer { scratch.removeScratch() }
        try scratch.commit()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: decoder)
        process.arguments = [path, scratch.scratchPath!, "--max-pixels", String(limits.maxPixels)] + (allGIFFrames ? ["--gif-frames", "all"] : [])
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw PrintError(.notAvailable, path: path, "cannot start \(decoder): \(error.localizedDescription)")
        }
        let said = out.fileHandleForReading.readDataToEndOfFile()
        let complaint = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = complaint.isEmpty ? "the image decoder failed (status \(process.terminationStatus))" : complaint
            switch process.terminationStatus {
            case 65: throw PrintError(.invalidInput, path: path, message)
            case 66: throw PrintError(.inputUnreadable, path: path, message)
            case 69: throw PrintError(.notAvailable, path: path, message)
            default:
                let how = process.terminationReason == .uncaughtSignal ? "crashed (signal \(process.terminationStatus))" : "failed"
                throw PrintError(.invalidInput, path: path, complaint.isEmpty ? "the image decoder \(how) on this file" : message)
            }
        }
        let ppi = String(decoding: said, as: UTF8.self).split(separator: "\n").map { Double($0) }
        // qpdf maps the file, so the scratch copy can go as soon as it is open.
        return (try QPDFDocument(path: scratch.scratchPath!), ppi)
    }
}
