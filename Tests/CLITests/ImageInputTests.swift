import Foundation
import TestSupport
import Testing

/// Images through the real binary, on real files ImageMagick makes: stored as they came,
/// upright, in the right colours, and refused cleanly when bad.
@Suite struct ImageInputTests {
    /// A 600×400 image: a red-to-blue gradient from top to bottom, with a white box at the top left.
    func makeImage(_ name: String, _ extra: [String] = []) throws -> String {
        let path = try temporaryDirectory() + "/" + name
        _ = try Tool.run("convert", ["-size", "600x400", "gradient:red-blue", "-fill", "white",
                                     "-draw", "rectangle 20,20 160,110"] + extra + [path])
        return path
    }

    /// Inserts an EXIF block with `orientation` after the JPEG's start-of-image marker.
    func withEXIFOrientation(_ jpeg: String, _ orientation: UInt16) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1,
                             UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0, 0, 0, 0, 0]
        let body = Array("Exif\0\0".utf8) + tiff
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        data.insert(contentsOf: segment, at: 2)
        let out = jpeg.replacingOccurrences(of: ".jpg", with: "-exif\(orientation).jpg")
        try data.write(to: URL(fileURLWithPath: out))
        return out
    }

    func convert(_ inputs: [String], _ options: [String] = []) throws -> String {
        let out = try temporaryDirectory() + "/out.pdf"
        let r = try swiftprint(["convert"] + inputs + ["-o", out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    /// Mean grey (0 black … 255 white) of a region given in fractions of the page.
    func brightness(_ pdf: String, page: Int = 1, x: ClosedRange<Double>, y: ClosedRange<Double>) throws -> Double {
        let (w, h, pixels) = try PDF.grayPixels(pdf, page: page, dpi: 30)
        var sum = 0, n = 0
        for row in Int(y.lowerBound * Double(h))..<Int(y.upperBound * Double(h)) {
            for col in Int(x.lowerBound * Double(w))..<Int(x.upperBound * Double(w)) { sum += Int(pixels[row * w + col]); n += 1 }
        }
        return Double(sum) / Double(max(n, 1))
    }

    @Test(arguments: [[String](), ["-interlace", "Plane"]])
    func aJPEGIsStoredByteForByte(progressive: [String]) throws {
        let jpeg = try makeImage("photo.jpg", progressive)
        let out = try convert([jpeg])
        let list = try Tool.run("pdfimages", ["-list", out]).text
        #expect(list.contains("jpeg"), "\(list)")
        let dir = try temporaryDirectory()
        _ = try Tool.run("pdfimages", ["-j", out, dir + "/x"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/x-000.jpg")) == Data(contentsOf: URL(fileURLWithPath: jpeg)))
    }

    /// A large photo's stored bytes go from their file straight into the output, past qpdf's
    /// writer (which held each stream whole, then copied it: a 27 MB JPEG cost 59 MB more at its
    /// peak). Whether the photo is a JPEG or a page of another PDF holding one, between other
    /// pages, written to a file or to a pipe: the photo is its file's bytes exactly, the PDF
    /// checks clean, the job needs less memory more than one with a small photo than a photo
    /// and a half (an 8.5 MB photo, twice, two copies: + 2 MB from the JPEG, + 7–11 MB from a
    /// PDF holding it; + 30 and + 68 before), and a file and a pipe get the same bytes.
    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)"),
          arguments: ["jpg", "pdf"])
    func aLargePhotoGoesStraightFromItsFileIntoTheOutput(source: String) throws {
        let dir = try temporaryDirectory()
        let jpeg = dir + "/noise.jpg", small = dir + "/small.jpg"
        _ = try Tool.run("convert", ["-size", "4000x3000", "xc:", "+noise", "Random", "-quality", "85", jpeg])
        _ = try Tool.run("convert", ["-size", "400x300", "xc:", "+noise", "Random", "-quality", "85", small])
        let megabytes = Double(try FileManager.default.attributesOfItem(atPath: jpeg)[.size] as! Int) / 1_048_576
        #expect(megabytes > 8, "the photo is \(megabytes) MB")
        var photo = jpeg, smallPhoto = small
        if source == "pdf" {
            for (image, pdf) in [(jpeg, dir + "/photo.pdf"), (small, dir + "/small.pdf")] {
                let r = try swiftprint(["convert", image, "--media", "A4", "-o", pdf])
                #expect(r.status == 0, "\(r.stderr)")
            }
            (photo, smallPhoto) = (dir + "/photo.pdf", dir + "/small.pdf")
        }
        let job = { (photo: String) in [photo, examples + "/notes.md", photo, "--copies", "2"] }
        let peak = try Tool.peakMegabytes(Tool.swiftprint, ["convert"] + job(photo) + ["-o", dir + "/out.pdf"])
        let smallPeak = try Tool.peakMegabytes(Tool.swiftprint, ["convert"] + job(smallPhoto) + ["-o", dir + "/small-out.pdf"])
        #expect(peak < smallPeak + megabytes * 1.5, "\(megabytes) MB photo: \(peak) MB; a small one: \(smallPeak) MB")
        let check = try Tool.run("qpdf", ["--check", dir + "/out.pdf"])
        #expect(check.status == 0 && check.text.contains("No syntax or stream encoding errors"), "\(check.text)")
        _ = try Tool.run("pdfimages", ["-j", dir + "/out.pdf", dir + "/x"])
        let stored = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("x-") }.sorted()
        #expect(stored.count >= 2, "\(stored)")
        let original = try Data(contentsOf: URL(fileURLWithPath: jpeg))
        for name in stored {
            let extracted = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
            #expect(extracted == original, "\(name)")
        }
        // The same moment for both (a PDF's creation date is the job's).
        let epoch = ["SOURCE_DATE_EPOCH": "1700000000"]
        let filed = try swiftprint(["convert"] + job(photo) + ["-o", dir + "/out.pdf"], env: epoch)
        #expect(filed.status == 0, "\(filed.stderr)")
        let piped = try Tool.run(Tool.swiftprint, ["convert"] + job(photo) + ["-o", "-"], environment: epoch)
        let written = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.pdf"))
        #expect(piped.status == 0 && piped.stdout == written)
    }

    /// Orientation → sheet shape, and where the white box lands (which corner).
    @Test(arguments: [
        (1, false, "top-left"),
        (6, true, "top-right"),
        (8, true, "bottom-left"),
        (3, false, "bottom-right"),
    ])
    func exifOrientationIsHonoured(orientation: UInt16, portrait: Bool, corner: String) throws {
        let jpeg = try withEXIFOrientation(try makeImage("photo.jpg"), orientation)
        let out = try convert([jpeg], ["--media", "A4", "--margins", "0", "--print-scaling", "fill"])
        let size = try PDF.pageSizes(out)[0]
        #expect((size.width < size.height) == portrait)
        let left = 0.0...0.15, right = 0.85...1.0, top = 0.0...0.15, bottom = 0.85...1.0
        let corners = ["top-left": (left, top), "top-right": (right, top), "bottom-left": (left, bottom), "bottom-right": (right, bottom)]
        var brightness: [String: Double] = [:]
        for (name, (x, y)) in corners { brightness[name] = try self.brightness(out, x: x, y: y) }
        let others = brightness.filter { $0.key != corner }.values
        #expect(others.allSatisfy { brightness[corner]! > $0 + 50 }, "the white box belongs at the \(corner): \(brightness)")
    }

    /// CUPS's `scaling=50` with `position=bottom-right`: the image fitted to the landscape sheet,
    /// then drawn at half that size in the bottom-right corner; the rest of the sheet stays white.
    @Test func scalingIsAPercentOfTheFittedSize() throws {
        let out = try convert([try makeImage("wide.jpg")], ["--media", "A4", "--margins", "0", "--scaling", "50", "--position", "bottom-right"])
        let size = try PDF.pageSizes(out)[0]
        #expect(size.width > size.height)
        // Fitted, the 3:2 image fills the sheet's height and 0.9987 of its width; half of it
        // covers x 0.5–1 and y 0.5–1 of the sheet (to within a pixel at 30 dpi).
        #expect(try brightness(out, x: 0.55...0.95, y: 0.6...0.95) < 200)
        #expect(try brightness(out, x: 0.02...0.45, y: 0.02...0.45) > 250)
        #expect(try brightness(out, x: 0.55...0.95, y: 0.02...0.45) > 250)
        #expect(try brightness(out, x: 0.02...0.45, y: 0.55...0.95) > 250)
    }

    @Test func wideImagesPrintLandscapeUnlessTheJobSaysOtherwise() throws {
        let jpeg = try makeImage("wide.jpg")
        var size = try PDF.pageSizes(try convert([jpeg], ["--media", "A4"]))[0]
        #expect(size.width > size.height)
        size = try PDF.pageSizes(try convert([jpeg], ["--media", "A4", "--orientation", "portrait"]))[0]
        #expect(size.width < size.height)
    }

    /// An HDR photo with a gain map (Ultra HDR, Apple's and Adobe's: a Multi-Picture JPEG whose
    /// second image is the map) prints its first, SDR image, stored without the map after it.
    @Test func aGainMapJPEGPrintsItsSDRImage() throws {
        let dir = try temporaryDirectory()
        var base = try Data(contentsOf: URL(fileURLWithPath: try makeImage("base.jpg")))
        // An APP2 `MPF` segment after the start of image (an index the printer needs not read).
        let mpf = Array("MPF\0".utf8) + [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 0]
        base.insert(contentsOf: [0xFF, 0xE2, UInt8((mpf.count + 2) >> 8), UInt8((mpf.count + 2) & 0xFF)] + mpf, at: 2)
        _ = try Tool.run("convert", ["-size", "600x400", "xc:black", dir + "/map.jpg"])
        let file = dir + "/hdr.jpg"
        try (base + Data(contentsOf: URL(fileURLWithPath: dir + "/map.jpg"))).write(to: URL(fileURLWithPath: file))
        let out = try convert([file])
        _ = try Tool.run("pdfimages", ["-j", out, dir + "/x"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/x-000.jpg")) == base, "the SDR image, byte for byte, without the map")
        #expect(try brightness(out, x: 0.2...0.3, y: 0.5...0.6) > 40, "the photo, not the black map")
    }

    @Test func adobeCMYKJPEGsPrintPositive() throws {
        let jpeg = try makeImage("cmyk.jpg", ["-colorspace", "CMYK"])
        let out = try convert([jpeg], ["--margins", "0", "--print-scaling", "fill", "--media", "A4"])
        #expect(try Tool.run("pdfimages", ["-list", out]).text.contains("cmyk"))
        #expect(try brightness(out, x: 0.05...0.2, y: 0.08...0.2) > 200, "the white box stays white")
        #expect(try brightness(out, x: 0.5...0.6, y: 0.9...1.0) < 120, "the blue end stays dark")
    }

    @Test func anEmbeddedICCProfileGoesWithTheImage() throws {
        // Adobe RGB (1998), as Debian's libgs-common ships it.
        let icc = "/usr/share/color/icc/ghostscript/a98.icc"
        let jpeg = try makeImage("adobe-rgb.jpg", ["-profile", icc])
        let png = try makeImage("adobe-rgb.png", ["-profile", icc])
        let list = try Tool.run("pdfimages", ["-list", try convert([jpeg, png])]).text
        let rows = imageRows(list)
        #expect(rows.count == 2 && rows.allSatisfy { $0[5] == "icc" }, "\(list)")
    }

    @Test func pngAlphaPrintsOverWhiteAndSixteenBitsStay() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "300x200", "xc:none", "-fill", "black", "-draw", "circle 150,100 150,30", dir + "/alpha.png"])
        _ = try Tool.run("convert", ["-size", "300x200", "gradient:white-black", "-depth", "16", dir + "/deep.png"])
        let out = try convert([dir + "/alpha.png", dir + "/deep.png"], ["--margins", "0", "--media", "A4"])
        #expect(try brightness(out, page: 1, x: 0.0...0.1, y: 0.0...0.1) > 250, "transparent corners are paper-white")
        #expect(try brightness(out, page: 1, x: 0.45...0.55, y: 0.45...0.55) < 30, "the opaque circle is black")
        let list = try Tool.run("pdfimages", ["-list", out]).text
        #expect(list.contains("smask"))
        #expect(list.split(separator: "\n").contains { $0.contains("gray") && $0.contains(" 16 ") }, "\(list)")
    }

    @Test func aMixedJobOfImagesPDFAndText() throws {
        let jpeg = try makeImage("a.jpg"), png = try makeImage("b.png")
        let dir = try temporaryDirectory()
        try Data("words on a page\n".utf8).write(to: URL(fileURLWithPath: dir + "/t.txt"))
        let out = try convert([jpeg, dir + "/t.txt", png], ["--footer", "||{page}/{pages}"])
        #expect(try PDF.pageCount(out) == 3)
        #expect(try PDF.text(out, first: 2, last: 2).contains("words on a page"))
        #expect(try PDF.text(out, first: 3, last: 3).contains("3/3"))
        let list = try Tool.run("pdfimages", ["-list", out]).text
        #expect(imageRows(list).count == 2, "\(list)")
    }

    /// Bad images: each exits 65 naming the file and the problem, and leaves no output.
    @Test(arguments: ["truncated.jpg", "bad-crc.png", "huge.png"])
    func badImagesFailCleanly(name: String) throws {
        let dir = try temporaryDirectory()
        let path = dir + "/" + name
        switch name {
        case "truncated.jpg":
            let data = try Data(contentsOf: URL(fileURLWithPath: try makeImage("ok.jpg")))
            try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        case "bad-crc.png":
            // Spoil the first IDAT chunk's checksum, which follows its data.
            var data = try Data(contentsOf: URL(fileURLWithPath: try makeImage("ok.png")))
            let type = data.range(of: Data("IDAT".utf8))!.lowerBound
            let length = data[(type - 4)..<type].reduce(0) { $0 << 8 | Int($1) }
            data[type + 4 + length] ^= 0xFF
            try data.write(to: URL(fileURLWithPath: path))
        default:
            // A small PNG whose header declares 60000 × 60000 pixels (with a correct CRC).
            var data = try Data(contentsOf: URL(fileURLWithPath: try makeImage("ok.png")))
            let ihdr = data.range(of: Data("IHDR".utf8))!.lowerBound
            let size: [UInt8] = [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60]
            data.replaceSubrange((ihdr + 4)..<(ihdr + 12), with: size)
            let crc = crc32(data[ihdr..<(ihdr + 17)])
            data.replaceSubrange((ihdr + 17)..<(ihdr + 21), with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
            try data.write(to: URL(fileURLWithPath: path))
        }
        let r = try swiftprint(["convert", path, "-o", dir + "/o.pdf"])
        #expect(r.status == 65, "\(r.stderr)")
        let expected = ["truncated.jpg": "truncated", "bad-crc.png": "CRC", "huge.png": "60000 × 60000"][name]!
        #expect(r.stderr.contains(name) && r.stderr.contains(expected), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
    }

    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)")) func aTwentyFourMegapixelPhotoNeedsLittleMemory() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "6000x4000", "plasma:", "-quality", "85", dir + "/big.jpg"])
        let r = try Tool.run("/usr/bin/time", ["-f", "%M", Tool.swiftprint, "convert", dir + "/big.jpg", "-o", dir + "/big.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        let kilobytes = Int(r.stderr.split(separator: "\n").last ?? "") ?? .max
        // 62 MB while qpdf's writer held the photo's bytes whole, twice; 30 MB measured since
        // they go from the file straight into the output.
        #expect(kilobytes < 60_000, "peak RSS \(kilobytes) KB")
    }

    /// A job of many photos holds one at a time: a JPEG's bytes are read from its file only as
    /// the PDF is written, and a decoded image's compressed samples (colour and alpha) wait in
    /// temporary files until then, so six photos more cost less than half a photo. (The
    /// document held every photo whole until it was written: ten 6.6 MB JPEGs peaked at 126 MB,
    /// now 53; eight 18 MB PNGs at 223 MB, now 97.) A JPEG is stored byte for byte, a PNG's
    /// pixels come back exactly.
    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)"),
          arguments: ["jpg", "png", "png with alpha"])
    func aJobOfManyPhotosHoldsOneAtATime(kind: String) throws {
        let dir = try temporaryDirectory()
        let format = String(kind.prefix(3))
        let photo = dir + "/noise.\(format)"
        let make = switch kind {
        case "jpg": ["-size", "2400x1800", "xc:", "+noise", "Random", "-quality", "92"]
        case "png": ["-size", "1600x1200", "xc:", "+noise", "Random", "-depth", "8"]
        default: ["-size", "1200x900", "xc:none", "-channel", "RGBA", "+noise", "Random", "-depth", "8"]  // an alpha that does not compress
        }
        _ = try Tool.run("convert", make + [photo])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        let megabytes = Double(bytes.count) / 1_048_576
        let photos = try (1...8).map { i in
            let copy = dir + "/noise\(i).\(format)"
            try bytes.write(to: URL(fileURLWithPath: copy))
            return copy
        }
        let two = try Tool.peakMegabytes(Tool.swiftprint, ["convert"] + photos.prefix(2) + ["-o", dir + "/two.pdf"])
        let eight = try Tool.peakMegabytes(Tool.swiftprint, ["convert"] + photos + ["-o", dir + "/eight.pdf"])
        #expect(eight < two + megabytes / 2, "photos of \(megabytes) MB: two peak at \(two) MB, eight at \(eight) MB")
        let stored = imageRows(try Tool.run("pdfimages", ["-list", dir + "/eight.pdf"]).text)
        #expect(stored.count == 8 && stored.allSatisfy { $0[8] == (format == "jpg" ? "jpeg" : "image") }, "\(stored)")
        if kind == "png with alpha" {
            let masks = try Tool.run("pdfimages", ["-list", dir + "/eight.pdf"]).text.split(separator: "\n").filter { $0.contains(" smask ") }
            #expect(masks.count == 8, "\(masks)")
        } else if format == "jpg" {
            #expect(try Tool.run("pdfimages", ["-j", "-f", "8", "-l", "8", dir + "/eight.pdf", dir + "/back"]).status == 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/back-000.jpg")) == bytes, "the eighth photo's bytes as they came")
        } else {
            // The eighth image's pixels are the photo's.
            #expect(try Tool.run("pdfimages", ["-png", "-f", "8", "-l", "8", dir + "/eight.pdf", dir + "/back"]).status == 0)
            let same = try Tool.run("compare", ["-metric", "AE", photo, dir + "/back-000.png", "null:"])
            #expect(same.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "pixels differing: \(same.stderr)")
        }
    }
}

/// The rows of `pdfimages -list` for images (not soft masks), split into columns.
func imageRows(_ list: String) -> [[String]] {
    list.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 5 && $0[2] == "image" }
}

/// CRC-32 (IEEE), as PNG chunks use it.
func crc32(_ bytes: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
}
