import Foundation
import SwiftPrint
import TestSupport
import Testing

/// Converts `text` (or a file) with the library and returns the PDF's path and the job report.
/// `options` are named as in a print job (`lp -o`), read through their declarations.
func convert(_ input: PrintInput, options: [String: String] = [:], info: PrintInfo = .unset,
             media: MediaSize = .a4, margins: EdgeInsets = EdgeInsets(all: 36),
             renderer: PrintPageRenderer = PrintPageRenderer(),
             configure: (SimpleTextPrintFormatter) -> Void = { _ in }) throws -> (path: String, report: JobReport, formatter: SimpleTextPrintFormatter) {
    var settings = try JobSettings(parsing: options.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, from: .printJob)
    settings.info = info
    let formatter = try TextHandler().makeFormatter(for: input, settings: settings) as! SimpleTextPrintFormatter
    configure(formatter)
    renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
    let path = try temporaryDirectory() + "/out.pdf"
    let job = PrintJob(renderer: renderer, info: info, paper: PrintPaper(media: media, margins: margins))
    return (path, try job.writePDF(to: .file(path)), formatter)
}

/// `s` without spaces and direction marks: pdftotext puts stray spaces into some Hebrew, Thai
/// and Devanagari words, and wraps right-to-left runs in direction marks.
func squash(_ s: String) -> String {
    String(s.unicodeScalars.filter { !$0.properties.isWhitespace && !(0x200E...0x202E).contains($0.value) }.map(Character.init))
}

func textFile(_ bytes: [UInt8]) throws -> PrintInput {
    let path = try temporaryDirectory() + "/in.txt"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return PrintInput(path: path)
}

@Suite struct TextTests {
    static let multilingual = directory() + "/Fixtures/multilingual.txt"

    @Test func everyScriptRoundTripsWithNoUnknownGlyphs() throws {
        let (pdf, _, formatter) = try convert(PrintInput(path: Self.multilingual))
        #expect(formatter.unknownGlyphCount == 0)
        let extracted = try PDF.text(pdf)
        let page = squash(extracted)
        for line in try String(contentsOfFile: Self.multilingual, encoding: .utf8).split(separator: "\n")
        where !line.hasPrefix("NUL") && !line.hasPrefix("Emoji") && !line.hasPrefix("Arabic") && !line.hasPrefix("Hindi") && !line.hasPrefix("Thai") {
            #expect(page.contains(squash(String(line.replacingOccurrences(of: "\t", with: " ")))), "\(line)")
        }
        // Arabic, Devanagari and Thai come back reordered or decomposed by pdftotext (it sorts a
        // mark by its x); their words must still be there.
        #expect(page.contains("الزجاج") && page.contains("กระจก"))
        #expect(page.contains("सकता"))
        #expect(page.contains("␀") && page.contains("␇") && page.contains("␡"))
    }

    @Test func lineEndingsGiveTheSameLines() throws {
        let lf = try PDF.text(convert(textFile(Array("one\ntwo\n\nfour\n".utf8))).path)
        let crlf = try PDF.text(convert(textFile(Array("one\r\ntwo\r\n\r\nfour\r\n".utf8))).path)
        let cr = try PDF.text(convert(textFile(Array("one\rtwo\r\rfour".utf8))).path)
        #expect(lf == crlf && crlf == cr)
        #expect(lf.contains("one\ntwo\n"))
        // pdftotext drops blank lines; the gap before "four" shows the empty line is kept.
        let words = try PDF.words(convert(textFile(Array("one\rtwo\r\rfour".utf8))).path, page: 1)
        let y = Dictionary(uniqueKeysWithValues: words.map { ($0.word, $0.yMin) })
        let pitch = try #require(y["two"]) - #require(y["one"])
        #expect(abs(try #require(y["four"]) - #require(y["two"]) - 2 * pitch) < 0.01)
    }

