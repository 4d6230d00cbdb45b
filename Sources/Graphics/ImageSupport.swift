import Foundation
import PDFObjects
import PrintModel
import PrintSupport

/// Refuses images whose header declares more pixels than a limit, before decoding a byte of
/// them: a small file can declare 60000 × 60000 pixels and ask for gigabytes.
package struct ImageLimits {
    /// The most pixels an image may declare (`JobLimits.pixelsPerImage`).
    package var maxPixels = 200_000_000
    /// The most images one file may hold (`JobLimits.pagesPerDocument`: each is a page),
    /// checked before any is decoded.
    package var maxImages = Int.max
    /// What bounds the helper that decodes the formats of big libraries (`JobLimits`'s helper
    /// limits); none for a caller that sets none.
    package var helper = ChildProcess.Limits.none
    /// The option that sets `maxPixels` (`LimitOptions.maxPixels`, a layer above this one;
    /// LimitTests holds the two names equal).
    package static let pixelOption = "swiftprint-max-pixels"
    /// The option that sets `maxImages` (`LimitOptions.maxPages`).
    package static let pageOption = "swiftprint-max-pages"

    /// Refuses a file of more than `maxImages` images (a GIF's frames, a TIFF's pages).
    package func check(images: Int, kind: String, path: String) throws {
        guard images <= maxImages else {
            throw PrintError(.limitExceeded, path: path, "the \(kind) has \(images) pages, more than the limit of \(maxImages)", option: Self.pageOption)
        }
    }

    package init(maxPixels: Int = 200_000_000, helper: ChildProcess.Limits = .none) { self.maxPixels = maxPixels; self.helper = helper }

    package func check(width: Int, height: Int, path: String) throws {
        guard width > 0, height > 0 else { throw PrintError(.invalidInput, path: path, "the image declares no size") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels, width <= 1 << 20, height <= 1 << 20 else {
            throw PrintError(.limitExceeded, path: path, "the image declares \(width) × \(height) pixels, more than the limit of \(maxPixels)",
                             option: Self.pixelOption)
        }
    }
}

/// ICC profile headers name their colour space at bytes 16-19: a profile that does not match the
/// image's samples would make the PDF invalid, so it is left out.
package enum ICCProfile {
    package static func matches(_ profile: Data, components: Int) -> Bool {
        guard profile.count >= 128 else { return false }
        let space = String(decoding: profile[profile.startIndex + 16 ..< profile.startIndex + 20], as: UTF8.self)
        switch components {
        case 1: return space == "GRAY"
        case 3: return space == "RGB "
        case 4: return space == "CMYK"
        default: return false
        }
    }
}

/// EXIF orientation (1…8) as the matrix that turns the stored image's unit square into the
/// upright one, in PDF orientation (origin bottom-left).
package enum EXIFOrientation {
    package static func matrix(_ orientation: Int) -> PDFMatrix {
        switch orientation {
        case 2: return PDFMatrix(a: -1, b: 0, c: 0, d: 1, e: 1, f: 0)  // mirrored left-right
        case 3: return PDFMatrix(a: -1, b: 0, c: 0, d: -1, e: 1, f: 1)  // upside down
        case 4: return PDFMatrix(a: 1, b: 0, c: 0, d: -1, e: 0, f: 1)  // mirrored top-bottom
        case 5: return PDFMatrix(a: 0, b: -1, c: -1, d: 0, e: 1, f: 1)  // transposed
        case 6: return PDFMatrix(a: 0, b: -1, c: 1, d: 0, e: 0, f: 1)  // needs a quarter turn clockwise
        case 7: return PDFMatrix(a: 0, b: 1, c: 1, d: 0, e: 0, f: 0)  // transversed
        case 8: return PDFMatrix(a: 0, b: 1, c: -1, d: 0, e: 1, f: 0)  // needs a quarter turn anticlockwise
        default: return .identity
        }
    }

    /// Whether the orientation swaps width and height.
    package static func swapsAxes(_ orientation: Int) -> Bool { orientation >= 5 }
}

/// Reads a whole file (mapped), with a clear error naming it. A file of size 0 (empty, or one
/// of /proc's) is read, not mapped: Foundation's mapped read loses a buffer on it (`FileBytes`).
package func readFile(_ path: String) throws -> Data {
    var info = stat()
    if stat(path, &info) == 0, info.st_size == 0 {
        guard let data = FileBytes.read(path) else {
            throw PrintError.system(.inputUnreadable, path: path, "cannot read the file", errno: errno == 0 ? EIO : errno)
        }
        return data
    }
    do { return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
        throw PrintError.system(.inputUnreadable, path: path, "cannot read the file", errno: errno == 0 ? EIO : errno)
    }
}

/// The image formats swiftprint reads, told apart by their first bytes.
package enum ImageFormat {
    /// `heif` is every ISO-media image: HEIC, and AVIF, which libheif decodes too.
    case jpeg, png, gif, tiff, webp, heif, jxl, bmp, svg

    /// The format of a file starting with `head` (its first few kilobytes), or nil.
    package init?(head: [UInt8]) {
        if head.starts(with: [0xFF, 0xD8]) { self = .jpeg }
        else if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self = .png }
        else if head.starts(with: Array("GIF8".utf8)) { self = .gif }
        else if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { self = .tiff }
        else if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { self = .webp }
        else if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) { self = .heif }
        // A bare codestream, or the ISO-media container with its signature box.
        else if head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { self = .jxl }
        else if head.starts(with: Array("BM".utf8)) { self = .bmp }
        else if String(decoding: head, as: UTF8.self).contains("<svg") { self = .svg }
        else { return nil }
    }

    /// The brands an ISO-media file starting with `head` names in its `ftyp` box, the major one
    /// first: `avif` for an AVIF image, `avis` for an AVIF sequence (animated), `heic`, `mif1` …
    package static func brands(head: [UInt8]) -> [String] {
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return [] }
        let size = min(head.count, Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3]))
        let starts = [8] + Array(stride(from: 16, to: size - 3, by: 4))
        return starts.map { String(decoding: head[$0..<($0 + 4)], as: UTF8.self) }
    }

    /// The first bytes of the file at `path` (empty when it cannot be read).
    package static func head(of path: String) -> [UInt8] {
        [UInt8]((try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 4096)) ?? Data())
    }

    /// What to say when a file is none of them.
    package static let unknownMessage = "not an image format swiftprint reads (JPEG, PNG, GIF, TIFF, WebP, BMP, HEIF, AVIF, JPEG XL, SVG)"
}
