import Foundation
import TestSupport
import Testing

/// UIKit's output types and IPP's print-color-mode, for every kind of content.
@Suite struct OutputTypeTests {
    /// Pixels whose channels differ (colour), and the top-left pixel, of page `page` in colour.
    func colour(_ pdf: String, page: Int) throws -> (coloured: Int, corner: [UInt8]) {
        let ppm = try Tool.run("pdftoppm", ["-r", "20", "-f", String(page), "-l", String(page), pdf]).stdout
        // P6 header: "P6\n<w> <h>\n255\n"
        var newlines = 0, start = 0
        for (i, b) in ppm.enumerated() where b == 0x0A { newlines += 1; if newlines == 3 { start = i + 1; break } }
        let px = [UInt8](ppm[start...])
        var coloured = 0
        for i in stride(from: 0, to: px.count - 2, by: 3) where Int(px.max(of: i)) - Int(px.min(of: i)) > 8 { coloured += 1 }
        return (coloured, Array(px[0..<3]))
    }

    @Test func monochromePrintsEveryKindOfPageGrey() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "300x200", "gradient:red-blue", dir + "/photo.jpg"])
        _ = try Tool.run("convert", ["-size", "300x200", "xc:none", "-fill", "green", "-draw", "circle 150,100 150,20", dir + "/logo.png"])
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\"><rect width=\"200\" height=\"100\" fill=\"orange\"/></svg>".utf8)
            .write(to: URL(fileURLWithPath: dir + "/art.svg"))
        try Data("red words\n".utf8).write(to: URL(fileURLWithPath: dir + "/note.txt"))
        let inputs = ["photo.jpg", "logo.png", "art.svg"].map { dir + "/" + $0 }
        for (files, extra) in [(inputs, [String]()), ([dir + "/note.txt"], ["--color", "red", "--font", "Sans Bold 40"])] {
            let colourOut = dir + "/colour.pdf", greyOut = dir + "/grey.pdf"
            #expect(try swiftprint(["convert"] + files + ["-o", colourOut] + extra).status == 0)
            let r = try swiftprint(["convert"] + files + ["-o", greyOut, "--print-color-mode", "monochrome"] + extra)
            #expect(r.status == 0, "\(r.stderr)")
            for page in 1...files.count {
                #expect(try colour(colourOut, page: page).coloured > 20, "page \(page) has colour to take away")
                let grey = try colour(greyOut, page: page)
                #expect(grey.coloured == 0, "page \(page): \(grey.coloured) coloured pixels")
                #expect(grey.corner == [255, 255, 255], "the paper stays white")
            }
        }
    }

    @Test func photoOutputPicksPhotoPaperByLocale() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "300x200", "gradient:red-blue", dir + "/photo.jpg"])
        for (locale, size) in [("en_US.UTF-8", (432.0, 288.0)), ("de_DE.UTF-8", (419.528, 297.638))] {
            let r = try swiftprint(["convert", dir + "/photo.jpg", "-o", dir + "/p.pdf", "--output-type", "photo"],
                                   env: ["LC_PAPER": locale, "LC_ALL": "", "PAPERSIZE": ""])
            #expect(r.status == 0, "\(r.stderr)")
            let s = try PDF.pageSizes(dir + "/p.pdf")[0]
            #expect(abs(s.width - size.0) < 0.01 && abs(s.height - size.1) < 0.01, "\(locale): \(s)")
        }
    }
}

extension Array where Element == UInt8 {
    func max(of i: Int) -> UInt8 { Swift.max(self[i], self[i + 1], self[i + 2]) }
    func min(of i: Int) -> UInt8 { Swift.min(self[i], self[i + 1], self[i + 2]) }
}