    @Test func formFeedStartsAPage() throws {
        let (pdf, _, _) = try convert(textFile(Array("page one\n\u{0C}page two\u{0C}page three\n".utf8)))
        #expect(try PDF.pageCount(pdf) == 3)
        #expect(try PDF.text(pdf, first: 2, last: 2).contains("page two"))
        #expect(try PDF.text(pdf, first: 3, last: 3).contains("page three"))
        let (blank, _, _) = try convert(textFile(Array("a\u{0C}\u{0C}b".utf8)))
        #expect(try PDF.pageCount(blank) == 3)
    }

    @Test func shiftJISAndUTF16AreDetected() throws {
        let japanese = "日本語のテキスト、シフトJISで書かれています。\n"
        let sjis = try #require(japanese.data(using: .shiftJIS))
        let (a, _, fa) = try convert(textFile(Array(sjis)))
        #expect(fa.detectedEncoding?.iconvName == "SHIFT_JIS")
        #expect(try PDF.text(a).contains("日本語のテキスト、シフトJISで書かれています。"))

        let utf16 = [0xFF, 0xFE] + Array(try #require("Привет, мир ✓\n".data(using: .utf16LittleEndian)))
        let (b, _, fb) = try convert(textFile(utf16))
        #expect(fb.detectedEncoding?.iconvName == "UTF-16LE")
        #expect(try PDF.text(b).contains("Привет, мир ✓"))

        let cp1251 = try #require("Съешь же ещё этих мягких французских булок, да выпей чаю.\n".data(using: .windowsCP1251))
        let (c, _, fc) = try convert(textFile(Array(cp1251)))
        #expect(fc.detectedEncoding?.iconvName == "WINDOWS-1251")
        #expect(try PDF.text(c).contains("французских"))
    }

    @Test func encodingOptionOverridesDetectionAndBadBytesBecomeReplacementCharacters() throws {
        let (a, _, _) = try convert(textFile([0x63, 0x61, 0x66, 0xE9, 0x0A]), options: ["encoding": "ISO-8859-1"])
        #expect(try PDF.text(a).contains("café"))
        let (b, _, _) = try convert(textFile([0x61, 0xFF, 0x62, 0x0A]), options: ["encoding": "UTF-8"])
        #expect(try PDF.text(b).contains("a\u{FFFD}b"))
        #expect(throws: PrintError.self) { try convert(textFile([0x61]), options: ["encoding": "NO-SUCH-CODESET"]) }
    }

    @Test func longLinesWrapAtWordsAndNoWrapClips() throws {
        let words = Array(repeating: "lorem", count: 40).joined(separator: " ")
        let (wrapped, _, _) = try convert(textFile(Array((words + "\n").utf8)))
        func textLines(_ pdf: String) throws -> [Substring] {
            try PDF.text(pdf).split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty }
        }
        let lines = try textLines(wrapped)
        #expect(lines.count > 1 && lines.allSatisfy { !$0.hasPrefix(" ") && $0.split(separator: " ").allSatisfy { $0 == "lorem" } })
        let (clipped, _, _) = try convert(textFile(Array((words + "\n").utf8)), options: ["line-break": "clip"])
        #expect(try textLines(clipped).count == 1)
        let (truncated, _, _) = try convert(textFile(Array((words + "\n").utf8)), options: ["line-break": "truncate"])
        #expect(try PDF.text(truncated).contains("…"))
    }

    @Test func insetsAndHeaderMoveTheTextExactly() throws {
        let text = Array(String(repeating: "Line\n", count: 200).utf8)
        func firstWordTop(_ renderer: PrintPageRenderer, _ insets: EdgeInsets, page: Int) throws -> (x: Double, y: Double) {
            let (pdf, _, _) = try convert(textFile(text), renderer: renderer) { $0.contentInsets = insets }
            let w = try #require(try PDF.words(pdf, page: page).first)
            return (w.xMin, w.yMin)
        }
        let base1 = try firstWordTop(PrintPageRenderer(), .zero, page: 1)
        let base2 = try firstWordTop(PrintPageRenderer(), .zero, page: 2)
        let header = PrintPageRenderer(); header.headerHeight = 50
        let moved1 = try firstWordTop(header, EdgeInsets(top: 30, left: 20, bottom: 500, right: 0), page: 1)
        let header2 = PrintPageRenderer(); header2.headerHeight = 50
        let moved2 = try firstWordTop(header2, EdgeInsets(top: 30, left: 20, bottom: 500, right: 0), page: 2)
        #expect(abs(moved1.y - base1.y - 80) < 0.05)     // header + top inset on the first page
        #expect(abs(moved2.y - base2.y - 50) < 0.05)     // header only on later pages
        #expect(abs(moved1.x - base1.x - 20) < 0.05 && abs(moved2.x - base2.x - 20) < 0.05)
    }

