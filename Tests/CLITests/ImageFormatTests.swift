import Foundation
import TestSupport
import Testing

/// Every image format the handler reads, on files ImageMagick writes: a red disc on white.
@Suite struct ImageFormatTests {
    func disc(_ name: String) throws -> String {
        let path = try temporaryDirectory() + "/" + name
        _ = try Tool.run("convert", ["-size", "300x200", "xc:white", "-fill", "red", "-draw", "circle 150,100 150,20", path])
        return path
    }

    func brightness(_ pdf: String, page: Int, x: ClosedRange<Double>, y: ClosedRange<Double>) throws -> Double {
        let (w, h, pixels) = try PDF.grayPixels(pdf, page: page, dpi: 30)
        var sum = 0, n = 0
        for row in Int(y.lowerBound * Double(h))..<Int(y.upperBound * Double(h)) {
            for col in Int(x.lowerBound * Double(w))..<Int(x.upperBound * Double(w)) { sum += Int(pixels[row * w + col]); n += 1 }
        }
        return Double(sum) / Double(max(n, 1))
    }

    /// Format → detected UTI; the page shows the disc in the middle and white at the corners.
    @Test(arguments: [
        ("disc.gif", "com.compuserve.gif"),
        ("disc.tiff", "public.tiff"),
        ("disc.webp", "org.webmproject.webp"),
        ("disc.bmp", "com.microsoft.bmp"),
        ("disc.heic", "public.heic"),
    ])
    func printsTheImage(name: String, uti: String) throws {
        let image = try disc(name)
        let detected = try swiftprint(["detect", "--json", image])
        #expect(detected.text.contains("\"uti\":\"\(uti)\""), "\(detected.text)")
        let out = try temporaryDirectory() + "/out.pdf"
        let r = try swiftprint(["convert", image, "-o", out, "--margins", "0", "--print-scaling", "fill", "--media", "A5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 1)
        #expect(try brightness(out, page: 1, x: 0.45...0.55, y: 0.4...0.6) < 140, "the red disc in the middle")
        #expect(try brightness(out, page: 1, x: 0.0...0.08, y: 0.0...0.08) > 230, "white corners")
    }

    @Test func everyPageOfATIFFAndEveryFrameOfAGIFOnRequest() throws {
        let dir = try temporaryDirectory()
        let a = try disc("a.png")
        _ = try Tool.run("convert", [a, a, a, dir + "/three.tiff"])
        _ = try Tool.run("convert", ["-delay", "20", a, a, dir + "/two.gif"])
        let out = dir + "/o.pdf"
        #expect(try swiftprint(["convert", dir + "/three.tiff", dir + "/two.gif", "-o", out]).status == 0)
        #expect(try PDF.pageCount(out) == 4, "three TIFF pages and the GIF's first frame")
        let r = try swiftprint(["convert", dir + "/two.gif", "-o", out, "--gif-frames", "all"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 2)
    }

    /// An animated AVIF (a sequence, which libavif reads) and an animated JPEG XL print their
    /// first frame, or every frame with --gif-frames all, in order and in their colours; an AVIF
    /// sequence's irot turns every frame, as libheif turns a still AVIF.
    @Test(arguments: ["avif", "jxl"])
    func anAnimationPrintsItsFirstFrameOrEveryFrame(format: String) throws {
        let dir = try temporaryDirectory()
        let colours: [(name: String, rgb: [Int])] = [("red", [255, 0, 0]), ("lime", [0, 255, 0]), ("blue", [0, 0, 255])]
        let frames = colours.map { dir + "/\($0.name).png" }
        for (frame, colour) in zip(frames, colours) {
            _ = try Tool.run("convert", ["-size", "96x64", "xc:" + colour.name, "-depth", "8", "PNG24:" + frame])
        }
        let file = dir + "/animation." + format
        if format == "avif" {
            let made = try Tool.run("avifenc", ["--lossless", "--irot", "1"] + frames + [file])
            #expect(made.status == 0, "\(made.stderr)")
        } else {
            _ = try Tool.run("convert", ["-delay", "10"] + frames + [dir + "/animation.gif"])
            let made = try Tool.run("cjxl", ["-d", "0", dir + "/animation.gif", file])
            #expect(made.status == 0, "\(made.stderr)")
        }
        func centres(_ pdf: String) throws -> [[Int]] {
            try (1...PDF.pageCount(pdf)).map { page in
                let image = try PPM.decode(try Tool.run("pdftoppm", ["-r", "20", "-f", "\(page)", "-l", "\(page)", pdf]).stdout)
                let at = ((image.height / 2) * image.width + image.width / 2) * 3
                return (0..<3).map { Int(image.pixels[at + $0]) }
            }
        }
        func close(_ a: [Int], _ b: [Int]) -> Bool { zip(a, b).allSatisfy { abs($0 - $1) <= 8 } }
        let first = dir + "/first.pdf", all = dir + "/all.pdf"
        let one = try swiftprint(["convert", file, "-o", first])
        #expect(one.status == 0, "\(one.stderr)")
        let firstCentres = try centres(first)
        #expect(firstCentres.count == 1 && close(firstCentres[0], colours[0].rgb), "\(format): \(firstCentres)")
        let every = try swiftprint(["convert", file, "-o", all, "--gif-frames", "all"])
        #expect(every.status == 0, "\(every.stderr)")
        let allCentres = try centres(all)
        #expect(allCentres.count == 3 && zip(allCentres, colours).allSatisfy { close($0, $1.rgb) }, "\(format): \(allCentres)")
        let sizes = imageRows(try Tool.run("pdfimages", ["-list", all]).text).map { "\($0[3])x\($0[4])" }
        #expect(sizes == Array(repeating: format == "avif" ? "64x96" : "96x64", count: 3), "\(format): \(sizes)")
    }

    /// A 16-bit TIFF (a scan, a photo editor's export) keeps its 16 bits, grey, RGB and RGB with
    /// alpha: a ramp of 256 steps inside two 8-bit steps is still 256 steps in the PDF.
    @Test(arguments: ["Grayscale", "TrueColor", "TrueColorAlpha"])
    func a16BitTIFFKeepsItsDepth(type: String) throws {
        let dir = try temporaryDirectory()
        let tiff = dir + "/deep.tiff", pdf = dir + "/deep.pdf"
        let alpha = type == "TrueColorAlpha" ? ["-alpha", "set", "-channel", "A", "-evaluate", "set", "80%", "+channel", "-define", "tiff:alpha=unassociated"] : []
        let made = try Tool.run("convert", ["-size", "8x256", "gradient:rgb(50%,50%,50%)-rgb(50.4%,50.4%,50.4%)"] + alpha + ["-type", type, "-depth", "16", tiff])
        #expect(made.status == 0, "\(made.stderr)")
        let r = try swiftprint(["convert", tiff, "-o", pdf])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try Tool.run("pdfimages", ["-list", pdf]).text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            .filter { $0.count > 7 && ["image", "smask"].contains($0[2]) }
        let image = rows.first { $0[2] == "image" }
        #expect(image?[5] == (type == "Grayscale" ? "gray" : "rgb") && image?[7] == "16", "\(type): \(rows)")
        #expect(rows.contains { $0[2] == "smask" } == (type == "TrueColorAlpha"), "\(type): \(rows)")
        // The samples as stored (qpdf undoes the compression and the PNG predictor), counted:
        // the first sample of each pixel, 16 bits big-endian.
        let object = try #require(image?[10])
        let stream = try Tool.run("qpdf", ["--show-object=\(object)", "--filtered-stream-data", "--decode-level=generalized", pdf]).stdout
        let pixelBytes = (type == "Grayscale" ? 1 : 3) * 2
        let firsts = Set(stride(from: 0, to: stream.count - 1, by: pixelBytes).map { Int(stream[$0]) << 8 | Int(stream[$0 + 1]) })
        #expect(firsts.count >= 200, "\(type): \(firsts.count) distinct samples, as if read at 8 bits")
    }

    @Test func svgStaysVector() throws {
        let dir = try temporaryDirectory()
        try Data("""
        <svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">
          <circle cx="200" cy="150" r="100" fill="green"/><text x="20" y="40" font-size="30">Vector words</text>
        </svg>
        """.utf8).write(to: URL(fileURLWithPath: dir + "/v.svg"))
        let out = dir + "/o.pdf"
        let r = try swiftprint(["convert", dir + "/v.svg", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.text(out).contains("Vector words"), "text is text, not pixels")
        #expect(imageRows(try Tool.run("pdfimages", ["-list", out]).text).isEmpty, "no raster image")
        #expect(try brightness(out, page: 1, x: 0.45...0.55, y: 0.45...0.55) < 150)
    }

    @Test(arguments: ["bad.gif", "bad.tiff", "bad.webp", "bad.heic", "bad.svg"])
    func damagedImagesFailCleanly(name: String) throws {
        let dir = try temporaryDirectory()
        let good = try disc(name.replacingOccurrences(of: "bad", with: "good"))
        var data = name == "bad.svg" ? Data("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8) : try Data(contentsOf: URL(fileURLWithPath: good))
        if name != "bad.svg" { data = data.prefix(max(16, data.count / 3)) }
        try data.write(to: URL(fileURLWithPath: dir + "/" + name))
        let r = try swiftprint(["convert", dir + "/" + name, "-o", dir + "/o.pdf"])
        #expect(r.status == 65, "\(name): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains(name) && r.stderr.contains("not a valid"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
    }
}

/// The photo grid: several images per sheet, on the paginator's sheet model.
@Suite struct PhotoGridTests {
    /// Five images of `size` pixels: dark, light, dark, light, dark — so each cell's brightness
    /// says which one it holds.
    static func fivePhotos(_ size: String, in dir: String) throws -> [String] {
        try ["black", "white", "black", "white", "black"].enumerated().map { i, color in
            let p = "\(dir)/\(i).png"
            _ = try Tool.run("convert", ["-size", size, "xc:\(color)", "-fill", "gray", "-draw", "rectangle 0,0 10,10", p])
            return p
        }
    }

    @Test func fourPhotosPerSheetFillTheCellsInOrder() throws {
        let dir = try temporaryDirectory()
        let paths = try Self.fivePhotos("300x300", in: dir)
        let out = dir + "/grid.pdf"
        let r = try swiftprint(["convert"] + paths + ["-o", out, "--photos-per-sheet", "4", "--media", "A4", "--margins", "36"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 2, "five photos four to a sheet")
        let size = try PDF.pageSizes(out)[0]
        #expect(abs(size.width - 595.276) < 0.01 && abs(size.height - 841.89) < 0.01)
        let (w, h, pixels) = try PDF.grayPixels(out, page: 1, dpi: 20)
        func at(_ fx: Double, _ fy: Double) -> UInt8 { pixels[Int(fy * Double(h)) * w + Int(fx * Double(w))] }
        #expect(at(0.3, 0.3) < 60 && at(0.7, 0.3) > 200 && at(0.3, 0.7) < 60 && at(0.7, 0.7) > 200, "dark, light / dark, light")
        let second = try PDF.grayPixels(out, page: 2, dpi: 20)
        #expect(second.pixels[Int(0.3 * Double(second.height)) * second.width + Int(0.3 * Double(second.width))] < 60)
        #expect(second.pixels[Int(0.7 * Double(second.height)) * second.width + Int(0.7 * Double(second.width))] > 240, "an empty cell")
    }

    /// The grid is planned with the other sheet options: two-sided copies are whole sets of
    /// sides, each copy starting on a front (five photos three to a side: 2 sides a copy).
    @Test func twoSidedCopiesOfAGridAreWholeSets() throws {
        let dir = try temporaryDirectory()
        let paths = try Self.fivePhotos("300x200", in: dir)
        let out = dir + "/grid.pdf"
        let r = try swiftprint(["convert"] + paths + ["-o", out, "--photos-per-sheet", "3", "--copies", "2", "--sides", "two-sided-long-edge",
                                                      "--media", "A4"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 4, "2 sides a copy, 2 copies")
        for page in [1, 3] {
            let (w, h, pixels) = try PDF.grayPixels(out, page: page, dpi: 20)
            func at(_ fy: Double) -> UInt8 { pixels[Int(fy * Double(h)) * w + w / 2] }
            #expect(at(0.2) < 60 && at(0.5) > 200 && at(0.8) < 60, "page \(page): dark, light, dark")
        }
        let both = try swiftprint(["convert"] + paths + ["-o", dir + "/x.pdf", "--photos-per-sheet", "4", "--number-up", "2"])
        #expect(both.status == 64 && both.stderr.contains("cannot be combined with pages per side (number-up) or a booklet (--photos-per-sheet)"), "\(both.stderr)")
    }

    @Test func anUnsupportedGridIsAUsageError() throws {
        let r = try swiftprint(["convert", "x.jpg", "-o", "/tmp/never.pdf", "--photos-per-sheet", "7"])
        #expect(r.status == 64 && r.stderr.contains("--photos-per-sheet \"7\" is not valid (2, 3, 4, 6, 8, 9, 10, 12, 15, 16, 20)"), "\(r.stderr)")
    }
}
