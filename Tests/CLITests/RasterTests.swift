import Foundation
import TestSupport
import Testing

/// Raster in and out: PWG and Apple raster written by `convert --output-format`, read back by
/// `convert`, compared by pixels with the direct rendering, and exchanged with CUPS's own filters.
@Suite struct RasterTests {
    /// Page `page` drawn in grey at 150 dpi by poppler's cairo renderer (`pdftocairo`, the
    /// renderer raster output uses; pdftoppm's Splash places glyph edges a pixel apart from it
    /// here and there), averaged over 3 × 3 blocks.
    static func blockPixels(_ path: String, page: Int) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let dir = try temporaryDirectory()
        _ = try Tool.run("pdftocairo", ["-png", "-gray", "-r", "150", "-f", String(page), "-l", String(page), "-singlefile", path, dir + "/page"])
        let full = try PGM.decode(try Tool.run("convert", [dir + "/page.png", "pgm:-"]).stdout)
        let w = full.width / 3, h = full.height / 3
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0
                for dy in 0..<3 { for dx in 0..<3 { sum += Int(full.pixels[(3 * y + dy) * full.width + 3 * x + dx]) } }
                out[y * w + x] = UInt8(sum / 9)
            }
        }
        return (w, h, out)
    }


    static func convert(_ args: [String]) throws {
        let r = try swiftprint(["convert"] + args)
        #expect(r.status == 0, "convert \(args): \(r.stderr)")
    }

    /// Text, a photo and a vector drawing, each → PWG raster and → Apple raster at 150 dpi → PDF
    /// again: page 1 drawn at 150 dpi (so that raster pixels meet screen pixels one to one) and
    /// averaged to 50 dpi matches the PDF convert makes directly, drawn the same way, within 1
    /// grey level on average (measured: 0 for all three; the margin is for anti-aliasing in
    /// another cairo). A wrong colour, orientation or position differs by far more, as the last
    /// check shows.
    /// "large photo.jpg" has more pixels than the sheet at 150 dpi, so poppler's own rasteriser
    /// draws it (RasterDocumentWriter says why) where cairo's device draws the others.
    @Test(arguments: ["server.log", "photo.jpg", "large photo.jpg", "poster.svg"])
    func roundTripsMatchTheDirectRendering(_ name: String) throws {
        let dir = try temporaryDirectory()
        let input: String
        if name.hasSuffix("photo.jpg") {
            input = dir + "/photo.jpg"
            let size = name == "photo.jpg" ? "600x400" : "2400x1600"
            _ = try Tool.run("convert", ["-size", size, "-seed", "7", "plasma:", "-quality", "90", input])
        } else {
            input = examples + "/" + name
        }
        try Self.convert([input, "-o", dir + "/direct.pdf"])
        let direct = try Self.blockPixels(dir + "/direct.pdf", page: 1)
        for format in ["pwg-raster", "urf"] {
            try Self.convert([input, "--output-format", format, "--printer-resolution", "150", "-o", dir + "/r.\(format)"])
            try Self.convert([dir + "/r.\(format)", "-o", dir + "/back.pdf"])
            #expect(try PDF.pageCount(dir + "/back.pdf") == PDF.pageCount(dir + "/direct.pdf"))
            let sizes = try PDF.pageSizes(dir + "/back.pdf"), directSizes = try PDF.pageSizes(dir + "/direct.pdf")
            // Whole pixels at 150 dpi: within half a pixel (0.24 pt) of the direct page.
            #expect(abs(sizes[0].width - directSizes[0].width) < 0.5 && abs(sizes[0].height - directSizes[0].height) < 0.5)
            let back = try Self.blockPixels(dir + "/back.pdf", page: 1)
            let d = PDF.meanDifference(direct, back)
            #expect(d < 1, "\(name) via \(format): mean difference \(d)")
            // The comparison can fail: against the page turned upside down it does.
            let turned = (back.width, back.height, Array(back.pixels.reversed()))
            #expect(PDF.meanDifference(direct, turned) > 8, "\(name): the comparison cannot tell a turned page")
        }
    }

    /// 1-bit output is dithered: black_1 (1 is ink) and sgray_1 (1 is white) both read back as
    /// the drawing's tones, averaged over 6 × 6 dots (1/25 inch) within 6 grey levels (3.3 measured); a
    /// threshold instead of dithering would lose the grey circle and wave entirely.
    @Test(arguments: ["black_1", "sgray_1"])
    func oneBitOutputKeepsItsTones(_ type: String) throws {
        let dir = try temporaryDirectory()
        let input = examples + "/poster.svg"
        try Self.convert([input, "-o", dir + "/direct.pdf"])
        try Self.convert([input, "--output-format", "pwg-raster", "--printer-resolution", "150", "--pwg-raster-document-type", type,
                          "-o", dir + "/one.pwg"])
        let h = PWGHeader(try Data(contentsOf: URL(fileURLWithPath: dir + "/one.pwg")))
        #expect(h.bitsPerColor == 1 && h.colorSpace == (type == "black_1" ? 3 : 18))  // CUPS_CSPACE_K, CUPS_CSPACE_SW
        try Self.convert([dir + "/one.pwg", "-o", dir + "/back.pdf"])
        let direct = Self.average(try Self.blockPixels(dir + "/direct.pdf", page: 1)), back = Self.average(try Self.blockPixels(dir + "/back.pdf", page: 1))
        let d = PDF.meanDifference(direct, back)
        #expect(d < 6, "\(type): mean difference \(d)")
    }

    /// Colour-managed output: Adobe RGB carries its profile and reads back as the drawing's
    /// colours (measured: 0.001 grey levels off on average); CMYK is converted for the inks of
    /// the profile named (Ghostscript's generic CMYK here) and reads back as DeviceCMYK, which
    /// poppler draws by formula, so only near (3.1 off; allowed 6). Without
    /// a profile, or with one of the wrong kind, CMYK is refused by name.
    @Test func adobeRGBAndCMYKAreColourManaged() throws {
        let dir = try temporaryDirectory()
        let input = examples + "/poster.svg"
        try Self.convert([input, "-o", dir + "/direct.pdf"])
        let direct = try Self.blockPixels(dir + "/direct.pdf", page: 1)
        let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
        for (type, space, tolerance) in [("adobe-rgb_8", 20, 0.5), ("adobe-rgb_16", 20, 0.5), ("cmyk_8", 6, 6.0)] {
            try Self.convert([input, "--output-format", "pwg-raster", "--printer-resolution", "150", "--pwg-raster-document-type", type,
                              "--cmyk-profile", cmykProfile, "-o", dir + "/c.pwg"])
            let h = PWGHeader(try Data(contentsOf: URL(fileURLWithPath: dir + "/c.pwg")))
            #expect(h.colorSpace == space && h.bitsPerColor == (type.hasSuffix("16") ? 16 : 8), "\(type)")
            try Self.convert([dir + "/c.pwg", "-o", dir + "/back.pdf"])
            let d = PDF.meanDifference(direct, try Self.blockPixels(dir + "/back.pdf", page: 1))
            #expect(d < tolerance, "\(type): mean difference \(d)")
        }
        let images = try Tool.run("pdfimages", ["-list", dir + "/back.pdf"]).text
        #expect(images.contains("cmyk"), "\(images)")
        let missing = try swiftprint(["convert", input, "--output-format", "pwg-raster", "--pwg-raster-document-type", "cmyk_8", "-o", dir + "/m.pwg"])
        #expect(missing.status == 64 && missing.stderr.contains("--cmyk-profile"), "\(missing.stderr)")
        let rgb = try swiftprint(["convert", input, "--output-format", "pwg-raster", "--pwg-raster-document-type", "cmyk_8",
                                  "--cmyk-profile", "/usr/share/color/icc/ghostscript/default_rgb.icc", "-o", dir + "/m.pwg"])
        #expect(rgb.status == 64 && rgb.stderr.contains("default_rgb.icc") && rgb.stderr.contains("not a CMYK profile"), "\(rgb.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/m.pwg"))
    }

    /// `print-rendering-intent` reaches Little CMS: CMYK raster of a colourful page differs by
    /// intent, and without one is relative colorimetric with black point compensation.
    @Test func theRenderingIntentChoosesHowColoursReachTheInks() throws {
        let dir = try temporaryDirectory()
        let input = examples + "/poster.svg"
        var outputs: [String: Data] = [:]
        for intent in ["", "relative-bpc", "perceptual", "relative", "absolute"] {
            let out = dir + "/\(intent.isEmpty ? "default" : intent).pwg"
            try Self.convert([input, "--output-format", "pwg-raster", "--printer-resolution", "50", "--pwg-raster-document-type", "cmyk_8",
                              "--cmyk-profile", "/usr/share/color/icc/ghostscript/default_cmyk.icc", "-o", out]
                             + (intent.isEmpty ? [] : ["--rendering-intent", intent]))
            outputs[intent] = try Data(contentsOf: URL(fileURLWithPath: out))
        }
        #expect(outputs[""] == outputs["relative-bpc"], "auto is relative colorimetric with black point compensation")
        #expect(outputs["perceptual"] != outputs["relative-bpc"])
        #expect(outputs["absolute"] != outputs["relative"])
        let bad = try swiftprint(["convert", input, "--output-format", "pwg-raster", "--rendering-intent", "vivid", "-o", dir + "/bad.pwg"])
        #expect(bad.status == 64 && bad.stderr.contains("vivid"), "\(bad.stderr)")
    }

    /// The rendering intent goes into PDF output too, for the printer or RIP that converts its
    /// colours and for the raster drawn from it: every page, whoever drew it (cairo's text, a
    /// placed photo, an input PDF's page copied whole, pages two to a side), begins in it, and
    /// `auto` writes none (PDF's default, relative colorimetric, is the reader's to apply).
    @Test(arguments: [("notes.md", [String]()), ("photo", []), ("pdf", []), ("pdf", ["--number-up", "2"])])
    func theRenderingIntentIsWrittenIntoThePDF(input: String, options: [String]) throws {
        let dir = try temporaryDirectory()
        let file: String
        switch input {
        case "photo":
            file = dir + "/photo.jpg"
            _ = try Tool.run("convert", ["-size", "90x60", "gradient:red-blue", file])
        case "pdf":
            file = dir + "/input.pdf"
            try Self.convert([examples + "/multilingual.txt", "-o", file])
        default:
            file = examples + "/" + input
        }
        func intents(_ extra: [String]) throws -> (pages: Int, found: [String]) {
            let out = dir + "/out.pdf", expanded = dir + "/expanded.pdf"
            try Self.convert([file, "-o", out] + options + extra)
            _ = try Tool.run("qpdf", ["--qdf", "--object-streams=disable", out, expanded])
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: expanded)), as: UTF8.self)
            let found = text.split(separator: "\n").filter { $0.hasSuffix(" ri") }.map(String.init)
            return (try PDF.pageCount(out), found)
        }
        let perceptual = try intents(["--rendering-intent", "perceptual"])
        #expect(perceptual.pages > 0 && perceptual.found == Array(repeating: "/Perceptual ri", count: perceptual.pages), "\(perceptual)")
        let absolute = try intents(["--rendering-intent", "absolute"])
        #expect(absolute.found == Array(repeating: "/AbsoluteColorimetric ri", count: absolute.pages), "\(absolute)")
        #expect(try intents(["--rendering-intent", "auto"]).found.isEmpty)
        #expect(try intents([]).found.isEmpty)
    }

    /// 2 × 2 blocks of a rendering averaged.
    static func average(_ image: (width: Int, height: Int, pixels: [UInt8])) -> (width: Int, height: Int, pixels: [UInt8]) {
        let w = image.width / 2, h = image.height / 2
        var out = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let i = 2 * y * image.width + 2 * x
                out[y * w + x] = UInt8((Int(image.pixels[i]) + Int(image.pixels[i + 1]) + Int(image.pixels[i + image.width])
                                        + Int(image.pixels[i + image.width + 1])) / 4)
            }
        }
        return (w, h, out)
    }

    @Test func pwgHeadersCarryWhatAPrinterReads() throws {
        let dir = try temporaryDirectory()
        try Self.convert([examples + "/server.log", "--media", "A4", "--sides", "two-sided-short-edge", "--output-format", "image/pwg-raster",
                          "--printer-resolution", "600x300dpi", "--pwg-raster-document-type", "sgray_16", "-o", dir + "/a.pwg"])
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.pwg"))
        #expect(data.starts(with: Array("RaS2PwgRaster\0".utf8)))
        let h = PWGHeader(data)
        #expect(h.resolution == (600, 300))
        #expect(h.width == 4961 && h.height == 3508, "\(h.width) × \(h.height)")
        #expect(h.bitsPerColor == 16 && h.colorSpace == 18)  // CUPS_CSPACE_SW
        #expect(h.duplex == 1 && h.tumble == 1)
        #expect(h.pageSizeName == "iso_a4_210x297mm")
        let pages = try { try Self.convert([dir + "/a.pwg", "-o", dir + "/a.pdf"]); return try PDF.pageCount(dir + "/a.pdf") }()
        #expect(h.totalPageCount == pages && pages % 2 == 0, "two-sided output has whole sheets")
        // 16 bits stay 16 bits when read back.
        let images = try Tool.run("pdfimages", ["-list", "-f", "1", "-l", "1", dir + "/a.pdf"]).text
        #expect(images.contains("gray    1  16"), "\(images)")

        // Apple raster has one resolution for both directions, and no black.
        let urf = try swiftprint(["convert", examples + "/server.log", "--output-format", "urf", "--printer-resolution", "600x300", "-o", dir + "/a.urf"])
        #expect(urf.status == 64 && urf.stderr.contains("one resolution"), "\(urf.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.urf"))
        let bad = try swiftprint(["convert", examples + "/server.log", "--output-format", "tiff", "-o", dir + "/a.x"])
        #expect(bad.status == 64 && bad.stderr.contains("--output-format"), "\(bad.stderr)")
    }

    /// The back of a two-sided sheet, turned as `--sheet-back` and libcups's header say: a
    /// printer that wants backs rotated gets page 2 upside down, and reading it back shows it so.
    @Test func backsAreTurnedForThePrinter() throws {
        let dir = try temporaryDirectory()
        let text = (1...120).map { "line \($0) of a two-page document" }.joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/two.txt"))
        try Self.convert([dir + "/two.txt", "-o", dir + "/direct.pdf"])
        #expect(try PDF.pageCount(dir + "/direct.pdf") == 2)
        let direct = try PDF.grayPixels(dir + "/direct.pdf", page: 2)
        for (sheetBack, turned) in [("normal", false), ("rotated", true)] {
            try Self.convert([dir + "/two.txt", "--sides", "two-sided-long-edge", "--sheet-back", sheetBack, "--output-format", "pwg-raster",
                              "--printer-resolution", "100", "-o", dir + "/b.pwg"])
            try Self.convert([dir + "/b.pwg", "-o", dir + "/b.pdf"])
            let back = try PDF.grayPixels(dir + "/b.pdf", page: 2)
            let upright = PDF.meanDifference(direct, back)
            let flipped = PDF.meanDifference(direct, (back.width, back.height, Array(back.pixels.reversed())))
            #expect(turned ? flipped < upright : upright < flipped, "\(sheetBack): upright \(upright), turned \(flipped)")
        }
    }

    /// The backs of a two-sided job of photos drawn by poppler's rasteriser (more pixels than the
    /// sheet): turned half round for a `rotated` back, top to bottom for a `flipped` one, as the
    /// printer wants them; each compared with the front, the same photo, as it is and turned
    /// each way (measured: 3–4 grey levels for the right way, 17 and 89 for the others).
    @Test func backsOfLargePhotosAreTurnedForThePrinter() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "1200x800", "-seed", "3", "plasma:", "-quality", "90", dir + "/photo.jpg"])
        // One document of two pages (two documents would each start on a front).
        try Self.convert([dir + "/photo.jpg", dir + "/photo.jpg", "-o", dir + "/photos.pdf"])
        let photos = [dir + "/photos.pdf"]
        func flippedVertically(_ image: (width: Int, height: Int, pixels: [UInt8])) -> (width: Int, height: Int, pixels: [UInt8]) {
            (image.width, image.height, (0..<image.height).reversed().flatMap { y in image.pixels[y * image.width ..< (y + 1) * image.width] })
        }
        for (sheetBack, expected) in [("normal", "upright"), ("rotated", "turned"), ("flipped", "flipped")] {
            try Self.convert(photos + ["--sides", "two-sided-long-edge", "--sheet-back", sheetBack, "--output-format", "pwg-raster",
                                       "--printer-resolution", "60", "-o", dir + "/b.pwg"])
            try Self.convert([dir + "/b.pwg", "-o", dir + "/b.pdf"])
            let front = try PDF.grayPixels(dir + "/b.pdf", page: 1), back = try PDF.grayPixels(dir + "/b.pdf", page: 2)
            let differences = [
                "upright": PDF.meanDifference(front, back),
                "turned": PDF.meanDifference(front, (back.width, back.height, Array(back.pixels.reversed()))),
                "flipped": PDF.meanDifference(front, flippedVertically(back)),
            ]
            // (Not 0: the back's margins are the front's mirrored, so the photo sits a little apart.)
            let others = differences.filter { $0.key != expected }.map(\.value)
            #expect(others.allSatisfy { differences[expected]! * 3 < $0 }, "\(sheetBack): \(differences)")
        }
    }

    /// A photo's pixels do not set raster output's memory: a 48 MP photo to PWG raster at 150
    /// dpi peaks within 10 % of a 12 MP one (both above the sheet's 2 MP: poppler's rasteriser
    /// reads them row by row), and far below the 192 MB the 48 MP photo holds decoded, which
    /// cairo's device decoded whole. Peak RSS of the process, from wait4.
    @Test func aPhotosPixelsDoNotSetRasterMemory() throws {
        let dir = try temporaryDirectory()
        var peaks: [String: Double] = [:]
        for (name, size) in [("12mp", "4000x3000"), ("48mp", "8000x6000")] {
            let photo = dir + "/\(name).jpg"
            _ = try Tool.run("convert", ["-size", size, "gradient:red-blue", "-quality", "85", photo])
            peaks[name] = try Tool.peakMegabytes(Tool.swiftprint, ["convert", photo, "--output-format", "pwg-raster",
                                                                  "--printer-resolution", "150", "-o", dir + "/\(name).pwg"])
        }
        let small = try #require(peaks["12mp"]), large = try #require(peaks["48mp"])
        #expect(large <= small * 1.1, "12 MP: \(small) MB, 48 MP: \(large) MB")
        // 54 MB before photos were scaled once a sheet (and 192 when cairo's device drew them);
        // 44 MB measured now.
        #expect(large < 70, "48 MP: \(large) MB")
    }

    /// A photo drawn smaller or larger than its pixels is read once a page and scaled to its
    /// size on the sheet before the bands, and the bands draw exactly the pixels poppler's
    /// rasteriser draws for the page whole (`pdftoppm`, which is Splash too), compared pixel by
    /// pixel: a photo scaled down (150 dpi), up (600 dpi), down at 600 dpi, and a small picture
    /// enlarged more than four times (Splash's nearest-pixel scaler). A photo with an
    /// ICC profile (Adobe RGB, or a grey one) is converted to sRGB once, by Little CMS
    /// optimised, where poppler's own transform (unoptimised: 6 s for a 12 MP photo at 600 dpi,
    /// now 1.4) would convert each band's pixels: within one level of poppler's on every channel.
    @Test(arguments: [("4000x3000", 150, ""), ("2000x1500", 600, ""), ("4000x3000", 600, ""), ("400x300", 600, ""),
                      ("4000x3000", 150, "a98"), ("2000x1500", 600, "a98"), ("4000x3000", 150, "sgray")])
    func photosAreScaledOnceAndDrawnAsTheRasteriserDrawsThem(size: String, dpi: Int, profile name: String) throws {
        let dir = try temporaryDirectory()
        let profiled = !name.isEmpty
        let profile = profiled ? (name == "sgray" ? ["-colorspace", "Gray"] : []) + ["-profile", "/usr/share/color/icc/ghostscript/\(name).icc"] : []
        _ = try Tool.run("convert", ["-size", size, "-seed", "7", "plasma:", "-quality", "90"] + profile + [dir + "/photo.jpg"])
        try Self.convert([dir + "/photo.jpg", "--media", "A6", "-o", dir + "/job.pdf"])
        try Self.convert([dir + "/job.pdf", "--output-format", "pwg-raster", "--printer-resolution", String(dpi), "-o", dir + "/job.pwg"])
        let page = try #require(try PWGRaster.pages(try Data(contentsOf: URL(fileURLWithPath: dir + "/job.pwg"))).first)
        let drawn = try PPM.decode(try Tool.run("pdftoppm", ["-r", String(dpi), "-aa", "no", "-aaVector", "no", dir + "/job.pdf"]).stdout)
        // pdftoppm rounds the sheet's size up (A6 at 600 dpi: 2481 pixels across, the raster
        // header 2480): the area both have is compared.
        #expect(abs(page.width - drawn.width) <= 1 && abs(page.height - drawn.height) <= 1 && page.bytesPerPixel == 3)
        var differing = 0, inked = 0, farthest = 0
        for y in 0..<min(page.height, drawn.height) {
            for x in 0..<min(page.width, drawn.width) {
                let a = (y * page.width + x) * 3, b = (y * drawn.width + x) * 3
                let apart = (0..<3).map { abs(Int(page.pixels[a + $0]) - Int(drawn.pixels[b + $0])) }.max()!
                if apart > 0 { differing += 1 }
                if apart > farthest { farthest = apart }
                if page.pixels[a] < 250 || page.pixels[a + 1] < 250 || page.pixels[a + 2] < 250 { inked += 1 }
            }
        }
        if profiled {
            #expect(farthest <= 1, "\(size) at \(dpi) dpi: a channel \(farthest) levels from pdftoppm's")
        } else {
            // An edge that falls exactly on a pixel's edge may round the other way in a band
            // than on the whole page: one row or column of the photo at most.
            #expect(differing <= max(page.width, page.height), "\(size) at \(dpi) dpi: \(differing) pixels differ from pdftoppm's")
        }
        // The photo is there: most of the sheet.
        #expect(inked > page.width * page.height / 2, "\(size) at \(dpi) dpi: \(inked) of \(page.width * page.height) pixels inked")
    }

    /// Raster output of a photo needs a few bands' memory, not the sheet's: a 12 MP photo across
    /// a Letter sheet at 600 dpi (134 MB of pixels) peaked at 277 MB, drawn by cairo's device on
    /// a canvas of the whole sheet with the photo decoded whole; 52 MB now.
    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)"))
    func aPhotoAt600DpiNeedsBandsNotTheSheet() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "4000x3000", "-seed", "7", "plasma:", "-quality", "90", dir + "/photo.jpg"])
        let peak = try Tool.peakMegabytes(Tool.swiftprint, ["convert", dir + "/photo.jpg", "--media", "letter", "--output-format", "pwg-raster",
                                                            "--printer-resolution", "600", "-o", dir + "/job.pwg"])
        #expect(peak < 100, "\(peak) MB")
    }

    /// Odd page counts and mixed page sizes: every page keeps its size through raster and back.
    @Test func mixedPageSizesKeepTheirSizes() throws {
        let dir = try temporaryDirectory()
        try Self.convert([examples + "/server.log", "--media", "A5", "--page-ranges", "1", "-o", dir + "/a5.pdf"])
        try Self.convert([examples + "/server.log", "--media", "letter", "--orientation", "landscape", "--page-ranges", "1-2", "-o", dir + "/letter.pdf"])
        try Self.convert([dir + "/a5.pdf", dir + "/letter.pdf", "--output-format", "pwg-raster", "--printer-resolution", "72", "-o", dir + "/m.pwg"])
        try Self.convert([dir + "/m.pwg", "-o", dir + "/m.pdf"])
        let sizes = try PDF.pageSizes(dir + "/m.pdf").map { "\(Int($0.width.rounded()))x\(Int($0.height.rounded()))" }
        #expect(sizes == ["420x595", "792x612", "792x612"], "\(sizes)")
    }

    /// A small PWG raster stream to break: one page, 72 dpi A6, from swiftprint itself.
    static func validStream(in dir: String) throws -> [UInt8] {
        try Self.convert([examples + "/server.log", "--media", "A6", "--page-ranges", "1", "--output-format", "pwg-raster",
                          "--printer-resolution", "72", "-o", dir + "/ok.pwg"])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/ok.pwg")))
    }

    static func word(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        bytes[offset] = UInt8(value >> 24); bytes[offset + 1] = UInt8(value >> 16 & 0xFF)
        bytes[offset + 2] = UInt8(value >> 8 & 0xFF); bytes[offset + 3] = UInt8(value & 0xFF)
    }

    /// Each damaged stream: exit 65, a message naming the file and what is wrong, no output.
    @Test(arguments: [
        ("truncated header", "holds no page"),
        ("truncated page", "page 1 is truncated"),
        ("zero width", "declares no pixels"),
        ("huge size", "more than the limit"),
        ("zero dpi", "0 × 0 dpi"),
        ("more pages declared", "ends after page 1 of the 3"),
        ("wrong sync word", "not a raster stream"),
    ])
    func damagedStreamsAreClearErrors(_ damage: String, _ message: String) throws {
        let dir = try temporaryDirectory()
        var bytes = try Self.validStream(in: dir)
        switch damage {
        case "truncated header": bytes = Array(bytes.prefix(4 + 900))
        case "truncated page": bytes = Array(bytes.prefix(4 + 1796 + 40))
        case "zero width": Self.word(0, at: 4 + 372, in: &bytes)
        case "huge size": Self.word(100_000, at: 4 + 372, in: &bytes); Self.word(100_000, at: 4 + 376, in: &bytes)
        case "zero dpi": Self.word(0, at: 4 + 276, in: &bytes); Self.word(0, at: 4 + 280, in: &bytes)
        case "more pages declared": Self.word(3, at: 4 + 452, in: &bytes)
        default: bytes.replaceSubrange(0..<4, with: Array("XaS2".utf8))
        }
        let input = dir + "/damaged.pwg"
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let r = try swiftprint(["convert", input, "-o", dir + "/out.pdf"])
        #expect(r.status == 65, "\(damage): \(r.status) \(r.stderr)")
        #expect(r.stderr.contains("damaged.pwg") && r.stderr.contains(message), "\(damage): \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.pdf"))
    }

    @Test func rasterIsDetectedByItsContent() throws {
        let dir = try temporaryDirectory()
        let pwg = try Self.validStream(in: dir)
        try Data(pwg).write(to: URL(fileURLWithPath: dir + "/noname"))
        #expect(try swiftprint(["detect", dir + "/noname"]).text.contains("org.pwg.raster"))
        try Self.convert([examples + "/server.log", "--output-format", "urf", "--printer-resolution", "72", "-o", dir + "/a.urf"])
        try FileManager.default.moveItem(atPath: dir + "/a.urf", toPath: dir + "/iphone-job")
        #expect(try swiftprint(["detect", dir + "/iphone-job"]).text.contains("com.apple.urf"))
    }

    // MARK: CUPS's own filters, the other side (cups-filters and Ghostscript, installed for the tests)

    static let cupsfilter = "/usr/sbin/cupsfilter"

    /// PWG raster that cups-filters writes (through Ghostscript) reads as the same pages; the PWG
    /// and Apple raster swiftprint writes read in CUPS's rastertopdf as the same pages.
    @Test func cupsFiltersReadsOurRasterAndWeReadTheirs() throws {
        let dir = try temporaryDirectory()
        // Letter: what cupsfilter renders on without a PPD, whatever the PDF's size.
        try Self.convert([examples + "/server.log", "--media", "letter", "-o", dir + "/text.pdf"])
        let pages = try PDF.pageCount(dir + "/text.pdf")
        let theirs = try Tool.run(Self.cupsfilter, ["-m", "image/pwg-raster", "-o", "Resolution=150dpi", dir + "/text.pdf"])
        #expect(theirs.status == 0, "\(theirs.stderr)")
        try theirs.stdout.write(to: URL(fileURLWithPath: dir + "/theirs.pwg"))
        try Self.convert([dir + "/theirs.pwg", "-o", dir + "/theirs.pdf"])
        #expect(try PDF.pageCount(dir + "/theirs.pdf") == pages)
        let size = try PDF.pageSizes(dir + "/theirs.pdf")[0]
        #expect(abs(size.width - 612) < 1 && abs(size.height - 792) < 1, "\(size)")

        for (format, mime) in [("pwg-raster", "image/pwg-raster"), ("urf", "image/urf")] {
            try Self.convert([dir + "/text.pdf", "--output-format", format, "--printer-resolution", "150", "-o", dir + "/ours.\(format)"])
            let read = try Tool.run(Self.cupsfilter, ["-i", mime, "-m", "application/pdf", dir + "/ours.\(format)"])
            #expect(read.status == 0, "\(mime): \(read.stderr)")
            try read.stdout.write(to: URL(fileURLWithPath: dir + "/cups.pdf"))
            #expect(try PDF.pageCount(dir + "/cups.pdf") == pages, "\(mime)")
            let s = try PDF.pageSizes(dir + "/cups.pdf")[0]
            #expect(abs(s.width - 612) < 1 && abs(s.height - 792) < 1, "\(mime): \(s)")
        }
    }
}
