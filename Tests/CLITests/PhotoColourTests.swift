import Foundation
import PrintGraphics
import TestSupport
import Testing

/// Colour that survives to paper, in every photo format: a chart of 24 patches, tagged with a
/// profile (sRGB, Adobe RGB, Display P3, grey) and saved by each format's own encoder, is printed
/// to PDF (drawn by poppler, which manages colour) and to PWG raster (read back), and every
/// patch is measured against the chart converted to sRGB by Little CMS: mean ΔE2000 ≤ 2, max ≤ 5.
@Suite(.serialized) struct PhotoColourTests {
    /// The colours of a photographer's chart (X-Rite's ColorChecker Classic, as its sRGB values
    /// are published): skin, sky, foliage, flowers, primaries and a grey scale; 6 × 4 patches of
    /// 40 px.
    static let patches: [[UInt8]] = [
        [115, 82, 68], [194, 150, 130], [98, 122, 157], [87, 108, 67], [133, 128, 177], [103, 189, 170],
        [214, 126, 44], [80, 91, 166], [193, 90, 99], [94, 60, 108], [157, 188, 64], [224, 163, 46],
        [56, 61, 150], [70, 148, 73], [175, 54, 60], [231, 199, 31], [187, 86, 149], [8, 133, 161],
        [243, 243, 242], [200, 200, 200], [160, 160, 160], [122, 122, 121], [85, 85, 85], [52, 52, 52],
    ]
    static let patch = 40, columns = 6, rows = 4

    static let formats = ["jpg", "png", "tif", "webp", "heic", "avif", "jxl"]
    static let profiles = ["srgb", "adobe-rgb", "display-p3", "grey"]

    /// Each format with each profile; WebP has no grey images (its encoder makes grey RGB).
    static let cases: [(String, String)] = profiles.flatMap { p in formats.filter { p != "grey" || $0 != "webp" }.map { ($0, p) } }

