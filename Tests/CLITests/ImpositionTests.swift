import Foundation
import TestSupport
import Testing

/// Imposition checked against real output: every logical page is a flat colour of its own with
/// a black square in its top-left corner. Each sheet is rasterised and each page found by its
/// colour: where its centre lies says which cell it is in, where its square lies says which way
/// up it is. Nothing here repeats the imposer's arithmetic.
@Suite(.serialized) struct ImpositionTests {
    /// Sixteen colours at least 64 apart in some channel.
    static let colors: [(Int, Int, Int)] = [
        (255, 0, 0), (0, 160, 0), (0, 0, 255), (255, 160, 0), (160, 0, 255), (0, 192, 192), (128, 64, 0), (255, 96, 192),
        (96, 96, 96), (160, 160, 0), (0, 64, 128), (128, 255, 128), (255, 224, 160), (128, 128, 255), (64, 128, 0), (192, 192, 192),
    ]

    /// A PDF of `count` A4 pages (page `landscape` turned), page i showing colour i.
    static func pages(_ count: Int, landscape: Int? = nil, in dir: String, name: String = "pages") throws -> String {
        var images: [String] = []
        for i in 0..<count {
            let (r, g, b) = colors[i]
            let size = i + 1 == landscape ? "842x595" : "595x842"
            let png = "\(dir)/\(name)-\(String(format: "%02d", i)).png"
            let made = try Tool.run("convert", ["-size", size, String(format: "xc:#%02x%02x%02x", r, g, b), "-fill", "black",
                                                "-draw", "rectangle 0,0 110,110", "PNG24:" + png])
            #expect(made.status == 0, "\(made.stderr)")
            images.append(png)
        }
        let pdf = "\(dir)/\(name).pdf"
        let r = try swiftprint(["convert"] + images + ["-o", pdf, "--media", "A4", "--margins", "0", "--print-scaling", "fill"])
        #expect(r.status == 0, "\(r.stderr)")
        return pdf
    }

    /// Which way up a page lies: where its top-left square ended up.
    enum Way: String { case up, right, left, down }

    struct Found: Equatable, CustomStringConvertible {
        var page: Int, column: Int, row: Int, way: Way
        var description: String { "p\(page)@\(column),\(row) \(way)" }
    }

    /// The pages on sheet `sheet`, located in a grid of `columns` × `rows` over the sheet.
    static func found(_ pdf: String, sheet: Int, columns: Int, rows: Int) throws -> [Found] {
        try found(ppm: Tool.run("pdftoppm", ["-r", "20", "-f", String(sheet), "-l", String(sheet), pdf]).stdout, columns: columns, rows: rows)
    }

