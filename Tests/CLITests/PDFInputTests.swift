import Foundation
import TestSupport
import Testing

/// PDF inputs through the real binary: pages placed at the object level, never redrawn.
@Suite struct PDFInputTests {
    /// A PDF of `pages` pages, each saying "page N", made by swiftprint from text.
    func makePDF(pages: Int, options: [String] = ["--media", "A5"]) throws -> String {
        let dir = try temporaryDirectory()
        let text = (1...pages).map { "page \($0) marker" }.joined(separator: "\n\u{0C}")
        try Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/in.txt"))
        let r = try swiftprint(["convert", dir + "/in.txt", "-o", dir + "/in.pdf"] + options)
        #expect(r.status == 0, "\(r.stderr)")
        return dir + "/in.pdf"
    }

    func qpdf(_ args: [String]) throws { _ = try Tool.run("/usr/bin/qpdf", args) }

    @Test func pagesPassThroughUnchangedAndReproducibly() throws {
        let input = try makePDF(pages: 3)
        let dir = try temporaryDirectory()
        for name in ["a", "b"] {
            let r = try swiftprint(["convert", input, "-o", "\(dir)/\(name).pdf"], env: ["SOURCE_DATE_EPOCH": "1"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try PDF.pageCount(dir + "/a.pdf") == 3)
        for s in try PDF.pageSizes(dir + "/a.pdf") { #expect(abs(s.width - 419.528) < 0.01 && abs(s.height - 595.276) < 0.01) }
        #expect(try PDF.text(dir + "/a.pdf", first: 2, last: 2).contains("page 2 marker"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.pdf")) == Data(contentsOf: URL(fileURLWithPath: dir + "/b.pdf")))
        // The fonts are the input's own, not redrawn copies.
        let fonts = try Tool.run("/usr/bin/pdffonts", [dir + "/a.pdf"]).text
        #expect(fonts.contains("DejaVuSansMono") || fonts.contains("Mono"), "\(fonts)")
    }

    @Test func pageRangesAndCopiesApplyToPDFPages() throws {
        let input = try makePDF(pages: 5)
        let out = try temporaryDirectory() + "/r.pdf"
        #expect(try swiftprint(["convert", input, "-o", out, "--page-ranges", "2,4-5", "--copies", "2"]).status == 0)
        #expect(try PDF.pageCount(out) == 6)
        let text = try PDF.text(out)
        let order = text.split(whereSeparator: { $0 == "\n" || $0 == "\u{0C}" }).filter { $0.hasPrefix("page ") }.map(String.init)
        #expect(order == ["page 2 marker", "page 4 marker", "page 5 marker", "page 2 marker", "page 4 marker", "page 5 marker"])
    }

    /// Input, options → sheet size, and where the page's text lands (left or right half, read upright or turned).
    @Test(arguments: [
        // Own size: the landscape page stays landscape.
        ([String](), 595.276, 419.528),
        // A paper asked for and no orientation: the sheet turns to the page.
        (["--media", "A4"], 841.89, 595.276),
        // Orientation fixed by the job: the page turns onto the portrait sheet instead.
        (["--media", "A4", "--orientation", "portrait", "--print-scaling", "fit"], 595.276, 841.89),
    ])
    func landscapePages(options: [String], width: Double, height: Double) throws {
        let input = try makePDF(pages: 1, options: ["--media", "A5", "--orientation", "landscape"])
        let out = try temporaryDirectory() + "/l.pdf"
        let r = try swiftprint(["convert", input, "-o", out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let size = try PDF.pageSizes(out)[0]
        #expect(abs(size.width - width) < 0.01 && abs(size.height - height) < 0.01)
        let words = try PDF.words(out, page: 1).filter { $0.word == "marker" }
        #expect(words.count == 1)
        if let w = words.first {
            // Turned text is taller than wide in its bounding box.
            let turned = (w.yMax - w.yMin) > (w.xMax - w.xMin)
            #expect(turned == (width < height))
            if turned { #expect(w.xMax < width / 2 && w.yMin > height / 2, "anticlockwise: the page's top is on the left") }
        }
    }

    /// Options → the scale a 400 × 600 pt page is drawn at on A4 with no margins, and where its
    /// top-left corner lands (points from the sheet's top-left). The page's one word is found in
    /// the output and compared with where it is in the input, so the test reads real positions.
    @Test(arguments: [
        // CUPS's scaling: percent of the fitted size (fit is 1.40315: the height fills A4).
        (["--scaling", "50", "--position", "top-left"], 0.701575, 0.0, 0.0),
        (["--scaling", "100", "--position", "bottom-right"], 1.40315, 595.276 - 561.26, 0.0),
        // Above 100 the page is cropped to the paper, here keeping its top-left part.
        (["--scaling", "200", "--position", "top-left"], 2.8063, 0.0, 0.0),
        // Natural size, placed as asked; centred when no position is given.
        (["--print-scaling", "none", "--position", "bottom-right"], 1.0, 195.276, 241.89),
        (["--print-scaling", "none"], 1.0, 97.638, 120.945),
    ] as [([String], Double, Double, Double)])
    func scalingAndPositionPlacePages(options: [String], scale: Double, left: Double, top: Double) throws {
        let dir = try temporaryDirectory()
        let hand = """
        %PDF-1.4
        1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
        2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
        3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 400 600] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >> endobj
        4 0 obj << /Length 36 >> stream
        BT /F1 24 Tf 50 500 Td (marker) Tj ET
        endstream endobj
        5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
        trailer << /Root 1 0 R /Size 6 >>
        %%EOF
        """
        try Data(hand.utf8).write(to: URL(fileURLWithPath: dir + "/hand.pdf"))
        try qpdf([dir + "/hand.pdf", dir + "/in.pdf"])
        let r = try swiftprint(["convert", dir + "/in.pdf", "-o", dir + "/o.pdf", "--media", "A4", "--margins", "0"] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let size = try PDF.pageSizes(dir + "/o.pdf")[0]
        #expect(abs(size.width - 595.276) < 0.01 && abs(size.height - 841.89) < 0.01)
        let natural = try #require(PDF.words(dir + "/in.pdf", page: 1).first { $0.word == "marker" })
        let placed = try #require(PDF.words(dir + "/o.pdf", page: 1).first { $0.word == "marker" }, "\(options): the word is gone")
        #expect(abs(placed.xMin - (left + scale * natural.xMin)) < 0.5, "\(options): left \(placed.xMin)")
        #expect(abs(placed.yMin - (top + scale * natural.yMin)) < 0.5, "\(options): top \(placed.yMin)")
        #expect(abs((placed.xMax - placed.xMin) / (natural.xMax - natural.xMin) - scale) < 0.01, "\(options): scale")
    }

    @Test func headerAndFooterAreStampedOverPDFPages() throws {
        let input = try makePDF(pages: 2)
        let out = try temporaryDirectory() + "/hf.pdf"
        #expect(try swiftprint(["convert", input, "-o", out, "--footer", "||sheet {page} of {pages}"]).status == 0)
        let text = try PDF.text(out, first: 2, last: 2)
        #expect(text.contains("page 2 marker") && text.contains("sheet 2 of 2"))
    }

    @Test func aMixedJobKeepsItsOrderAndNumbersPagesThrough() throws {
        let pdf = try makePDF(pages: 2)
        let dir = try temporaryDirectory()
        try Data("the text document\n".utf8).write(to: URL(fileURLWithPath: dir + "/note.txt"))
        let out = dir + "/mix.pdf"
        let r = try swiftprint(["convert", pdf, dir + "/note.txt", pdf, "-o", out, "--footer", "||{page}/{pages}"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 5)
        #expect(try PDF.text(out, first: 3, last: 3).contains("the text document"))
        #expect(try PDF.text(out, first: 3, last: 3).contains("3/5"))
        #expect(try PDF.text(out, first: 5, last: 5).contains("page 2 marker"))
    }

    @Test func encryptedPDFsNeedTheirPassword() throws {
        let input = try makePDF(pages: 1)
        let dir = try temporaryDirectory()
        try qpdf(["--encrypt", "user1", "owner1", "256", "--", input, dir + "/locked.pdf"])
        var r = try swiftprint(["convert", dir + "/locked.pdf", "-o", dir + "/o.pdf"])
        #expect(r.status == 77)
        #expect(r.stderr.contains("locked.pdf") && r.stderr.contains("password"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
        r = try swiftprint(["convert", dir + "/locked.pdf", "-o", dir + "/o.pdf", "--password", "user1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.text(dir + "/o.pdf").contains("page 1 marker"))
    }

    @Test func aPDFThatForbidsPrintingNeedsTheOwnerPassword() throws {
        let input = try makePDF(pages: 1)
        let dir = try temporaryDirectory()
        try qpdf(["--encrypt", "", "owner1", "256", "--print=none", "--", input, dir + "/noprint.pdf"])
        var r = try swiftprint(["convert", dir + "/noprint.pdf", "-o", dir + "/o.pdf"])
        #expect(r.status == 77)
        #expect(r.stderr.contains("forbid printing"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
        r = try swiftprint(["convert", dir + "/noprint.pdf", "-o", dir + "/o.pdf", "--password", "owner1"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Bad PDFs: each exits 65 with a message naming the file, and leaves no output.
    @Test(arguments: [
        ("truncated", "truncated"),
        ("fake", "damaged"),
        ("empty-pdf-header", "not a PDF"),
    ])
    func badPDFsFailCleanly(kind: String, message: String) throws {
        let input = try makePDF(pages: 2)
        let dir = try temporaryDirectory()
        let bad = dir + "/\(kind).pdf"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: input))
        switch kind {
        case "truncated": try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: bad))
        case "fake": try Data("%PDF-1.7\nthis is not really a PDF at all\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: bad))
        default: try Data("%PDx\n".utf8 + bytes.dropFirst(5)).write(to: URL(fileURLWithPath: bad))
        }
        let r = try swiftprint(["convert", bad, "-o", dir + "/o.pdf"])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("\(kind).pdf") && r.stderr.contains(message), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
    }

    @Test func aBrokenCrossReferenceTableIsRepaired() throws {
        let input = try makePDF(pages: 2)
        let dir = try temporaryDirectory()
        var text = try Data(contentsOf: URL(fileURLWithPath: input))
        // Point startxref at the wrong place: readers must rebuild the table.
        let marker = Data("startxref\n".utf8)
        let at = text.range(of: marker, options: .backwards)!.upperBound
        let end = text[at...].firstIndex(of: UInt8(ascii: "\n"))!
        text.replaceSubrange(at..<end, with: Data("17".utf8))
        try text.write(to: URL(fileURLWithPath: dir + "/broken.pdf"))
        let r = try swiftprint(["convert", dir + "/broken.pdf", "-o", dir + "/o.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("damaged"))
        #expect(try PDF.pageCount(dir + "/o.pdf") == 2)
        #expect(try PDF.text(dir + "/o.pdf").contains("page 2 marker"))
    }

    /// A hand-made damaged PDF of two pages in Helvetica, whose startxref points nowhere, as
    /// `kind` damages it:
    /// - "one line": every object follows the previous one's "endobj" on the same line (qpdf's
    ///   rebuild reads objects at line starts only, and finds no page tree);
    /// - "two trailers": a trailer without /Root comes before the real one (qpdf's rebuild takes
    ///   the first trailer and finds no catalog);
    /// - "no trailer": no trailer at all (neither qpdf nor poppler can tell where the document
    ///   starts);
    /// - "lost page tree": the page tree's root is gone (a null where it was), and the second
    ///   page had its size from it.
    static func damagedPDF(_ kind: String) -> Data {
        let page = { (n: Int, contents: Int) in
            let box = kind == "lost page tree" && n == 2 ? "" : "/MediaBox[0 0 300 200]"
            return "<</Type/Page/Parent 2 0 R\(box)/Contents \(contents) 0 R/Resources<</Font<</F1 5 0 R>>>>>>"
        }
        let stream = { (text: String) -> String in
            let body = "BT /F1 24 Tf 20 100 Td (\(text)) Tj ET"
            return "<</Length \(body.utf8.count)>>stream\n\(body)\nendstream"
        }
        let tree = kind == "lost page tree" ? "null" : "<</Type/Pages/Kids[3 0 R 6 0 R]/Count 2>>"
        let objects = ["<</Type/Catalog/Pages 2 0 R>>", tree, page(1, 4),
                       stream("Recovered one"), "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>", page(2, 7), stream("Recovered two")]
        var file = "%PDF-1.4\n"
        for (i, object) in objects.enumerated() {
            if kind == "two trailers" && i == 4 { file += "trailer<</Size 8>>\n" }
            file += "\(i + 1) 0 obj" + object + "endobj" + (kind == "one line" ? " " : "\n")
        }
        if kind != "no trailer" { file += "\ntrailer<</Size 8/Root 1 0 R>>" }
        return Data((file + "\nstartxref\n12345\n%%EOF\n").utf8)
    }

    /// What qpdf cannot rebuild into pages, poppler reads: its reconstruction is written back and
    /// placed as any PDF (the pages keep their unembedded Helvetica: never redrawn), with a
    /// warning. A file neither can read fails, naming both reasons.
    @Test(arguments: ["one line", "two trailers", "no trailer"])
    func aPDFQpdfCannotRebuildIsReadByPoppler(kind: String) throws {
        let dir = try temporaryDirectory()
        try Self.damagedPDF(kind).write(to: URL(fileURLWithPath: dir + "/damaged.pdf"))
        let r = try swiftprint(["convert", dir + "/damaged.pdf", "-o", dir + "/o.pdf"])
        guard kind != "no trailer" else {
            #expect(r.status == 65, "\(r.stderr)")
            #expect(r.stderr.contains("damaged.pdf") && r.stderr.contains("damaged beyond repair") && r.stderr.contains("qpdf")
                    && r.stderr.contains("poppler"), "\(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["damaged.pdf"], "nothing half-written")
            return
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("warning") && r.stderr.contains("poppler recovered"), "\(r.stderr)")
        #expect(try PDF.pageCount(dir + "/o.pdf") == 2)
        let text = try PDF.text(dir + "/o.pdf")
        #expect(text.contains("Recovered one") && text.contains("Recovered two"))
        let fonts = try Tool.run("pdffonts", [dir + "/o.pdf"]).text
        #expect(fonts.contains("Helvetica") && fonts.contains(" no "), "placed as it was, not redrawn: \(fonts)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["damaged.pdf", "o.pdf"], "no repair file left")
    }

    /// A damaged PDF whose page tree is lost (py-pdf's unreadablemetadata.pdf is one) still has
    /// its pages' own dictionaries: they print, in the order they stand in the file, placed as
    /// they are; a page that had its size from the lost tree takes the others'.
    @Test func aPDFWhosePageTreeIsLostPrintsThePagesFoundInIt() throws {
        let dir = try temporaryDirectory()
        try Self.damagedPDF("lost page tree").write(to: URL(fileURLWithPath: dir + "/lost.pdf"))
        let r = try swiftprint(["convert", dir + "/lost.pdf", "-o", dir + "/o.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("lost.pdf") && r.stderr.contains("page tree is lost") && r.stderr.contains("2 pages"), "\(r.stderr)")
        #expect(try PDF.pageSizes(dir + "/o.pdf").map { [$0.width, $0.height] } == [[300, 200], [300, 200]])
        #expect(try PDF.text(dir + "/o.pdf", first: 1, last: 1).contains("Recovered one"))
        #expect(try PDF.text(dir + "/o.pdf", first: 2, last: 2).contains("Recovered two"))
        let fonts = try Tool.run("pdffonts", [dir + "/o.pdf"]).text
        #expect(fonts.contains("Helvetica") && fonts.contains(" no "), "placed as it was, not redrawn: \(fonts)")
    }

    /// Only a damaged PDF opens the repair engine: with none to be found, text, a sound PDF and a
    /// PDF qpdf repairs print as before, and the damaged one fails, saying what is missing.
    @Test func onlyADamagedPDFNeedsTheRepairEngine() throws {
        let dir = try temporaryDirectory()
        let env = ["SWIFTPRINT_PDF_REPAIR_LIBRARY": dir + "/none/libSwiftPrintPDFRepair.so"]
        try Self.damagedPDF("one line").write(to: URL(fileURLWithPath: dir + "/damaged.pdf"))
        for input in [examples + "/server.log", try makePDF(pages: 2)] {
            let r = try swiftprint(["convert", input, "-o", dir + "/o.pdf"], env: env)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let r = try swiftprint(["convert", dir + "/damaged.pdf", "-o", dir + "/d.pdf"], env: env)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("damaged.pdf") && r.stderr.contains("libSwiftPrintPDFRepair.so"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/d.pdf"))
    }

    /// Pages placed on n-up sheets become form XObjects: a page with one content stream keeps
    /// its stored data; an encrypted one is decrypted on the way; a page of several content
    /// streams (qpdf's overlay makes one) is joined into one.
    @Test(arguments: ["one stream", "encrypted", "several streams"])
    func pagesPlacedOnSheetsKeepTheirContent(kind: String) throws {
        let input = try makePDF(pages: 2)
        let dir = try temporaryDirectory()
        var source = input, extra: [String] = [], expected = ["page 1 marker", "page 2 marker"]
        switch kind {
        case "encrypted":
            source = dir + "/locked.pdf"
            try qpdf(["--encrypt", "user1", "owner1", "256", "--", input, source])
            extra = ["--password", "user1"]
        case "several streams":
            // Written by hand (qpdf repairs the missing cross-reference table): page 1 draws
            // from two content streams, page 2 from one.
            let hand = """
            %PDF-1.4
            1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
            2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj
            3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 8 0 R >> >> /Contents [5 0 R 6 0 R] >> endobj
            4 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Resources << /Font << /F1 8 0 R >> >> /Contents 7 0 R >> endobj
            5 0 obj << /Length 41 >> stream
            BT /F1 24 Tf 50 500 Td (page 1 marker) Tj ET
            endstream endobj
            6 0 obj << /Length 46 >> stream
            BT /F1 24 Tf 50 400 Td (from a second stream) Tj ET
            endstream endobj
            7 0 obj << /Length 41 >> stream
            BT /F1 24 Tf 50 500 Td (page 2 marker) Tj ET
            endstream endobj
            8 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
            trailer << /Root 1 0 R /Size 9 >>
            %%EOF
            """
            try Data(hand.utf8).write(to: URL(fileURLWithPath: dir + "/hand.pdf"))
            source = dir + "/streams.pdf"
            try qpdf([dir + "/hand.pdf", source])
            #expect(try Tool.run("/usr/bin/qpdf", ["--show-pages", source]).text.split(separator: "\n").count == 7)
            expected.append("from a second stream")
        default: break
        }
        let r = try swiftprint(["convert", source, "-o", dir + "/o.pdf", "--number-up", "2"] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(dir + "/o.pdf") == 1)
        let text = try PDF.text(dir + "/o.pdf")
        for words in expected { #expect(text.contains(words), "\(kind): \(words) missing from \(text)") }
        #expect(try Tool.run("/usr/bin/qpdf", ["--check", dir + "/o.pdf"]).status == 0)
    }

    /// A PDF larger than 16 MB (a photo's 24 MB stream) is read through a FILE* rather than
    /// mapped (engine.h says why): its page passes through, the photo's bytes unchanged, two-up
    /// as alone, and the result passes qpdf's check.
    @Test func aPDFOverSixteenMegabytesPassesThrough() throws {
        let dir = try temporaryDirectory()
        _ = try Tool.run("convert", ["-size", "4800x4800", "xc:gray", "+noise", "Random", "-quality", "100", dir + "/noise.jpg"])
        let big = dir + "/big.pdf"
        #expect(try swiftprint(["convert", dir + "/noise.jpg", "-o", big]).status == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: big)[.size] as? Int)
        try #require(size > 16 << 20, "the test PDF is only \(size) bytes")
        for options in [[], ["--number-up", "2"]] {
            let r = try swiftprint(["convert", big, "-o", dir + "/out.pdf"] + options)
            #expect(r.status == 0, "\(options): \(r.stderr)")
            #expect(try PDF.pageCount(dir + "/out.pdf") == 1)
            #expect(try Tool.run("/usr/bin/qpdf", ["--check", dir + "/out.pdf"]).status == 0)
            _ = try Tool.run("pdfimages", ["-j", dir + "/out.pdf", dir + "/x"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/x-000.jpg")) == Data(contentsOf: URL(fileURLWithPath: dir + "/noise.jpg")))
        }
    }
}
