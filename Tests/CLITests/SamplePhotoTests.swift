import Foundation
import PrintGraphics
import TestSupport
import Testing

/// OpenPrinting's sample photos (SampleFiles/README.md), printed at A6, their own size: each
/// fills its page the right way up, in PDF and in PWG raster for an sRGB and an Adobe RGB
/// printer, and looks as the photo does (a photo turned or flipped would not). The page and
/// the photo are each averaged in the same grid of blocks, and the blocks compared as L*a*b*
/// with the photo as its JPEG is decoded by ImageMagick (libjpeg, not swiftprint) and converted
/// by Little CMS to the output's colours: mean ΔE2000 over the whole image ≤ 1.5, 95 % of
/// blocks within 3. The JPEG XL copies are measured against the JPEG's decoding too: Debian's
/// djxl 0.7 decodes these two files to noise (its conversion out of their colour space), so it
/// cannot be the reference.
@Suite struct SamplePhotoTests {
    static let folder = directory() + "/SampleFiles"
    /// Blocks across and down a portrait photo (down and across a landscape one): about 14 pt each.
    static let grid = (short: 21, long: 30)

    static let cases: [(photo: String, reference: String)] = [
        ("a6-portrait-photo-adobergb.jpg", "a6-portrait-photo-adobergb.jpg"),
        ("a6-portrait-photo-displayp3.jpg", "a6-portrait-photo-displayp3.jpg"),
        ("a6-landscape-photo-sgray.jpg", "a6-landscape-photo-sgray.jpg"),
        ("a6-portrait-photo-adobergb.jxl", "a6-portrait-photo-adobergb.jpg"),
        ("a6-portrait-photo-displayp3.jxl", "a6-portrait-photo-displayp3.jpg"),
    ]

    /// The mean of each block's middle (a fifth of the block left out each side, where two
    /// resamplings of an edge differ) in an image of `channels` samples a pixel, `across` ×
    /// `down` blocks, row by row. The same part of the picture whatever the image's size: pixels
    /// on a block's edge count by the part of them inside it.
    static func blockMeans(_ pixels: [UInt8], width: Int, height: Int, channels: Int, across: Int, down: Int) -> [UInt8] {
        /// The pixels from `start` to `end` (in pixels, fractional) and how much of each is inside.
        func span(_ start: Double, _ end: Double) -> [(Int, Double)] {
            (Int(start.rounded(.down))..<Int(end.rounded(.up))).map { ($0, min(Double($0 + 1), end) - max(Double($0), start)) }
        }
        var means: [UInt8] = []
        for by in 0..<down {
            let ys = span((Double(by) + 0.2) * Double(height) / Double(down), (Double(by) + 0.8) * Double(height) / Double(down))
            for bx in 0..<across {
                let xs = span((Double(bx) + 0.2) * Double(width) / Double(across), (Double(bx) + 0.8) * Double(width) / Double(across))
                var sum = [Double](repeating: 0, count: channels), area = 0.0
                for (y, wy) in ys {
                    for (x, wx) in xs {
                        for c in 0..<channels { sum[c] += wx * wy * Double(pixels[(y * width + x) * channels + c]) }
                        area += wx * wy
                    }
                }
                means += sum.map { UInt8(($0 / area).rounded()) }
            }
        }
        return means
    }

    @Test(arguments: cases)
    func aSamplePhotoPrintsAsItLooks(photo: String, reference: String) throws {
        let dir = try temporaryDirectory()
        let file = Self.folder + "/" + photo, source = Self.folder + "/" + reference
        let icc = dir + "/reference.icc"
        #expect(try Tool.run("convert", [source, icc]).status == 0, "the reference's profile")
        let profile = try Data(contentsOf: URL(fileURLWithPath: icc))
        let grey = reference.contains("sgray")
        let decoded = try PPM.decode(try Tool.run("convert", [source, "-depth", "8", "ppm:-"]).stdout)
        let landscape = decoded.width > decoded.height
        let (across, down) = landscape ? (Self.grid.long, Self.grid.short) : (Self.grid.short, Self.grid.long)
        var photoMeans = Self.blockMeans(decoded.pixels, width: decoded.width, height: decoded.height, channels: 3, across: across, down: down)
        if grey { photoMeans = stride(from: 0, to: photoMeans.count, by: 3).map { photoMeans[$0] } }

        /// Mean and 95th percentile of ΔE2000 over the blocks between the photo as Little CMS
        /// shows it in `canvas` (nil: sRGB) taking it to be in `photoProfile`, and a page's
        /// blocks in that canvas.
        func difference(_ page: (width: Int, height: Int, pixels: [UInt8]), canvas: Data?, photoProfile: Data) throws -> (mean: Double, p95: Double) {
            let expected = try CIELab.of(try CIELab.rgb(of: photoMeans, channels: grey ? 1 : 3, profile: photoProfile, in: canvas), channels: 3, profile: canvas)
            let measured = try CIELab.of(Self.blockMeans(page.pixels, width: page.width, height: page.height, channels: 3, across: across, down: down),
                                         channels: 3, profile: canvas)
            let differences = zip(measured, expected).map { CIELab.deltaE2000($0, $1) }.sorted()
            return (differences.reduce(0, +) / Double(differences.count), differences[differences.count * 95 / 100])
        }
        func check(_ page: (width: Int, height: Int, pixels: [UInt8]), canvas: Data?, _ what: String) throws {
            #expect((page.width > page.height) == landscape, "\(what): \(page.width) × \(page.height), the photo \(decoded.width) × \(decoded.height)")
            let (mean, p95) = try difference(page, canvas: canvas, photoProfile: profile)
            // Measured: mean 0.58–0.74, 95 % within 1.5–2.2 (the few blocks above are the QR
            // code's, whose black and white modules two resamplings average differently).
            #expect(mean <= 1.5 && p95 <= 3, "\(photo) \(what): mean ΔE2000 \(mean), 95 % of blocks within \(p95)")
        }

        let page = ["--media", "a6", "--margins", "0", "--print-scaling", "fill"]
        let pdf = dir + "/out.pdf"
        let r = try swiftprint(["convert", file, "-o", pdf] + page)
        #expect(r.status == 0, "\(r.stderr)")
        let size = try Tool.run("pdfinfo", [pdf]).text
        #expect(size.contains(landscape ? "419.528 x 297.638" : "297.638 x 419.528"), "\(size)")
        let drawn = try PPM.decode(try Tool.run("pdftoppm", ["-r", "72", pdf]).stdout)
        try check(drawn, canvas: nil, "PDF")
        if !grey {
            // The measure tells the photo's colours from sRGB's: the same page against the photo
            // taken as sRGB is far off.
            let asSRGB = try difference(drawn, canvas: nil, photoProfile: try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/sRGB.icc")))
            #expect(asSRGB.mean > 2, "\(photo): mean ΔE2000 \(asSRGB.mean) against the photo taken as sRGB")
        }

        for (type, canvas) in [("srgb_8", nil), ("adobe-rgb_8", AdobeRGB.profile)] as [(String, Data?)] {
            let pwg = dir + "/\(type).pwg"
            let raster = try swiftprint(["convert", file, "-o", pwg, "--output-format", "pwg-raster", "--printer-resolution", "72",
                                         "--pwg-raster-document-type", type] + page)
            #expect(raster.status == 0, "\(raster.stderr)")
            let read = try #require(try PWGRaster.pages(try Data(contentsOf: URL(fileURLWithPath: pwg))).first)
            try check((read.width, read.height, read.pixels), canvas: canvas, "\(type) raster")
        }
    }
}