    @Test func pageCountIsPaidForOnlyWhenAskedFor() throws {
        let text = Array(String(repeating: "Line\n", count: 300).utf8)
        let values = TemplatePageRenderer.Values(title: "t", file: "f", date: Date(timeIntervalSince1970: 0))
        let plain = TemplatePageRenderer(header: "{file}|{page}", footer: nil, font: .sans, values: values)
        let (_, r1, _) = try convert(textFile(text), renderer: plain)
        #expect(!r1.countedBeforeDrawing)
        let counting = TemplatePageRenderer(header: nil, footer: "{page} of {pages}", font: .sans, values: values)
        let (pdf, r2, _) = try convert(textFile(text), renderer: counting)
        #expect(r2.countedBeforeDrawing)
        let pages = try PDF.pageCount(pdf)
        #expect(try PDF.text(pdf, first: 1, last: 1).contains("1 of \(pages)"))
    }

    @Test func pageRangesDrawOnlyTheSelectedPagesAndCopiesRepeatThem() throws {
        let text = Array((1...400).map { "line \($0)\n" }.joined().utf8)
        let (all, _, _) = try convert(textFile(text))
        let total = try PDF.pageCount(all)
        #expect(total >= 5)
        let (some, report, _) = try convert(textFile(text), info: PrintInfo(copies: 2, pageRanges: PageRanges("2-3")))
        #expect(report.pagesDrawn == 4)
        #expect(try PDF.pageCount(some) == 4)
        for (page, original) in [(1, 2), (2, 3), (3, 2), (4, 3)] {
            #expect(try PDF.text(some, first: page, last: page) == PDF.text(all, first: original, last: original))
        }
    }

    @Test func aSwiftStringPrintsToo() throws {
        let formatter = SimpleTextPrintFormatter(text: "Hello from Swift — 你好\n")
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
        #expect(formatter.pageCount == 1)
        let path = try temporaryDirectory() + "/s.pdf"
        try PrintJob(renderer: renderer, info: .unset, paper: PrintPaper(media: .letter)).writePDF(to: .file(path))
        #expect(try PDF.text(path).contains("Hello from Swift — 你好"))
    }

