import Foundation
import TestSupport
import Testing

/// CSS Paged Media beyond WebKit: page-margin boxes with counters and running headers
/// (`string-set`), checked against WeasyPrint, which implements them, under the same fonts.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/weasyprint"), "needs weasyprint"))
struct PagedMediaTests {
    /// A small book: a title page, then chapters that each start a page (so that both engines
    /// break pages in the same places), sections that set a running string, all 16 boxes, a
    /// `:first` page of its own, `:left` and `:right` boxes, counters in three styles, every
    /// `string()` policy but `start`, and a string taken from an attribute. Boxes in DejaVu Sans.
    static let book = """
        <html><head><title>Paged media book</title><style>
        @page { size: A4; margin: 25mm 20mm; font-family: "DejaVu Sans"; font-size: 8pt;
          @top-left-corner { content: "TLC" } @top-left { content: string(book) } @top-center { content: string(chapter) }
          @top-right { content: string(section, last) } @top-right-corner { content: "TRC" }
          @right-top { content: "RT" } @right-middle { content: "RM" } @right-bottom { content: string(section, first-except) }
          @bottom-right-corner { content: "BRC" } @bottom-center { content: "Page " counter(page) " of " counter(pages) }
          @bottom-left-corner { content: "BLC" } @left-bottom { content: "LB" } @left-middle { content: "LM" }
          @left-top { content: "LT" } }
        @page :first { @top-center { content: "Title page"; color: #c00; font-size: 12pt } @top-left { content: none } }
        @page :left { @bottom-left { content: "Left " counter(page, lower-roman); text-align: left } }
        @page :right { @bottom-right { content: "Right " counter(page, upper-roman); border: 1px solid black; background: #eee } }
        body { font-family: "DejaVu Serif"; font-size: 11pt; margin: 0 }
        .book { string-set: book content() }
        h1 { string-set: chapter content(); break-before: page; font-size: 16pt; margin: 0 }
        h2 { string-set: section "Sec. " content(); font-size: 12pt }
        h1.first { break-before: auto }
        .note { string-set: chapter attr(data-title) }
        </style></head><body>
        <h1 class="first book">Handbook</h1><p>Short.</p>
        <h1>Chapter Alpha</h1><h2>One</h2><p>Alpha text.</p><h2>Two</h2><p>More.</p>
        <h1>Chapter Beta</h1><p>Beta text, no sections.</p>
        <h1>Chapter Gamma</h1><h2>Three</h2><p class="note" data-title="Gamma notes">Gamma text.</p>
        </body></html>
        """

    typealias Word = (word: String, xMin: Double, yMin: Double, xMax: Double, yMax: Double)

    /// The words of `page` in the page margins (outside margins of `top` and `side` mm, A4
    /// unless `paper` says otherwise): the margin boxes' text.
    static func marginWords(_ pdf: String, page: Int, top: Double = 25, side: Double = 20,
                            paper: (width: Double, height: Double) = (595.28, 841.89)) throws -> [Word] {
        let top = top * 72 / 25.4, side = side * 72 / 25.4
        return try PDF.words(pdf, page: page).filter { w in
            let x = (w.xMin + w.xMax) / 2, y = (w.yMin + w.yMax) / 2
            return y < top || y > paper.height - top || x < side || x > paper.width - side
        }
    }

    /// Converts `html` with swiftprint and with WeasyPrint; the two PDFs.
    static func bothEngines(_ html: String) throws -> (ours: String, theirs: String) {
        let dir = try temporaryDirectory()
        try html.write(toFile: dir + "/doc.html", atomically: false, encoding: .utf8)
        let ours = dir + "/ours.pdf", theirs = dir + "/theirs.pdf"
        let r = try swiftprint(["convert", dir + "/doc.html", "-o", ours])
        #expect(r.status == 0, "\(r.stderr)")
        let w = try Tool.run("weasyprint", [dir + "/doc.html", theirs])
        #expect(w.status == 0, "\(w.stderr)")
        return (ours, theirs)
    }