    /// The profile's bytes: colord's for sRGB and Adobe RGB; Display P3, and grey of gamma 1.8
    /// (the old Macintosh grey: far enough from sRGB's curve that a lost profile shows), made by
    /// Little CMS from their numbers.
    static func profile(_ name: String) throws -> Data {
        switch name {
        case "srgb": return try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/sRGB.icc"))
        case "adobe-rgb": return try Data(contentsOf: URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc"))
        case "display-p3": return try displayP3.iccProfile(channels: 3)
        default: return try ColorEncoding(primaries: ColorEncoding.bt709Primaries, white: ColorEncoding.d65, transfer: .gamma(1.8)).iccProfile(channels: 1)
        }
    }

    static let displayP3 = ColorEncoding(primaries: [0.680, 0.320, 0.265, 0.690, 0.150, 0.060], white: ColorEncoding.d65, transfer: .sRGB)

    /// The chart's samples, one patch a pixel: RGB, or for grey each patch's mean.
    static func samples(grey: Bool) -> [UInt8] {
        grey ? patches.map { UInt8((Int($0[0]) + Int($0[1]) + Int($0[2])) / 3) } : patches.flatMap { $0 }
    }

    /// The chart as a PNG tagged with `profile` (`-profile` on an untagged image assigns it).
    static func chart(profile: String, in dir: String) throws -> String {
        let grey = profile == "grey"
        let values = samples(grey: grey)
        var draw: [String] = []
        for i in 0..<patches.count {
            let x = (i % columns) * patch, y = (i / columns) * patch
            let c = grey ? [values[i], values[i], values[i]] : patches[i]
            draw += ["-fill", "rgb(\(c[0]),\(c[1]),\(c[2]))", "-draw", "rectangle \(x),\(y) \(x + patch - 1),\(y + patch - 1)"]
        }
        let icc = dir + "/\(profile).icc"
        try Self.profile(profile).write(to: URL(fileURLWithPath: icc))
        let path = dir + "/chart-\(profile).png"
        _ = try Tool.run("convert", ["-size", "\(columns * patch)x\(rows * patch)", "xc:white"] + draw
                         + (grey ? ["-colorspace", "Gray", "-type", "Grayscale"] : ["-type", "TrueColor"])
                         + ["-depth", "8", "-profile", icc, path])
        return path
    }

    /// The tagged chart in `format`, by that format's encoder (lossy where the format mostly is).
    static func encode(_ png: String, as format: String, in dir: String) throws -> String {
        let out = dir + "/chart." + format
        switch format {
        case "jpg": _ = try Tool.run("convert", [png, "-quality", "95", out])
        case "png": return png
        case "tif": _ = try Tool.run("convert", [png, out])
        case "webp": _ = try Tool.run("cwebp", ["-quiet", "-q", "95", "-metadata", "icc", png, "-o", out])
        case "heic": _ = try Tool.run("heif-enc", ["-q", "95", png, "-o", out])
        case "avif": _ = try Tool.run("avifenc", ["-s", "8", "--min", "0", "--max", "4", png, out])
        default: _ = try Tool.run("cjxl", ["-q", "95", png, out])
        }
        return out
    }

    /// L*a*b* of each patch's middle (20 × 20 px, averaged) in a page drawn at one pixel a point.
    static func measure(_ pdf: String) throws -> [[Double]] {
        let ppm = try PPM.decode(try Tool.run("pdftoppm", ["-r", "72", "-f", "1", "-l", "1", pdf]).stdout)
        #expect(ppm.width == columns * patch && ppm.height == rows * patch, "page \(ppm.width)×\(ppm.height)")
        return try CIELab.of(patchMeans(ppm.pixels, width: ppm.width), channels: 3, profile: nil)
    }

    /// The chart's patches as Little CMS shows them in sRGB, in L*a*b*.
    static func expected(profile: String) throws -> [[Double]] {
        let grey = profile == "grey"
        let srgb = try CIELab.rgb(of: samples(grey: grey), channels: grey ? 1 : 3, profile: try Self.profile(profile))
        return try CIELab.of(srgb, channels: 3, profile: nil)
    }

    /// Mean and largest ΔE2000 over the patches.
    static func difference(_ measured: [[Double]], _ expected: [[Double]]) -> (mean: Double, worst: Double, at: Int) {
        let differences = zip(measured, expected).map { CIELab.deltaE2000($0, $1) }
        let worst = differences.max() ?? 0
        return (differences.reduce(0, +) / Double(differences.count), worst, differences.firstIndex(of: worst) ?? -1)
    }

    static func check(_ measured: [[Double]], against expected: [[Double]], _ what: String) {
        let (mean, worst, at) = difference(measured, expected)
        #expect(mean <= 2 && worst <= 5, "\(what): mean ΔE2000 \(mean), max \(worst) (patch \(at))")
    }

    static let page = ["--media", "240x160pt", "--margins", "0", "--print-scaling", "fill"]

    @Test(arguments: cases)
    func aTaggedChartPrintsInItsColours(format: String, profile: String) throws {
        let dir = try temporaryDirectory()
        let file = try Self.encode(try Self.chart(profile: profile, in: dir), as: format, in: dir)
        let expected = try Self.expected(profile: profile)

        let pdf = dir + "/out.pdf"
        let r = try swiftprint(["convert", file, "-o", pdf] + Self.page)
        #expect(r.status == 0, "\(r.stderr)")
        Self.check(try Self.measure(pdf), against: expected, "\(format) \(profile), PDF")

        let pwg = dir + "/out.pwg", back = dir + "/back.pdf"
        let raster = try swiftprint(["convert", file, "-o", pwg, "--output-format", "pwg-raster", "--printer-resolution", "72",
                                     "--pwg-raster-document-type", "srgb_8"] + Self.page)
        #expect(raster.status == 0, "\(raster.stderr)")
        #expect(try swiftprint(["convert", pwg, "-o", back] + Self.page).status == 0)
        Self.check(try Self.measure(back), against: expected, "\(format) \(profile), PWG raster")
    }

    /// Raster for a printer whose gamut is wider than sRGB keeps a wide-gamut photo's colours:
    /// the chart in Adobe RGB and in Display P3, from each format, printed as Adobe RGB raster,
    /// is read from the raster's own samples (not shown through sRGB, which would clip them) and
    /// measured against the chart converted to Adobe RGB by Little CMS. Drawn in sRGB and then
    /// converted, as before, the Adobe RGB chart's yellow (outside sRGB) came out 7.3 ΔE2000 off.
    @Test(arguments: ["adobe-rgb", "display-p3"].flatMap { p in formats.map { ($0, p) } })
    func aWideGamutPhotoKeepsItsColoursInAdobeRGBRaster(format: String, profile: String) throws {
        let dir = try temporaryDirectory()
        let file = try Self.encode(try Self.chart(profile: profile, in: dir), as: format, in: dir)
        let pwg = dir + "/out.pwg"
        let r = try swiftprint(["convert", file, "-o", pwg, "--output-format", "pwg-raster", "--printer-resolution", "72",
                                "--pwg-raster-document-type", "adobe-rgb_8"] + Self.page)
        #expect(r.status == 0, "\(r.stderr)")
        let stream = try Data(contentsOf: URL(fileURLWithPath: pwg))
        let page = try #require(try PWGRaster.pages(stream).first), colorSpace = PWGHeader(stream).colorSpace
        #expect(colorSpace == 20 && page.width == Self.columns * Self.patch, "colour space \(colorSpace)")
        let inAdobeRGB = try CIELab.rgb(of: Self.samples(grey: false), channels: 3, profile: try Self.profile(profile), in: AdobeRGB.profile)
        let expected = try CIELab.of(inAdobeRGB, channels: 3, profile: AdobeRGB.profile)
        Self.check(try CIELab.of(Self.patchMeans(page.pixels, width: page.width), channels: 3, profile: AdobeRGB.profile),
                   against: expected, "\(format) \(profile), Adobe RGB raster")
    }

    /// The colours on every side of a wide-gamut page: Adobe RGB's pure green, outside sRGB,
    /// stays pure green in Adobe RGB raster and reaches CMYK inks as Little CMS converts it
    /// from Adobe RGB (not from sRGB's nearest green); an untagged (sRGB) green and grey, as
    /// text and drawings have them, still print as sRGB's.
    @Test func aColourOutsideSRGBReachesAWideGamutPrinter() throws {
        let dir = try temporaryDirectory()
        let icc = dir + "/adobe-rgb.icc"
        try Self.profile("adobe-rgb").write(to: URL(fileURLWithPath: icc))
        let wide = dir + "/wide.png", plain = dir + "/plain.png"
        _ = try Tool.run("convert", ["-size", "80x40", "xc:rgb(0,255,0)", "-type", "TrueColor", "-profile", icc, wide])
        _ = try Tool.run("convert", ["-size", "80x40", "xc:rgb(0,255,0)", "-fill", "rgb(128,128,128)", "-draw", "rectangle 40,0 79,39",
                                     "-type", "TrueColor", plain])
        let page = ["--media", "80x40pt", "--margins", "0", "--print-scaling", "fill", "--printer-resolution", "72", "--output-format", "pwg-raster"]
        let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
        func raster(_ file: String, _ type: String) throws -> (width: Int, height: Int, bytesPerPixel: Int, pixels: [UInt8]) {
            let out = dir + "/\(URL(fileURLWithPath: file).lastPathComponent).\(type).pwg"
            let r = try swiftprint(["convert", file, "-o", out, "--pwg-raster-document-type", type, "--cmyk-profile", cmykProfile] + page)
            #expect(r.status == 0, "\(r.stderr)")
            return try #require(try PWGRaster.pages(try Data(contentsOf: URL(fileURLWithPath: out))).first)
        }
        func pixel(_ page: (width: Int, height: Int, bytesPerPixel: Int, pixels: [UInt8]), x: Int) -> [Int] {
            let size = page.bytesPerPixel, at = (20 * page.width + x) * size
            return page.pixels[at..<(at + size)].map { Int($0) }
        }
        func near(_ a: [Int], _ b: [UInt8], _ what: String) {
            #expect(zip(a, b).allSatisfy { abs($0 - Int($1)) <= 1 }, "\(what): \(a), expected \(b)")
        }

        // colord's Adobe RGB profile (the photo's) and swiftprint's (the raster's) differ by a
        // little; Little CMS says by how much.
        let green = try CIELab.rgb(of: [0, 255, 0], channels: 3, profile: try Self.profile("adobe-rgb"), in: AdobeRGB.profile)
        #expect(green[0] < 10 && green[1] == 255 && green[2] < 10, "\(green)")
        near(pixel(try raster(wide, "adobe-rgb_8"), x: 20), green, "Adobe RGB green in Adobe RGB raster")
        let plainAdobe = try raster(plain, "adobe-rgb_8")
        let srgbInAdobe = try CIELab.rgb(of: [0, 255, 0, 128, 128, 128], channels: 3, profile: try Self.profile("srgb"), in: AdobeRGB.profile)
        near(pixel(plainAdobe, x: 20), Array(srgbInAdobe[0..<3]), "sRGB green in Adobe RGB raster")
        near(pixel(plainAdobe, x: 60), Array(srgbInAdobe[3..<6]), "sRGB grey in Adobe RGB raster")

        // DeviceCMYK (a CMYK JPEG without a profile) has no colours of its own but those
        // poppler's formula gives it in sRGB: the same in Adobe RGB raster, converted.
        let cmyk = dir + "/cmyk.jpg"
        _ = try Tool.run("convert", ["-size", "80x40", "xc:cmyk(0%,20%,80%,10%)", "-fill", "cmyk(90%,10%,0%,0%)", "-draw", "rectangle 40,0 79,39",
                                     "-colorspace", "CMYK", "-quality", "100", cmyk])
        let cmykSRGB = try raster(cmyk, "srgb_8"), cmykAdobe = try raster(cmyk, "adobe-rgb_8")
        for x in [20, 60] {
            let srgb = pixel(cmykSRGB, x: x).map { UInt8($0) }
            near(pixel(cmykAdobe, x: x), try CIELab.rgb(of: srgb, channels: 3, profile: try Self.profile("srgb"), in: AdobeRGB.profile),
                 "DeviceCMYK \(srgb) in Adobe RGB raster")
        }

        let inks = try ColorTransform(from: AdobeRGB.profile, toProfile: try Data(contentsOf: URL(fileURLWithPath: cmykProfile)),
                                      named: cmykProfile, output: .cmyk8)
        var expected = [UInt8](repeating: 0, count: 4)
        var canvasGreen = UInt32(green[0]) << 16 | UInt32(green[1]) << 8 | UInt32(green[2])
        inks.apply(&canvasGreen, count: 1, into: &expected)
        near(pixel(try raster(wide, "cmyk_8"), x: 20), expected, "Adobe RGB green in CMYK raster")
    }

    /// Each patch's middle (20 × 20 px, averaged) in rows of RGB samples `width` pixels wide.
    static func patchMeans(_ samples: [UInt8], width: Int) -> [UInt8] {
        (0..<patches.count).flatMap { i -> [UInt8] in
            let x0 = (i % columns) * patch + 10, y0 = (i / columns) * patch + 10
            var sum = [0, 0, 0]
            for y in y0..<(y0 + 20) { for x in x0..<(x0 + 20) { for c in 0..<3 { sum[c] += Int(samples[(y * width + x) * 3 + c]) } } }
            return sum.map { UInt8(($0 + 200) / 400) }
        }
    }

    /// The measure tells a profile lost: Adobe RGB samples printed as if sRGB (the chart with its
    /// profile taken off) are far from the chart's colours.
    @Test func aLostProfileIsSeen() throws {
        let dir = try temporaryDirectory()
        let png = try Self.chart(profile: "adobe-rgb", in: dir)
        _ = try Tool.run("convert", [png, "+profile", "icc", dir + "/bare.png"])
        let pdf = dir + "/out.pdf"
        #expect(try swiftprint(["convert", dir + "/bare.png", "-o", pdf] + Self.page).status == 0)
        let (mean, worst, _) = Self.difference(try Self.measure(pdf), try Self.expected(profile: "adobe-rgb"))
        #expect(mean > 2 && worst > 5, "mean \(mean), max \(worst)")
    }

    /// AVIF says its colour by numbers (nclx: primaries, transfer, matrix) more often than by a
    /// profile: Display P3 by numbers prints as Display P3 by profile does.
    @Test func anAVIFInDisplayP3ByNumbersPrintsInItsColours() throws {
        let dir = try temporaryDirectory()
        let png = try Self.chart(profile: "srgb", in: dir)
        let avif = dir + "/p3.avif"
        _ = try Tool.run("avifenc", ["-s", "8", "--min", "0", "--max", "4", "--ignore-icc", "--cicp", "12/13/6", png, avif])
        let pdf = dir + "/out.pdf"
        let r = try swiftprint(["convert", avif, "-o", pdf] + Self.page)
        #expect(r.status == 0, "\(r.stderr)")
        Self.check(try Self.measure(pdf), against: try Self.expected(profile: "display-p3"), "AVIF nclx 12/13/6")
    }

    /// HDR photos (PQ and HLG, as phones save them in AVIF and JPEG XL) printed on paper, which
    /// has no light brighter than white: a chart of black, BT.2408's mid-grey (18 % of reference
    /// white), reference white (203 cd/m²) and a highlight five times as bright. Mid-grey prints
    /// at L* 50 ± 8, reference white near paper white (L* ≥ 90), the highlight at paper white;
    /// none is clipped or crushed. Code values: ST 2084's and BT.2100's for those light levels.
    /// "avis" is an AVIF sequence of two frames (libavif reads it; libheif the still "avif").
    @Test(arguments: [("avif", "pq"), ("avif", "hlg"), ("avis", "pq"), ("jxl", "pq"), ("jxl", "hlg")])
    func anHDRPhotoIsToneMappedForPaper(format: String, transfer: String) throws {
        let dir = try temporaryDirectory()
        let codes = transfer == "pq" ? [0, 41.30, 58.07, 75.18] : [0, 44.06, 75, 100]
        var draw: [String] = []
        for (i, code) in codes.enumerated() {
            draw += ["-fill", "rgb(\(code)%,\(code)%,\(code)%)", "-draw", "rectangle \(i * 40),0 \(i * 40 + 39),39"]
        }
        let ppm = dir + "/hdr.ppm", file = dir + "/hdr." + (format == "avis" ? "avif" : format)
        _ = try Tool.run("convert", ["-size", "160x40", "xc:black", "-depth", "16"] + draw + ["-type", "TrueColor", "-depth", "16", ppm])
        if format != "jxl" {
            let png = dir + "/hdr.png"
            _ = try Tool.run("convert", [ppm, png])
            let frames = format == "avis" ? [png, png] : [png]
            let r = try Tool.run("avifenc", ["-d", "10", "-s", "8", "--min", "0", "--max", "4", "--ignore-icc", "--cicp", transfer == "pq" ? "9/16/9" : "9/18/9"] + frames + [file])
            #expect(r.status == 0, "\(r.stderr)")
        } else {
            let r = try Tool.run("cjxl", ["-x", "color_space=RGB_D65_202_Rel_" + (transfer == "pq" ? "PeQ" : "HLG"), "-d", "1", ppm, file])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let page = ["--media", "160x40pt", "--margins", "0", "--print-scaling", "fill"]
        let pdf = dir + "/out.pdf", pwg = dir + "/out.pwg", back = dir + "/back.pdf"
        #expect(try swiftprint(["convert", file, "-o", pdf] + page).status == 0)
        #expect(try swiftprint(["convert", file, "-o", pwg, "--output-format", "pwg-raster", "--printer-resolution", "72"] + page).status == 0)
        #expect(try swiftprint(["convert", pwg, "-o", back] + page).status == 0)
        for (what, output) in [("PDF", pdf), ("PWG raster", back)] {
            let image = try PPM.decode(try Tool.run("pdftoppm", ["-r", "72", output]).stdout)
            let rgb = (0..<4).flatMap { i in (0..<3).map { image.pixels[(20 * image.width + i * 40 + 20) * 3 + $0] } }
            let lightness = try CIELab.of(rgb, channels: 3, profile: nil).map { $0[0] }
            #expect(lightness[0] < 5, "\(format) \(transfer) \(what): black at L* \(lightness[0])")
            #expect(abs(lightness[1] - 50) <= 8, "\(format) \(transfer) \(what): mid-grey at L* \(lightness[1])")
            #expect(lightness[2] >= 90 && lightness[2] < lightness[3], "\(format) \(transfer) \(what): reference white at L* \(lightness[2])")
            #expect(lightness[3] >= 98, "\(format) \(transfer) \(what): the highlight at L* \(lightness[3])")
        }
    }
}