    /// Hebrew and Arabic paragraphs start at the right edge, wrapped or not. Unwrapped (clip),
    /// pango aligns nothing by itself; the lines must land where wrapping puts them.
    @Test(arguments: [TextAlignment.left, .center, .right])
    func rightToLeftLinesAlignTheSameWithoutWrapping(alignment: TextAlignment) throws {
        let text = Array("שלום עולם\nمرحبا بالعالم\nplain words\n".utf8)
        /// Each line's left and right ends on page 1.
        func lineEnds(_ lineBreak: String) throws -> [(left: Double, right: Double)] {
            let (pdf, _, _) = try convert(textFile(text), options: ["line-break": lineBreak, "alignment": alignment.rawValue])
            let words = try PDF.words(pdf, page: 1)
            let tops = Set(words.map { ($0.yMin / 4).rounded() }).sorted()
            return tops.map { top in
                let line = words.filter { ($0.yMin / 4).rounded() == top }
                return (line.map(\.xMin).min()!, line.map(\.xMax).max()!)
            }
        }
        let wrapped = try lineEnds("word"), clipped = try lineEnds("clip")
        try #require(wrapped.count == 3 && clipped.count == 3)
        for (w, c) in zip(wrapped, clipped) {
            #expect(abs(w.left - c.left) < 0.05 && abs(w.right - c.right) < 0.05, "wrapped \(w), clipped \(c)")
        }
        // A4 with 36 pt margins: the text area runs from x 36 to 559.3, and the character grid
        // of the monospace default font to the last whole cell in it. Left alignment is the
        // paragraph's start edge, so it puts right-to-left lines on the right. A Hebrew word is
        // set whole, centred in its cells (its face is narrower than the grid's): its ends are
        // within half a cell of the edge; the Arabic ones, wider, are fitted to their cells.
        let right = try lastCellEdge(), halfCell = 3.1
        switch alignment {
        case .left:
            #expect(abs(clipped[0].right - right) < halfCell && abs(clipped[1].right - right) < 0.5, "\(clipped)")
            #expect(abs(clipped[2].left - 36) < 0.5)
        case .right:
            #expect(abs(clipped[0].left - 36) < halfCell && abs(clipped[1].left - 36) < 0.5, "\(clipped)")
            #expect(abs(clipped[2].right - right) < 0.5)
        default:
            // Centred on whole cells: within half a cell (3 pt) of the middle.
            for line in clipped { #expect(abs((line.left + line.right) / 2 - (36 + right) / 2) < 3.1, "\(clipped)") }
        }
    }

    /// A right-to-left line too long for the page shows its start, at the right edge, and loses
    /// its end past the left margin, as a left-to-right line loses its end past the right one.
    @Test func aClippedRightToLeftLineKeepsItsStart() throws {
        let long = "התחלה " + String(repeating: "שורה ארוכה מאוד בעברית שחוצה את השוליים של הדף ", count: 6)
        let (pdf, _, _) = try convert(textFile(Array((long + "\n").utf8)), options: ["line-break": "clip"])
        let words = try PDF.words(pdf, page: 1)
        // Its first word is set whole, centred in its cells: within half a cell of the edge.
        #expect(abs(words.map(\.xMax).max()! - (try lastCellEdge())) < 3.1, "the start, at the right")
        // What runs past the left margin is cut there (pixels: pdftotext reads a word the edge
        // cuts whole, as it is in the PDF).
        let page = try PDF.grayPixels(pdf, page: 1, dpi: 72)
        let inkLeftOfMargin = (30..<50).reduce(0) { n, y in n + (0..<35).filter { page.pixels[y * page.width + $0] < 200 }.count }
        let inkAtTheLeftEdge = (30..<50).reduce(0) { n, y in n + (37..<60).filter { page.pixels[y * page.width + $0] < 200 }.count }
        #expect(inkLeftOfMargin == 0 && inkAtTheLeftEdge > 0, "the line fills the text area and is cut at its left edge")
    }

    /// The right edge of the last whole cell of the default font's grid in an A4 text area with
    /// 36 pt margins; the cell measured from a line of ten zeros.
    func lastCellEdge() throws -> Double {
        let (pdf, _, _) = try convert(textFile(Array("0000000000\n".utf8)))
        let zeros = try #require(PDF.words(pdf, page: 1).first)
        let cell = (zeros.xMax - zeros.xMin) / 10
        return 36 + ((MediaSize.a4.size.width - 72) / cell).rounded(.down) * cell
    }

    /// Cut at the text's edge, such a line stays out of the line-number gutter.
    @Test func aClippedRightToLeftLineStaysOutOfTheLineNumbers() throws {
        let line = String(repeating: "שורה ארוכה מאוד בעברית ", count: 12)
        let (pdf, _, _) = try convert(textFile(Array((line + "\n").utf8)), options: ["line-break": "clip", "line-numbers": "true"])
        let page = try PDF.grayPixels(pdf, page: 1, dpi: 72)
        // At 72 dpi a pixel is a point. The gutter runs from the margin (36) to the text (~60);
        // its number, "1", is right-aligned in it (from x 48), so x 36-46 of the line is paper.
        func ink(x: Range<Int>) -> Int {
            (36..<50).reduce(0) { n, y in n + x.filter { page.pixels[y * page.width + $0] < 200 }.count }
        }
        #expect(ink(x: 36..<46) == 0)
        #expect(ink(x: 46..<58) > 0, "the line number is there")
        #expect(ink(x: 62..<100) > 0, "the text is there")
    }
}
