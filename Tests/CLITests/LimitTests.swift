import Foundation
import TestSupport
import Testing

/// Every limit in `JobLimits`, crossed through the real binary: each ends in exit 65 and one line
/// naming the file, what crossed the limit, and the flag that sets it; never a killed process.
/// The decompression bombs of the issue are here too: a tiny file that declares a huge image,
/// JSON nested ten thousand deep, a GIF of thousands of frames, an SVG that uses itself.
@Suite struct LimitTests {
    /// Runs `swiftprint convert` on `input` with `options`; the output path and the result.
    func convert(_ input: String, _ options: [String] = [], stdin: Data? = nil) throws -> (Tool.Result, String) {
        let out = try temporaryDirectory() + "/out.pdf"
        return (try swiftprint(["convert", input, "-o", out] + options, stdin: stdin), out)
    }

    func expectRefused(_ r: Tool.Result, _ out: String, naming file: String, _ words: String, flag: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 65, "\(r.status) \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(file) && r.stderr.contains(words) && r.stderr.hasSuffix("(--\(flag))\n"), "\(r.stderr)",
                sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: out), "a refused job left an output", sourceLocation: sourceLocation)
    }

    /// A file of `text` in a new folder.
    func file(_ name: String, _ data: Data) throws -> String {
        let path = try temporaryDirectory() + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A 65-byte PNG that declares 40000 × 40000 pixels: refused from its header, at once.
    @Test func anImageDeclaringTooManyPixels() throws {
        let png = try file("huge.png", Self.png(width: 40_000, height: 40_000))
        let (r, out) = try convert(png)
        expectRefused(r, out, naming: "huge.png", "declares 40000 × 40000 pixels, more than the limit of 200000000", flag: "max-pixels")
        // In the helper too (the formats of big libraries): a GIF's declared size.
        let gif = try file("two.gif", Self.gif(frames: 1, width: 20, height: 10))
        let (small, smallOut) = try convert(gif, ["--max-pixels", "100"])
        expectRefused(small, smallOut, naming: "two.gif", "declares 20 × 10 pixels, more than the limit of 100", flag: "max-pixels")
    }

    @Test func aDocumentOfTooManyPages() throws {
        let (text, textOut) = try convert(examples + "/multilingual.txt", ["--max-pages", "1", "--font", "Sans 30"])
        expectRefused(text, textOut, naming: "multilingual.txt", "the document runs past 1 pages, its limit", flag: "max-pages")
        // A PDF's page count is known before a page is laid out.
        let pdf = try temporaryDirectory() + "/three.pdf"
        #expect(try swiftprint(["convert", examples + "/multilingual.txt", "--copies", "3", "-o", pdf]).status == 0)
        let pages = try PDF.pageCount(pdf)
        let (r, out) = try convert(pdf, ["--max-pages", "2"])
        expectRefused(r, out, naming: "three.pdf", "the document has \(pages) pages, more than the limit of 2", flag: "max-pages")
    }

    @Test func anInputTooLarge() throws {
        let big = try file("big.txt", Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1))
        let (r, out) = try convert(big, ["--max-input-size", "1"])
        expectRefused(r, out, naming: "big.txt", "more than the limit of 1 MB", flag: "max-input-size")
        // Standard input is cut off as it passes the limit, not read to its end first.
        let (piped, pipedOut) = try convert("-", ["--max-input-size", "1"], stdin: Data(repeating: UInt8(ascii: "a"), count: 3 << 20))
        expectRefused(piped, pipedOut, naming: "standard input", "more than the limit of 1 MB", flag: "max-input-size")
    }

    @Test func aMapOfTooManyPoints() throws {
        let (r, out) = try convert(examples + "/walk.gpx", ["--map-max-points", "3"])
        expectRefused(r, out, naming: "walk.gpx", "more than 3 points", flag: "map-max-points")
        var geojson = #"{"type":"LineString","coordinates":["#
        geojson += (0..<50).map { "[\(Double($0) / 100), 51.5]" }.joined(separator: ",") + "]}"
        let line = try file("line.geojson", Data(geojson.utf8))
        let (g, gOut) = try convert(line, ["--map-max-points", "10"])
        expectRefused(g, gOut, naming: "line.geojson", "more than 10 points", flag: "map-max-points")
    }

    /// Tiles are counted for the whole job, every poster sheet together, before one is asked for.
    @Test func aPosterNeedingTooManyTilesOverAllItsSheets() throws {
        // One sheet needs one tile of the basemap; each of nine poster sheets needs one too.
        let (one, _) = try convert(examples + "/walk.gpx", ["--map-max-tiles", "4"])
        #expect(one.status == 0, "one sheet fits: \(one.stderr)")
        let (r, out) = try convert(examples + "/walk.gpx", ["--map-max-tiles", "4", "--map-poster", "3x3"])
        expectRefused(r, out, naming: "walk.gpx", "the map needs 9 tiles at zoom 4 over its 9 sheets, more than the limit of 4", flag: "map-max-tiles")
    }

    /// GeoJSON nested ten thousand deep: refused before a parser recurses into it.
    @Test func jsonNestedTenThousandDeep() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let path = try file("deep.geojson", Data(#"{"type":"LineString","coordinates":\#(deep)}"#.utf8))
        let (r, out) = try convert(path)
        expectRefused(r, out, naming: "deep.geojson", "nested more than 256 deep", flag: "max-nesting")
    }

    /// The helpers' clock and memory: the helper is stopped, and the error names the limit.
    @Test func aHelperPastItsTimeOrMemory() throws {
        let (slow, slowOut) = try convert(examples + "/poster.svg", ["--helper-timeout", "0.001"])
        expectRefused(slow, slowOut, naming: "poster.svg", "swiftprint-image took longer than 0.001 s and was stopped", flag: "helper-timeout")
        // The raster helper's clock runs from its start or its last sheet.
        let (raster, rasterOut) = try convert(examples + "/server.log", ["--output-format", "pwg-raster", "--helper-timeout", "0.001"])
        expectRefused(raster, rasterOut, naming: "server.log", "swiftprint-raster drew no sheet for 0.001 s and was stopped", flag: "helper-timeout")
        // A slow reader of the job's output (a printer out of paper) is not the helper's time:
        // the job's writes (470 KB, more than both pipes hold) wait 2.5 s, longer than the
        // helper's 1 s, and the job still ends well.
        let slowReader = try Tool.run("/bin/bash", ["-c", "set -o pipefail; \"$0\" convert \"$1\" -o - --output-format pwg-raster --printer-resolution 600 "
                                                    + "--helper-timeout 1 --quiet | (sleep 2.5; wc -c)", Tool.swiftprint, examples + "/multilingual.txt"])
        #expect(slowReader.status == 0 && (Int(slowReader.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 1 << 18,
                "\(slowReader.status) \(slowReader.stderr)")
        let (html, htmlOut) = try convert(examples + "/report.html", ["--helper-memory", "50"])
        expectRefused(html, htmlOut, naming: "report.html", "needed more than the 50 MB of memory it may use", flag: "helper-memory")
    }

    /// A PDF of under a kilobyte whose image declares 100000 × 100000 pixels: as PDF it is
    /// placed as it is (nothing decodes it); as raster, refused before poppler would spend
    /// minutes decoding it.
    @Test func aPDFDeclaringAHugeImage() throws {
        let pdf = try file("bomb.pdf", Self.pdfWithImage(width: 100_000, height: 100_000))
        let (placed, placedOut) = try convert(pdf)
        #expect(placed.status == 0, "\(placed.stderr)")
        #expect(try PDF.pageCount(placedOut) == 1)
        let (r, out) = try convert(pdf, ["--output-format", "pwg-raster"])
        expectRefused(r, out, naming: "bomb.pdf", "page 1 draws an image of 10000000000 pixels, more than the limit of 200000000", flag: "max-pixels")
    }

    /// A GIF of 3000 frames: its first frame by default, and every frame as a page when asked,
    /// within the page limit or refused by it.
    @Test func aGIFOfThousandsOfFrames() throws {
        let gif = try file("frames.gif", Self.gif(frames: 3000))
        let (first, firstOut) = try convert(gif)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try PDF.pageCount(firstOut) == 1)
        let (all, allOut) = try convert(gif, ["--gif-frames", "all", "--max-pages", "100"])
        expectRefused(all, allOut, naming: "frames.gif", "the GIF has 3000 pages, more than the limit of 100", flag: "max-pages")
    }

    /// An SVG whose elements use each other: librsvg refuses the loop; the job fails naming the file.
    @Test func anSVGThatUsesItself() throws {
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">
        <g id="a"><use xlink:href="#b"/></g><g id="b"><use xlink:href="#a"/></g><use xlink:href="#a"/></svg>
        """
        let path = try file("loop.svg", Data(svg.utf8))
        let (r, out) = try convert(path)
        #expect(r.status == 0 || r.status == 65, "a clean end: \(r.status) \(r.stderr)")
        if r.status == 0 { #expect(try PDF.pageCount(out) == 1) } else { #expect(r.stderr.contains("loop.svg"), "\(r.stderr)") }
    }

    // MARK: files made here

    /// A PNG of just its signature, header and end: enough to declare a size.
    static func png(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(UInt32(body.count)) + typed + be32(crc32(typed))
        }
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        let noRows: [UInt8] = [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]
        return Data([137, 80, 78, 71, 13, 10, 26, 10] + chunk("IHDR", header) + chunk("IDAT", noRows) + chunk("IEND", []))
    }

    /// A GIF89a of `frames` 1 × 1 frames, each its own image, on a screen of `width` × `height`.
    static func gif(frames: Int, width: UInt8 = 1, height: UInt8 = 1) -> Data {
        var bytes: [UInt8] = Array("GIF89a".utf8) + [width, 0, height, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0, 1, 0, 0, 0]              // graphic control: 1/100 s
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0]           // image descriptor, 1 × 1
            bytes += [2, 2, 0x44, 0x01, 0]                       // LZW minimum 2, one pixel, end
        }
        bytes.append(0x3B)
        return Data(bytes)
    }

    /// A one-page PDF drawing one image XObject that declares `width` × `height` RGB pixels,
    /// with a few hundred bytes of data.
    static func pdfWithImage(width: Int, height: Int) -> Data {
        let content = "q 600 0 0 780 6 6 cm /Im1 Do Q"
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
            "<< /Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length 3 >>\nstream\n\u{0}\u{0}\u{0}\nendstream",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
        ]
        return HandWrittenPDF.make(objects)
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