    /// Each of `mine` where WeasyPrint has the same word, to within a point and a half (the
    /// engines' line heights differ by less than that under the same font); the largest gap.
    @discardableResult
    static func expectSamePlaces(_ mine: [Word], _ reference: [Word], page: Int) -> Double {
        var unmatched = reference, worst = 0.0
        for word in mine {
            guard let i = unmatched.indices.filter({ unmatched[$0].word == word.word })
                .min(by: { abs(unmatched[$0].xMin - word.xMin) + abs(unmatched[$0].yMin - word.yMin)
                    < abs(unmatched[$1].xMin - word.xMin) + abs(unmatched[$1].yMin - word.yMin) }) else { continue }
            let other = unmatched.remove(at: i)
            let d = max(abs(other.xMin - word.xMin), abs(other.yMin - word.yMin), abs(other.xMax - word.xMax), abs(other.yMax - word.yMax))
            worst = max(worst, d)
            #expect(d <= 1.5, "page \(page): \(word.word) at \(word.xMin), \(word.yMin); WeasyPrint's at \(other.xMin), \(other.yMin)")
        }
        return worst
    }

    /// The margin boxes' text on each page, as people read it.
    static func marginText(_ words: [Word]) -> String { words.map(\.word).sorted().joined(separator: " ") }

    @Test func marginBoxesSitWhereWeasyPrintPutsThem() throws {
        let dir = try temporaryDirectory()
        try Self.book.write(toFile: dir + "/book.html", atomically: false, encoding: .utf8)
        let ours = dir + "/ours.pdf", theirs = dir + "/theirs.pdf"
        let r = try swiftprint(["convert", dir + "/book.html", "-o", ours])
        #expect(r.status == 0, "\(r.stderr)")
        let w = try Tool.run("weasyprint", [dir + "/book.html", theirs])
        #expect(w.status == 0, "\(w.stderr)")
        let pages = try PDF.pageCount(ours)
        let theirPages = try PDF.pageCount(theirs)
        #expect(pages == 4 && theirPages == 4)

        // What the boxes say, page by page (in any order): counters, the :first and :left/:right boxes, and
        // the named strings (first, last, first-except, carried from an earlier page).
        let expected = [
            "1 4 BLC BRC I LB LM LT Page RM RT Right TLC TRC Title of page",
            "2 4 BLC BRC Chapter Alpha Handbook LB LM LT Left Page RM RT Sec. TLC TRC Two ii of",
            "3 4 BLC BRC Beta Chapter Handbook III LB LM LT Page RM RT Right Sec. Sec. TLC TRC Two Two of",
            "4 4 BLC BRC Chapter Gamma Handbook LB LM LT Left Page RM RT Sec. TLC TRC Three iv of",
        ]
        var compared = 0
        for page in 1...pages {
            let mine = try Self.marginWords(ours, page: page), reference = try Self.marginWords(theirs, page: page)
            #expect(Self.marginText(mine) == expected[page - 1].split(separator: " ").sorted().joined(separator: " "), "page \(page)")
            #expect(Self.marginText(mine) == Self.marginText(reference), "page \(page): WeasyPrint's boxes say otherwise")
            Self.expectSamePlaces(mine, reference, page: page)
            compared += mine.count
        }
        #expect(compared > 40, "the comparison compared \(compared) words")
    }

