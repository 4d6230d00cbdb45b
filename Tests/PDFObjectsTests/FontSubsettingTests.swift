import Foundation
import SwiftPrint
import TestSupport
import Testing

/// The assembler cuts whole embedded fonts (as WebKit writes them) down to the glyphs shown.
/// Each case is a small PDF built here around the real DejaVu Sans file, embedded whole; the
/// check is what poppler draws before and after, pixel for pixel, not the code's own bookkeeping.
@Suite struct FontSubsettingTests {
    static let fontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// The page's content stream; F1 is the whole font as Type0 / Identity-H.
        let page: String
        /// A form XObject /Fm1 the page may draw, if any.
        var form: String? = nil
        /// F2 also uses the font program, as a simple TrueType font (codes through its cmap).
        var sharedWithSimpleFont = false
        let expectCut: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "text on the page", page: "BT /F1 24 Tf 10 40 Td <002B00480050005300520051> Tj ET", expectCut: true),
        Case(name: "TJ arrays and q/Q", page: "q BT /F1 24 Tf 10 40 Td [<0024> -200 <0025>] TJ ET Q BT /F1 12 Tf 10 10 Td <0026> Tj ET",
             expectCut: true),
        Case(name: "text inside a form XObject", page: "q 1 0 0 1 5 5 cm /Fm1 Do Q",
             form: "BT /F1 24 Tf 10 40 Td <0036003700380039> Tj ET", expectCut: true),
        Case(name: "program shared with a simple font", page: "BT /F1 24 Tf 10 40 Td <002B0048> Tj ET",
             sharedWithSimpleFont: true, expectCut: false),
        Case(name: "the font stays current across BT and ET", page: "BT /F1 24 Tf 10 40 Td <002B> Tj ET BT 10 10 Td <0048> Tj ET",
            expectCut: true),
        Case(name: "literal strings with escapes, hex strings with spaces",
             page: #"BT /F1 24 Tf 10 40 Td (\000+\000H\000\(\000\)) Tj <00 2B 004 9> Tj ET"#, expectCut: true),
        Case(name: "an inline image before the text", page: "q 20 0 0 20 250 60 cm BI /W 2 /H 1 /BPC 8 /CS /G ID \u{0}E EI Q "
             + "BT /F1 24 Tf 10 40 Td <002B0048> Tj ET", expectCut: true),
        Case(name: "odd-length string", page: "BT /F1 24 Tf 10 40 Td <002B00> Tj ET", expectCut: false),
    ]

    @Test(arguments: cases) func cutsOnlyWhatItCanFollowAndDrawsTheSame(_ c: Case) throws {
        let dir = try temporaryDirectory()
        let whole = dir + "/whole.pdf", cut = dir + "/cut.pdf"
        try Self.fixture(c).write(to: URL(fileURLWithPath: whole))

        let result = try Self.subset(whole, to: cut)

        let fontSize = try Data(contentsOf: URL(fileURLWithPath: Self.fontPath)).count
        if c.expectCut {
            #expect(result.fonts == 1)
            #expect(result.bytesBefore == fontSize)
            #expect(result.bytesAfter < fontSize / 10, "\(result.bytesAfter) bytes left of \(fontSize)")
            let size = try FileManager.default.attributesOfItem(atPath: cut)[.size] as! Int
            #expect(size < 60_000, "the written PDF is \(size) bytes")
        } else {
            #expect(result.fonts == 0)
            #expect(result.bytesAfter == 0)
        }
        let before = try PDF.grayPixels(whole, page: 1, dpi: 150)
        let after = try PDF.grayPixels(cut, page: 1, dpi: 150)
        #expect(before.pixels.contains { $0 < 128 }, "the fixture draws nothing")
        let differing = zip(before.pixels, after.pixels).filter { $0 != $1 }.count
        #expect(before.pixels.count == after.pixels.count && differing == 0,
                "the page draws differently after subsetting: \(differing) pixels differ")
    }

    /// WebKit embeds one face whole under several fonts: the copies become one program, cut to
    /// the glyphs all of them show, and the page draws the same.
    @Test func copiesOfOneFaceBecomeOneProgram() throws {
        let dir = try temporaryDirectory()
        let whole = dir + "/copies.pdf", cut = dir + "/cut.pdf"
        let font = try Data(contentsOf: URL(fileURLWithPath: Self.fontPath))
        func type0(_ cid: Int) -> Data { Data("<< /Type /Font /Subtype /Type0 /BaseFont /AAAAAA+DejaVuSans /Encoding /Identity-H /DescendantFonts [\(cid) 0 R] >>".utf8) }
        func cidFont(_ descriptor: Int) -> Data {
            Data(("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /AAAAAA+DejaVuSans "
                  + "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor \(descriptor) 0 R /DW 600 >>").utf8)
        }
        func descriptor(_ program: Int) -> Data {
            Data(("<< /Type /FontDescriptor /FontName /AAAAAA+DejaVuSans /Flags 4 /FontBBox [-1021 -463 1793 1232] "
                  + "/ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 \(program) 0 R >>").utf8)
        }
        try Self.document([
            Data("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Data("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F3 9 0 R >> >> >>".utf8),
            Self.stream(Data("BT /F1 24 Tf 10 40 Td <002B00480050> Tj ET BT /F3 24 Tf 10 10 Td <005300520051> Tj ET".utf8)),
            type0(6), cidFont(7), descriptor(8), Self.stream(font, extra: "/Length1 \(font.count)"),
            type0(10), cidFont(11), descriptor(12), Self.stream(font, extra: "/Length1 \(font.count)"),
        ]).write(to: URL(fileURLWithPath: whole))

        let result = try Self.subset(whole, to: cut)
        #expect(result.fonts == 2 && result.bytesBefore == 2 * font.count && result.bytesAfter < font.count / 10, "\(result)")
        // One font program is written, and both fonts name it.
        let json = try Tool.run("qpdf", ["--json=1", "--json-key=objects", cut]).stdout
        let objects = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["objects"] as? [String: Any])
        let programs = objects.filter { ($0.value as? [String: Any])?["/Length1"] != nil }.map(\.key)
        let named = objects.values.compactMap { ($0 as? [String: Any])?["/FontFile2"] as? String }
        #expect(programs.count == 1 && named.count == 2 && Set(named) == Set(programs), "programs \(programs), named \(named)")
        let before = try PDF.grayPixels(whole, page: 1, dpi: 150), after = try PDF.grayPixels(cut, page: 1, dpi: 150)
        #expect(before.pixels.contains { $0 < 128 } && before.pixels == after.pixels, "the page draws differently after subsetting")
    }

    /// Subsets the fonts of the PDF at `whole` and writes it to `cut`.
    static func subset(_ whole: String, to cut: String) throws -> QPDFDocument.FontSubsetting {
        let document = try QPDFDocument(path: whole)
        #expect(document.repairs == 0, "the fixture itself is not a valid PDF")
        let result = try document.subsetEmbeddedFonts()
        let output = try OutputFile(.file(cut))
        try document.write(to: output)
        try output.commit()
        return result
    }

    @Test func aContentStreamItCannotFollowLeavesEveryFontWhole() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/unfollowable.pdf"
        try Self.fixture(Case(name: "", page: "BT 10 40 Td <002B> Tj /F1 24 Tf <0048> Tj ET", expectCut: false))
            .write(to: URL(fileURLWithPath: path))
        let result = try QPDFDocument(path: path).subsetEmbeddedFonts()
        #expect(result.fonts == 0)
        #expect(result.keptWhole?.contains("before any font") == true, "\(result.keptWhole ?? "no reason")")
    }

    /// A one-page PDF around DejaVu Sans, embedded whole, with a correct cross-reference table.
    static func fixture(_ c: Case) throws -> Data {
        let font = try Data(contentsOf: URL(fileURLWithPath: fontPath))
        let descriptor = "<< /Type /FontDescriptor /FontName /AAAAAA+DejaVuSans /Flags 4 /FontBBox [-1021 -463 1793 1232] "
            + "/ItalicAngle 0 /Ascent 928 /Descent -236 /CapHeight 729 /StemV 80 /FontFile2 8 0 R >>"
        var objects: [Data] = [
            Data("<< /Type /Catalog /Pages 2 0 R >>".utf8),
            Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Data(("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R"
                  + (c.sharedWithSimpleFont ? " /F2 10 0 R" : "") + " >>"
                  + (c.form == nil ? "" : " /XObject << /Fm1 9 0 R >>") + " >> >>").utf8),
            stream(Data(c.page.utf8)),
            Data("<< /Type /Font /Subtype /Type0 /BaseFont /AAAAAA+DejaVuSans /Encoding /Identity-H /DescendantFonts [6 0 R] >>".utf8),
            Data(("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /AAAAAA+DejaVuSans "
                  + "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 600 >>").utf8),
            Data(descriptor.utf8),
            stream(font, extra: "/Length1 \(font.count)"),
            stream(Data((c.form ?? "").utf8), extra: "/Type /XObject /Subtype /Form /BBox [0 0 300 100] /Resources << /Font << /F1 5 0 R >> >>"),
            Data("<< /Type /Font /Subtype /TrueType /BaseFont /AAAAAA+DejaVuSans /FirstChar 32 /LastChar 32 /Widths [318] /FontDescriptor 7 0 R >>".utf8),
        ]
        if !c.sharedWithSimpleFont { objects.removeLast() }
        return document(objects)
    }

    /// A PDF of `objects` (object 1 the catalog), with a correct cross-reference table.
    static func document(_ objects: [Data]) -> Data {
        var pdf = Data("%PDF-1.7\n%\u{e2}\u{e3}\n".utf8)
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(pdf.count)
            pdf.append(Data("\(index + 1) 0 obj\n".utf8))
            pdf.append(body)
            pdf.append(Data("\nendobj\n".utf8))
        }
        let xref = pdf.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { table += String(format: "%010d 00000 n \n", offset) }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        pdf.append(Data(table.utf8))
        return pdf
    }

    static func stream(_ data: Data, extra: String = "") -> Data {
        var out = Data("<< /Length \(data.count) \(extra) >>\nstream\n".utf8)
        out.append(data)
        out.append(Data("\nendstream".utf8))
        return out
    }
}