    /// The pages in a binary PPM image.
    static func found(ppm: Data, columns: Int, rows: Int) throws -> [Found] {
        let bytes = [UInt8](ppm)
        var fields: [Int] = [], i = 2, current = ""
        while fields.count < 3 {
            let c = Character(UnicodeScalar(bytes[i])); i += 1
            if c.isWhitespace { if !current.isEmpty { fields.append(Int(current)!); current = "" } } else { current.append(c) }
        }
        let (w, h) = (fields[0], fields[1])
        func px(_ x: Int, _ y: Int) -> (Int, Int, Int) { let o = i + (y * w + x) * 3; return (Int(bytes[o]), Int(bytes[o + 1]), Int(bytes[o + 2])) }
        var result: [Found] = []
        for (index, c) in colors.enumerated() {
            var xs: [Int] = [], ys: [Int] = []
            for y in 0..<h { for x in 0..<w {
                let p = px(x, y)
                if abs(p.0 - c.0) < 12, abs(p.1 - c.1) < 12, abs(p.2 - c.2) < 12 { xs.append(x); ys.append(y) }
            } }
            // A page covers hundreds of pixels; a few of its colour can be where two others blend.
            guard xs.count > 200 else { continue }
            let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
            var bx = 0, by = 0, n = 0
            for y in y0...y1 { for x in x0...x1 {
                let p = px(x, y)
                if p.0 < 50, p.1 < 50, p.2 < 50 { bx += x; by += y; n += 1 }
            } }
            guard n > 0 else { continue }
            let left = Double(bx) / Double(n) < Double(x0 + x1) / 2, top = Double(by) / Double(n) < Double(y0 + y1) / 2
            let way: Way = switch (left, top) { case (true, true): .up; case (false, true): .right; case (true, false): .left; default: .down }
            let cx = Double(xs.reduce(0, +)) / Double(xs.count), cy = Double(ys.reduce(0, +)) / Double(ys.count)
            result.append(Found(page: index + 1, column: Int(cx / Double(w) * Double(columns)), row: Int(cy / Double(h) * Double(rows)), way: way))
        }
        return result.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var pages: Int
        var options: [String]
        var sheets: Int
        /// Sheet number → grid and the pages expected on it.
        var expect: [Int: (columns: Int, rows: Int, pages: [(Int, Int, Int, Way)])]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "4-up fills left to right, top to bottom", pages: 10, options: ["--number-up", "4"], sheets: 3,
             expect: [1: (2, 2, [(1, 0, 0, .up), (2, 1, 0, .up), (3, 0, 1, .up), (4, 1, 1, .up)]), 3: (2, 2, [(9, 0, 0, .up), (10, 1, 0, .up)])]),
        Case(name: "2-up turns the pages, the first on top", pages: 4, options: ["--number-up", "2"], sheets: 2,
             expect: [1: (1, 2, [(1, 0, 0, .right), (2, 0, 1, .right)])]),
        Case(name: "page ranges choose pages before n-up, then reverse", pages: 10,
             options: ["--number-up", "4", "--page-ranges", "5-10", "--output-order", "reverse"], sheets: 2,
             expect: [1: (2, 2, [(9, 0, 0, .up), (10, 1, 0, .up)]), 2: (2, 2, [(5, 0, 0, .up), (6, 1, 0, .up), (7, 0, 1, .up), (8, 1, 1, .up)])]),
        Case(name: "4-up bottom to top, right to left", pages: 4, options: ["--number-up", "4", "--number-up-layout", "btrl"], sheets: 1,
             expect: [1: (2, 2, [(4, 0, 0, .up), (2, 1, 0, .up), (3, 0, 1, .up), (1, 1, 1, .up)])]),
        Case(name: "a booklet of 1 page", pages: 1, options: ["--booklet"], sheets: 2,
             expect: [1: (1, 2, [(1, 0, 1, .right)]), 2: (1, 2, [])]),
        Case(name: "a booklet of 5 pages", pages: 5, options: ["--booklet"], sheets: 4,
             expect: [1: (1, 2, [(1, 0, 1, .right)]), 2: (1, 2, [(2, 0, 0, .right)]), 3: (1, 2, [(3, 0, 1, .right)]),
                      4: (1, 2, [(4, 0, 0, .right), (5, 0, 1, .right)])]),
        Case(name: "a booklet of 16 pages", pages: 16, options: ["--booklet"], sheets: 8,
             expect: [1: (1, 2, [(16, 0, 0, .right), (1, 0, 1, .right)]), 2: (1, 2, [(2, 0, 0, .right), (15, 0, 1, .right)]),
                      7: (1, 2, [(10, 0, 0, .right), (7, 0, 1, .right)]), 8: (1, 2, [(8, 0, 0, .right), (9, 0, 1, .right)])]),
        Case(name: "odd sides of a 2-up job", pages: 10, options: ["--number-up", "2", "--page-set", "odd"], sheets: 3,
             expect: [2: (1, 2, [(5, 0, 0, .right), (6, 0, 1, .right)]), 3: (1, 2, [(9, 0, 0, .right), (10, 0, 1, .right)])]),
        Case(name: "uncollated copies repeat each side", pages: 2, options: ["--copies", "2", "--no-collate"], sheets: 4,
             expect: [1: (1, 1, [(1, 0, 0, .up)]), 2: (1, 1, [(1, 0, 0, .up)]), 3: (1, 1, [(2, 0, 0, .up)])]),
        Case(name: "two-sided, reversed: the last sheet first, front before back", pages: 3,
             options: ["--sides", "two-sided-long-edge", "--output-order", "reverse"], sheets: 4,
             expect: [1: (1, 1, [(3, 0, 0, .up)]), 2: (1, 1, []), 3: (1, 1, [(1, 0, 0, .up)]), 4: (1, 1, [(2, 0, 0, .up)])]),
        Case(name: "mirror flips the side", pages: 1, options: ["--mirror"], sheets: 1,
             expect: [1: (1, 1, [(1, 0, 0, .right)])]),
        Case(name: "reverse portrait turns the side half a turn", pages: 2, options: ["--number-up", "2", "--orientation", "reverse-portrait"], sheets: 1,
             expect: [1: (1, 2, [(2, 0, 0, .left), (1, 0, 1, .left)])]),
    ]

    @Test(arguments: cases) func sheetsHoldThePagesWhereExpected(_ c: Case) throws {
        let dir = try temporaryDirectory()
        let input = try Self.pages(c.pages, in: dir)
        let out = dir + "/out.pdf"
        let r = try swiftprint(["convert", input, "-o", out, "--media", "A4"] + c.options)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == c.sheets)
        #expect(try PDF.pageSizes(out).allSatisfy { abs($0.width - 595.28) < 1 && abs($0.height - 841.89) < 1 })
        for (sheet, e) in c.expect.sorted(by: { $0.key < $1.key }) {
            let expected = e.pages.map { Found(page: $0.0, column: $0.1, row: $0.2, way: $0.3) }.sorted { ($0.row, $0.column) < ($1.row, $1.column) }
            let found = try Self.found(out, sheet: sheet, columns: e.columns, rows: e.rows)
            #expect(found == expected, "sheet \(sheet): found \(found)")
        }
    }

    /// Mixed sizes: a landscape page among portrait ones is turned to fill its cell; portrait
    /// ones never are.
    @Test func nUpOfMixedPageShapes() throws {
        let dir = try temporaryDirectory()
        let input = try Self.pages(4, landscape: 3, in: dir)
        let out = dir + "/mixed.pdf"
        let r = try swiftprint(["convert", input, "-o", out, "--number-up", "4"])
        #expect(r.status == 0, "\(r.stderr)")
        let found = try Self.found(out, sheet: 1, columns: 2, rows: 2)
        #expect(found.first { $0.page == 3 }.map { ($0.column, $0.row, $0.way != .up) } ?? (-1, -1, false) == (0, 1, true), "\(found)")
        #expect(found.filter { $0.page != 3 }.allSatisfy { $0.way == .up }, "\(found)")
    }

    /// Two documents printed two-sided: each starts on a front side, and collated copies too.
    @Test func eachDocumentStartsOnAFrontSide() throws {
        let dir = try temporaryDirectory()
        let a = try Self.pages(3, in: dir, name: "a")
        let b = try Self.pages(2, in: dir, name: "b")
        let out = dir + "/duplex.pdf"
        let r = try swiftprint(["convert", a, b, "-o", out, "--sides", "two-sided-long-edge", "--copies", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        // a1 a2 | a3 blank | b1 b2, twice: b's first page (colour 1) is side 5 and 11.
        #expect(try PDF.pageCount(out) == 12)
        for side in [1, 5, 7, 11] {
            #expect(try Self.found(out, sheet: side, columns: 1, rows: 1).map(\.page) == [1], "side \(side)")
        }
        #expect(try Self.found(out, sheet: 4, columns: 1, rows: 1).isEmpty, "side 4 is the blank back of a's last sheet")
    }

    /// Header and footer on the sheet: once per side, numbering sides, with n-up cells kept
    /// clear of them; on the page (the default) each small page has its own.
    @Test func headersOnTheSheetNumberSides() throws {
        let dir = try temporaryDirectory()
        let input = try Self.pages(8, in: dir)
        let out = dir + "/sheet.pdf"
        let r = try swiftprint(["convert", input, "-o", out, "--number-up", "4", "--header", "{user}||side {page} of {pages}",
                                "--header-on", "sheet", "--margins", "20"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 2)
        for side in 1...2 {
            let words = try PDF.words(out, page: side)
            #expect(try PDF.text(out, first: side, last: side).contains("side \(side) of 2"), "side \(side): \(words.map(\.word))")
            // The header sits in the top band; the first page's colour starts below it.
            let header = try #require(words.first { $0.word == "side" })
            #expect(header.yMin >= 19 && header.yMax < 40, "\(header)")
        }
        #expect(try PDF.text(out, first: 1, last: 1).contains(ProcessInfo.processInfo.userName), "{user} is the login name")
        let g = try PDF.grayPixels(out, page: 1, dpi: 72)
        #expect(g.pixels[10 * g.width + g.width / 4] > 250, "the band above the cells is white")
        let onPages = try swiftprint(["convert", input, "-o", dir + "/pages.pdf", "--number-up", "4", "--header", "||p {page}"])
        #expect(onPages.status == 0)
        let small = try PDF.text(dir + "/pages.pdf", first: 1, last: 1).replacingOccurrences(of: " ", with: "")
        #expect((1...4).allSatisfy { small.contains("p\($0)") }, "each small page has its header: \(small)")
    }

    /// `swiftprint preview` draws the side asked for, as it prints.
    @Test func previewShowsTheSideAsItPrints() throws {
        let dir = try temporaryDirectory()
        let input = try Self.pages(8, in: dir)
        let png = dir + "/side2.png"
        let r = try swiftprint(["preview", input, "--number-up", "4", "--page", "2", "-o", png, "--resolution", "20"])
        #expect(r.status == 0, "\(r.stderr)")
        let ppm = try Tool.run("convert", [png, "-depth", "8", "ppm:-"]).stdout
        #expect(try Self.found(ppm: ppm, columns: 2, rows: 2) == [(5, 0, 0), (6, 1, 0), (7, 0, 1), (8, 1, 1)].map { Found(page: $0.0, column: $0.1, row: $0.2, way: .up) })
        let beyond = try swiftprint(["preview", input, "--number-up", "4", "--page", "3", "-o", dir + "/side3.png"])
        #expect(beyond.status == 64 && beyond.stderr.contains("prints 2 sides"), "\(beyond.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/side3.png"))

        // Every side, each its own PNG, the same as each asked for alone (the Print Center's preview).
        let all = try swiftprint(["preview", input, "--number-up", "4", "--page", "all", "-o", dir + "/every-%d.png", "--resolution", "20"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("every-") }.sorted() == ["every-1.png", "every-2.png"])
        #expect(try Tool.run("convert", [dir + "/every-2.png", "-depth", "8", "ppm:-"]).stdout == ppm)
        #expect(all.text.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "the job's side count: \(all.text)")
        // A range: the sides the job has of it, and its count of sides.
        let first = try swiftprint(["preview", input, "--page", "2-5", "-o", dir + "/first-%d.png", "--resolution", "10"])
        #expect(first.status == 0 && first.text.trimmingCharacters(in: .whitespacesAndNewlines) == "8", "\(first.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("first-") }.sorted() == (2...5).map { "first-\($0).png" })
        let past = try swiftprint(["preview", input, "--number-up", "4", "--page", "3-9", "-o", dir + "/past-%d.png"])
        #expect(past.status == 64 && past.stderr.contains("prints 2 sides"), "\(past.stderr)")
        let unnamed = try swiftprint(["preview", input, "--page", "all", "-o", dir + "/every.png"])
        #expect(unnamed.status == 64 && unnamed.stderr.contains("%d"), "\(unnamed.stderr)")
    }

    @Test func badSheetOptionsAreRefusedNamingTheOption() throws {
        let dir = try temporaryDirectory()
        let input = try Self.pages(1, in: dir)
        for (flag, value) in [("--number-up", "5"), ("--number-up-layout", "diagonal"), ("--page-set", "some"), ("--booklet-signature", "6")] {
            let r = try swiftprint(["convert", input, "-o", dir + "/x.pdf", flag, value])
            #expect(r.status == 64, "\(flag) \(value): \(r.stderr)")
            #expect(r.stderr.contains(String(flag.dropFirst(2))), "\(r.stderr)")
        }
    }
}