    /// The right-hand pages' bottom-right box has a border and a background: drawn around its
    /// text as WeasyPrint draws it (as wide as the text, as tall as the margin).
    @Test func aBoxWithABorderIsAsWideAsItsText() throws {
        let dir = try temporaryDirectory()
        try Self.book.write(toFile: dir + "/book.html", atomically: false, encoding: .utf8)
        let ours = dir + "/ours.pdf", theirs = dir + "/theirs.pdf"
        #expect(try swiftprint(["convert", dir + "/book.html", "-o", ours]).status == 0)
        #expect(try Tool.run("weasyprint", [dir + "/book.html", theirs]).status == 0)
        // Grey background columns in the bottom margin of page 1, at 72 dpi.
        func greyColumns(_ pdf: String) throws -> [Int] {
            let (w, h, pixels) = try PDF.grayPixels(pdf, page: 1, dpi: 72)
            let row = h - 20
            return (0..<w).filter { (200...250).contains(pixels[row * w + $0]) }
        }
        let mine = try greyColumns(ours), reference = try greyColumns(theirs)
        #expect(!mine.isEmpty && mine.count < 60, "\(mine.count) grey columns")
        #expect(abs((mine.first ?? 0) - (reference.first ?? 0)) <= 2 && abs((mine.last ?? 0) - (reference.last ?? 0)) <= 2,
                "ours \(mine.first ?? -1)…\(mine.last ?? -1), WeasyPrint's \(reference.first ?? -1)…\(reference.last ?? -1)")
    }

    /// Chapters that must start on a right-hand page (and one on a left-hand page) get a
    /// blank page before them where needed, as WeasyPrint does; the blank pages take their
    /// `@page :blank` boxes and are counted.
    @Test func blankPagesPutRectoAndVersoChaptersOnTheirSides() throws {
        let html = """
            <html><head><style>
            @page { size: A5; margin: 20mm; @bottom-center { content: counter(page) " / " counter(pages); font: 9pt "DejaVu Sans" } }
            @page :blank { @top-center { content: "Blank"; font: 9pt "DejaVu Sans" } @bottom-center { content: none } }
            body { font: 11pt "DejaVu Serif"; margin: 0 }
            h1 { break-before: right; margin: 0 } h1.v { break-before: verso } .end { break-after: verso }
            </style></head><body>
            <p>Cover.</p><h1>One</h1><p>a</p><h1 class=v>Two</h1><p class=end>b</p><h2>Three</h2><p>c</p>
            <h2 style="break-before: page">Four</h2>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        let pages = try PDF.pageCount(ours)
        let theirPages = try PDF.pageCount(theirs)
        #expect(pages == theirPages && pages == 7, "\(pages) pages, WeasyPrint's \(theirPages)")
        let a5 = (width: 419.53, height: 595.28)
        for page in 1...pages {
            let mine = try Self.marginWords(ours, page: page, top: 20, side: 20, paper: a5)
            let reference = try Self.marginWords(theirs, page: page, top: 20, side: 20, paper: a5)
            #expect(Self.marginText(mine) == Self.marginText(reference), "page \(page)")
            #expect(try PDF.text(ours, first: page, last: page).filter { !$0.isWhitespace }
                    == (try PDF.text(theirs, first: page, last: page)).filter { !$0.isWhitespace }, "page \(page)'s text")
            Self.expectSamePlaces(mine, reference, page: page)
        }
        // Blank before One (a right-hand page), and before Three (after Two's `break-after: verso`).
        #expect(try PDF.text(ours, first: 2, last: 2).contains("Blank") && PDF.text(ours, first: 5, last: 5).contains("Blank"))
    }

    /// A named page (`page: main`) takes its own `@page main` boxes, `:left` ones too, and
    /// starts on a page of its own, as in WeasyPrint.
    static let namedPages = """
        <html><head><style>
        @page { size: A5; margin: 20mm; @bottom-center { content: "front " counter(page, lower-roman); font: 9pt "DejaVu Sans" } }
        @page main { @bottom-center { content: "main " counter(page); font: 9pt "DejaVu Sans" } @top-right { content: "MAIN"; font: 9pt "DejaVu Sans" } }
        @page main:left { @bottom-left { content: "ML"; font: 9pt "DejaVu Sans" } }
        body { font: 11pt "DejaVu Serif"; margin: 0 }
        .main { page: main }
        h1 { break-before: page; margin: 0 }
        </style></head><body>
        <p>Title</p><h1>Preface</h1><p>x</p>
        <div class=main><p>Start of main, no break of its own.</p><h1>One</h1><p>a</p><h1>Two</h1></div>
        <p class=back style="break-before: page">Back matter.</p>
        </body></html>
        """

    @Test func namedPagesTakeTheirOwnBoxes() throws {
        let (ours, theirs) = try Self.bothEngines(Self.namedPages)
        let pages = try PDF.pageCount(ours)
        let theirPages = try PDF.pageCount(theirs)
        #expect(pages == 6 && theirPages == 6, "\(pages) pages, WeasyPrint's \(theirPages)")
        let a5 = (width: 419.53, height: 595.28)
        for page in 1...min(pages, theirPages) {
            let mine = try Self.marginWords(ours, page: page, top: 20, side: 20, paper: a5)
            let reference = try Self.marginWords(theirs, page: page, top: 20, side: 20, paper: a5)
            #expect(Self.marginText(mine) == Self.marginText(reference), "page \(page)")
            Self.expectSamePlaces(mine, reference, page: page)
        }
        #expect(try PDF.text(ours, first: 3, last: 3).contains("main 3") && PDF.text(ours, first: 4, last: 4).contains("ML"))
        #expect(try PDF.text(ours, first: 6, last: 6).contains("front vi"))
    }

    /// A named page of its own size and margins (a landscape section) prints on paper of that
    /// size within those margins, as WeasyPrint prints it, with the boxes of its own rule and
    /// the page numbers running on. (WebKit lays a document out at one size: swiftprint prints
    /// it again at the named page's and takes that print's pages for the section.) The
    /// section's heading is a marked element inside a marked one, both starting at one place.
    @Test func aNamedPageOfItsOwnSizeIsPrintedAtThatSize() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A4; margin: 20mm; @bottom-center { content: "Page " counter(page); font: 9pt "DejaVu Sans" } }
            @page wide { size: A4 landscape; margin: 15mm; @top-center { content: "Wide " counter(page); font: 9pt "DejaVu Sans" } }
            body { font: 11pt "DejaVu Serif"; margin: 0 } h1, h2 { margin-top: 0 }
            .wide { page: wide }
            table { border-collapse: collapse; width: 100% } td { border: 1px solid #888; padding: 2pt }
            </style></head><body>
            <h1>Report</h1><p>Portrait text before the wide section.</p>
            <section class="wide"><h2>Wide table</h2><table>
            <tr><td>alpha</td><td>beta</td><td>gamma</td><td>delta</td><td>epsilon</td><td>zeta</td><td>eta</td><td>theta</td></tr>
            <tr><td>1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>7</td><td>8</td></tr></table>
            <p>The wide section ends here, with a line long enough to show how wide the landscape page is.</p></section>
            <h2 style="break-before: page">After</h2><p>Portrait again.</p>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        let sizes = try PDF.pageSizes(ours), theirSizes = try PDF.pageSizes(theirs)
        #expect(sizes.count == 3 && sizes.map { $0.width > $0.height } == [false, true, false], "\(sizes)")
        #expect(sizes.map { "\(Int($0.width))x\(Int($0.height))" } == theirSizes.map { "\(Int($0.width))x\(Int($0.height))" })
        for page in 1...3 {
            #expect(try PDF.text(ours, first: page, last: page) == PDF.text(theirs, first: page, last: page), "page \(page)'s text")
        }
        // The wide page: its boxes and its heading where WeasyPrint has them (the heading 15 mm
        // from the paper's left and top edges), and the paragraph below the table starting at
        // that margin too (how far down differs: the engines' table rows are not of one height).
        let landscape = (width: 841.89, height: 595.28)
        Self.expectSamePlaces(try Self.marginWords(ours, page: 2, top: 15, side: 15, paper: landscape),
                              try Self.marginWords(theirs, page: 2, top: 15, side: 15, paper: landscape), page: 2)
        // (Where the heading starts, not where it ends: the engines' widths of 16.5 pt text
        // differ by 2 %.)
        let heading = try PDF.words(ours, page: 2).filter { $0.yMin > 30 && $0.yMin < 60 }
        let theirHeading = try PDF.words(theirs, page: 2).filter { $0.yMin > 30 && $0.yMin < 60 }
        #expect(heading.map(\.word) == ["Wide", "table"] && theirHeading.map(\.word) == ["Wide", "table"], "\(heading)")
        #expect(abs(heading[0].xMin - 15 * 72 / 25.4) < 0.5 && abs(heading[0].xMin - theirHeading[0].xMin) < 1.5
                    && abs(heading[0].yMin - theirHeading[0].yMin) < 1.5, "\(heading) / \(theirHeading)")
        let paragraph = try #require(try PDF.words(ours, page: 2).first { $0.word == "The" })
        #expect(abs(paragraph.xMin - 15 * 72 / 25.4) < 0.5, "\(paragraph)")
    }

    /// A named landscape run among right-hand chapters, blank pages and a table of contents with
    /// leaders: the same pages, of the same sizes, with the same running headers and numbers as
    /// WeasyPrint's; a blank page before the run is of the document's size, unnamed.
    @Test func aNamedRunAmongBlankPagesAndAContentsPage() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm; @bottom-center { content: counter(page) " / " counter(pages); font: 9pt "DejaVu Sans" }
              @top-center { content: string(ch); font: 9pt "DejaVu Sans" } }
            @page wide { size: A5 landscape; margin: 12mm }
            @page :blank { @top-center { content: "(blank)" } }
            body { font: 11pt "DejaVu Serif"; margin: 0 } h1 { string-set: ch content(); break-before: right; margin: 0 }
            .wide { page: wide } .toc a::after { content: leader('.') target-counter(attr(href), page) } .toc a { color: black; text-decoration: none }
            </style></head><body>
            <h2 style="margin:0">Contents</h2><ul class=toc><li><a href="#a">Alpha</a></li><li><a href="#w">Wide one</a></li><li><a href="#b">Beta</a></li></ul>
            <h1 id=a>Alpha</h1><p>Text of alpha.</p>
            <div class=wide><h1 id=w>Wide one</h1><p>Landscape content that is wide.</p><p style="break-before: page">Second landscape page.</p></div>
            <h1 id=b>Beta</h1><p>Text of beta, see <a href="#w">the wide chapter</a>.</p>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        func sizes(_ pdf: String) throws -> [String] { try PDF.pageSizes(pdf).map { "\(Int($0.width))x\(Int($0.height))" } }
        let mine = try sizes(ours)
        #expect(mine == ["419x595", "419x595", "419x595", "419x595", "595x419", "595x419", "419x595"], "\(mine)")
        #expect(try mine == sizes(theirs))
        // Page by page the same words, the leaders' dots and the list's bullets aside.
        func words(_ pdf: String, _ page: Int) throws -> [String] {
            try PDF.text(pdf, first: page, last: page).split(whereSeparator: { $0.isWhitespace || $0 == "." || $0 == "•" }).map(String.init)
        }
        for page in 1...7 {
            let text = try words(ours, page)
            #expect(try text == words(theirs, page), "page \(page): \(text)")
        }
    }

    /// A table of contents: `target-counter(attr(href), page)` in a link's `::after` shows the
    /// page its target starts on (decimal or roman), as WeasyPrint shows it; a link to nowhere
    /// shows no number.
    @Test func aTableOfContentsShowsTheTargetsPages() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm; @bottom-center { content: counter(page); font: 9pt "DejaVu Sans" } }
            body { font: 11pt "DejaVu Serif"; margin: 0 }
            h1 { break-before: page; margin: 0 }
            .toc { list-style: none } .toc a { color: black; text-decoration: none }
            .toc a::after { content: " … " target-counter(attr(href), page) }
            .toc a.r::after { content: " (p. " target-counter(attr(href), page, lower-roman) ")" }
            </style></head><body>
            <h2>Contents</h2>
            <ul class=toc><li><a href="#one">One</a></li><li><a href="#two">Two</a></li><li><a class=r href="#three">Three</a></li>
            <li><a href="#missing">Missing</a></li></ul>
            <h1 id=one>One</h1><p>a</p><h1 id=two>Two</h1><p>b</p><p style="break-before: page">more</p><h1 id=three>Three</h1>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        func lines(_ pdf: String) throws -> [String] {
            try PDF.text(pdf, first: 1, last: 1).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let mine = try lines(ours)
        #expect(mine.starts(with: ["Contents", "One … 2", "Two … 3", "Three (p. v)", "Missing …"]), "\(mine)")
        #expect(mine == (try lines(theirs)), "WeasyPrint's contents page differs")
        #expect(try PDF.pageCount(ours) == 5)
    }

    /// `leader()` in a table of contents: the dots fill each entry's line and the page number
    /// ends where WeasyPrint ends it, at the line's end; each entry's link covers its line.
    /// WeasyPrint sets its dots on a grid of its own and puts a space before the number, so the
    /// dots are counted, not placed.
    @Test func aLeaderFillsTheLineUpToThePageNumber() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm }
            body { font: 11pt "DejaVu Serif"; margin: 0 }
            h1 { break-before: page; margin: 0 }
            .toc { list-style: none; padding: 0 } .toc a { color: black; text-decoration: none }
            .toc a::after { content: leader('.') target-counter(attr(href), page) }
            .toc a.roman::after { content: leader(dotted) target-counter(attr(href), page, upper-roman) }
            </style></head><body>
            <h2>Contents</h2>
            <ul class=toc><li><a href="#one">One</a></li><li><a href="#two">Two, a longer title</a></li>
            <li><a class=roman href="#three">Three</a></li></ul>
            <h1 id=one>One</h1><p>a</p><h1 id=two>Two</h1><p>b</p><p style="break-before: page">more</p>
            <p style="break-before: page">more</p><p style="break-before: page">more</p><h1 id=three>Three</h1>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        #expect(try PDF.pageCount(ours) == PDF.pageCount(theirs))
        // Each entry: its words on one line, left to right.
        func entries(_ pdf: String) throws -> [(text: String, xMin: Double, xMax: Double, yMin: Double)] {
            let words = try PDF.words(pdf, page: 1).filter { $0.word != "Contents" }
            var lines: [[Word]] = []
            for word in words.sorted(by: { $0.yMin < $1.yMin }) {
                if let i = lines.firstIndex(where: { abs($0[0].yMin - word.yMin) < 2 }) { lines[i].append(word) } else { lines.append([word]) }
            }
            return lines.map { line in
                let sorted = line.sorted { $0.xMin < $1.xMin }
                return (sorted.map(\.word).joined(), sorted.first!.xMin, sorted.last!.xMax, sorted.first!.yMin)
            }
        }
        let mine = try entries(ours), reference = try entries(theirs)
        #expect(mine.count == 3 && reference.count == 3, "\(mine) / \(reference)")
        for (entry, other) in zip(mine, reference) {
            // The title, the dots, the number: the same, but for how many dots.
            let shape = /^([A-Za-z, ]+?)([. ]+)([0-9IVX]+)$/
            let a = try #require(entry.text.wholeMatch(of: shape), "\(entry.text)")
            let b = try #require(other.text.wholeMatch(of: shape), "\(other.text)")
            #expect(a.1 == b.1 && a.3 == b.3, "\(entry.text) / \(other.text)")
            // `leader(dotted)` repeats ". " as css-content-3 says; WeasyPrint 57 repeats "."
            // alone, so twice as many dots.
            let dots = a.2.filter { $0 == "." }.count, theirDots = b.2.filter { $0 == "." }.count / (a.3.hasSuffix("I") ? 2 : 1)
            #expect(Double(dots) >= 0.85 * Double(theirDots), "\(dots) dots against WeasyPrint's \(theirDots): \(entry.text)")
            #expect(abs(entry.xMin - other.xMin) <= 1.5 && abs(entry.xMax - other.xMax) <= 1.5,
                    "\(entry.text) spans \(entry.xMin)…\(entry.xMax), WeasyPrint's \(other.xMin)…\(other.xMax)")
        }
        #expect(mine.map { $0.text.suffix(1) } == ["2", "3", "I"], "\(mine.map(\.text))")
        // Each entry's link lies over its whole line and goes to its chapter's page.
        let links = try PDF.links(ours)
        for (entry, page) in zip(mine, [1, 2, 6]) {
            let top = 595.28 - entry.yMin
            let link = links.first { abs($0.box[0] - entry.xMin) < 1 && abs($0.box[3] - top) < 2 }
            #expect(link.map { abs($0.box[2] - entry.xMax) < 1 && $0.page == page } == true, "\(entry.text): \(links)")
        }
    }

    /// The PDF outline: each heading a bookmark to its page, nested by level, as WeasyPrint
    /// makes it (read with qpdf's JSON).
    @Test func headingsBecomeTheOutline() throws {
        let (ours, theirs) = try Self.bothEngines(Self.book)
        func outline(_ pdf: String) throws -> [String] {
            let json = try Tool.run("qpdf", ["--json", "--json-key=outlines", pdf]).stdout
            let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            var lines: [String] = []
            func walk(_ items: [[String: Any]], _ depth: Int) {
                for item in items {
                    lines.append("\(depth) \(item["title"] as? String ?? "?") p\(item["destpageposfrom1"] as? Int ?? 0)")
                    walk(item["kids"] as? [[String: Any]] ?? [], depth + 1)
                }
            }
            walk(root["outlines"] as? [[String: Any]] ?? [], 1)
            return lines
        }
        let mine = try outline(ours)
        #expect(mine == ["1 Handbook p1", "1 Chapter Alpha p2", "2 One p2", "2 Two p2", "1 Chapter Beta p3", "1 Chapter Gamma p4", "2 Three p4"],
                "\(mine)")
        #expect(mine == (try outline(theirs)), "WeasyPrint's outline differs")
    }

    /// A book's binding margins: `@page :left` and `:right` with their own side margins (the
    /// same width): right-hand pages at theirs, left-hand pages moved to theirs, boxes with
    /// them, as WeasyPrint places them.
    @Test func leftAndRightPagesKeepTheirMargins() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm 15mm; @bottom-center { content: counter(page); font: 9pt "DejaVu Sans" }
                    @top-center { content: "Book"; font: 9pt "DejaVu Sans" } }
            @page :left { margin-left: 25mm; margin-right: 15mm; @bottom-left { content: "L" counter(page); font: 9pt "DejaVu Sans" } }
            @page :right { margin-left: 15mm; margin-right: 25mm }
            body { font: 11pt "DejaVu Serif"; margin: 0 }
            h1 { break-before: page; margin: 0 }
            </style></head><body>
            <h1 style="break-before: auto">One</h1><p>First page text.</p><h1>Two</h1><p>Second.</p><h1>Three</h1><p>Third.</p>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        #expect(try PDF.pageCount(ours) == 3)
        for page in 1...3 {
            let mine = try PDF.words(ours, page: page), reference = try PDF.words(theirs, page: page)
            #expect(mine.map(\.word) == reference.map(\.word), "page \(page)")
            Self.expectSamePlaces(mine, reference, page: page)
        }
        let left = try #require(try PDF.words(ours, page: 2).first { $0.word == "Two" })
        #expect(abs(left.xMin - 25 * 72 / 25.4) < 1, "a left-hand page's text starts 25 mm in: \(left.xMin)")
    }

    /// `string(name, start)` takes the page's first assignment only when its element begins the
    /// page, else the value carried in, as WeasyPrint does; beside `first` and `last`.
    @Test func startTakesAnAssignmentOnlyAtTheTopOfThePage() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm; font: 9pt "DejaVu Sans";
              @top-left { content: string(ch, start) } @top-center { content: string(ch, first) } @top-right { content: string(ch, last) } }
            body { font: 11pt "DejaVu Serif"; margin: 0 } h1 { string-set: ch content(); margin: 0 0 4mm }
            .pb { break-before: page }
            </style></head><body>
            <h1>Alpha</h1><p>a</p><h1 class=pb>Beta</h1><p>b</p><h1>Gamma</h1><p>c</p><p class=pb>continued</p><h1>Delta</h1>
            </body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        let a5 = (width: 419.53, height: 595.28)
        var headers: [String] = []
        for page in 1...3 {
            let mine = try Self.marginWords(ours, page: page, top: 20, side: 20, paper: a5)
            let reference = try Self.marginWords(theirs, page: page, top: 20, side: 20, paper: a5)
            headers.append(mine.sorted { $0.xMin < $1.xMin }.map(\.word).joined(separator: " "))
            #expect(Self.marginText(mine) == Self.marginText(reference), "page \(page)")
            Self.expectSamePlaces(mine, reference, page: page)
        }
        #expect(headers == ["Alpha Alpha Alpha", "Beta Beta Gamma", "Gamma Delta Delta"], "\(headers)")
    }

    /// A blank page put in before a named run that starts on a right-hand page is unnamed, as
    /// in WeasyPrint (its boxes are those of the plain page); the run's own page takes the run's boxes.
    @Test func aBlankPageBeforeANamedRunIsUnnamed() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm; @top-center { content: "plain"; font: 9pt "DejaVu Sans" } }
            @page main { @top-center { content: "main"; font: 9pt "DejaVu Sans" } }
            @page :blank { @bottom-center { content: "blank"; font: 9pt "DejaVu Sans" } }
            body { font: 11pt "DejaVu Serif"; margin: 0 }
            .main { page: main; break-before: right }
            </style></head><body><p>Cover.</p><div class=main><p>Main starts.</p></div></body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        func pages(_ pdf: String) throws -> [String] {
            try (1...PDF.pageCount(pdf)).map { try PDF.text(pdf, first: $0, last: $0).split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        }
        let mine = try pages(ours)
        #expect(mine == ["plain Cover.", "plain blank", "main Main starts."], "\(mine)")
        #expect(mine == (try pages(theirs)))
    }

    /// Sides asked for in `@media print` count, those in `@media screen` do not (WebKit's
    /// computed style is the screen's, so swiftprint reads these rules itself), as in WeasyPrint.
    @Test func sidesComeFromPrintStylesOnly() throws {
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm; @bottom-center { content: counter(page); font: 9pt "DejaVu Sans" } }
            body { font: 11pt "DejaVu Serif"; margin: 0 } h1, h2 { break-before: page; margin: 0 }
            @media print { h1 { break-before: right } }
            @media screen { h2 { break-before: left } }
            </style></head><body><p>Cover.</p><h1>One</h1><p>a</p><h2>Two</h2><p>b</p><h1>Three</h1></body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        func pages(_ pdf: String) throws -> [String] {
            try (1...PDF.pageCount(pdf)).map { try PDF.text(pdf, first: $0, last: $0).split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        }
        let mine = try pages(ours)
        #expect(mine == ["Cover. 1", "2", "One a 3", "Two b 4", "Three 5"], "\(mine)")
        #expect(mine == (try pages(theirs)))
    }

    /// A link to an image (an element that shows no `::before`) gets its page number too.
    @Test func aTableOfContentsFindsAnImage() throws {
        let pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
        let html = """
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm } body { margin: 0; font: 11pt "DejaVu Serif" } .toc { list-style: none }
            .toc a::after { content: " p. " target-counter(attr(href), page) } p.b { break-before: page }
            </style></head><body><ul class=toc><li><a href="#fig">The chart</a></li></ul>
            <p class=b>Text</p><p class=b>More</p><img id=fig src="data:image/png;base64,\(pixel)" width=50 height=50></body></html>
            """
        let (ours, theirs) = try Self.bothEngines(html)
        let mine = try PDF.text(ours, first: 1, last: 1).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(mine == "The chart p. 3", "\(mine)")
        #expect(mine == (try PDF.text(theirs, first: 1, last: 1)).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
