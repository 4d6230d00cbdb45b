import Foundation
import TestSupport
import Testing

/// A named page is a page like any other to `:first`, `:left`, `:right` and `:blank` (css-page-3):
/// its size, margins and margin boxes are the cascade of every `@page` rule that matches it, a
/// page name outweighing pseudo-classes, `:first` and `:blank` outweighing `:left` and `:right`.
/// Each case is printed by swiftprint and by WeasyPrint, and every word of every page (the boxes'
/// and the body's one-word paragraphs, so that no line's width adds up) must sit where
/// WeasyPrint's does, on paper of the same size. (Issue 39, item 2.)
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/weasyprint"), "needs weasyprint"))
struct NamedPageCascadeTests {
    /// An A5 document of 20 mm margins whose boxes are in 9 pt DejaVu Sans, with `css` added and
    /// `body` as its body (`.wide` elements on the page named `wide`, `.b` starting a page).
    static func document(_ css: String, _ body: String) -> String {
        """
        <html><head><meta charset="utf-8"><style>
        @page { size: A5; margin: 20mm; font: 9pt "DejaVu Sans"; @bottom-center { content: counter(page) } }
        body { font: 11pt "DejaVu Serif"; margin: 0 } p { margin: 0 0 6pt } .wide { page: wide } .b { break-before: page }
        \(css)
        </style></head><body>\(body)</body></html>
        """
    }

    /// A book's binding margins: wider on the inside (the right of a left-hand page).
    static let mirrored = "@page :left { margin-left: 30mm; margin-right: 10mm } @page :right { margin-left: 10mm; margin-right: 30mm }"

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var css: String
        var body: String
        var pages: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: ":left margins on a landscape named page on a left-hand page",
             css: mirrored + #" @page wide { size: A5 landscape; @top-center { content: "Wide " counter(page) } }"#,
             body: "<p>One</p><div class=wide><p>Wide</p></div><p class=b>Three</p>", pages: 3),
        Case(name: ":right margins on a named page on a right-hand page",
             css: mirrored + #" @page wide { size: A5 landscape; @top-center { content: "Wide " counter(page) } }"#,
             body: "<p>One</p><p class=b>Two</p><div class=wide><p>Wide</p></div><p class=b>Four</p>", pages: 4),
        Case(name: "a named run over a left-hand and a right-hand page takes each side's margins and boxes",
             css: mirrored + #" @page wide { size: A5 landscape; @top-left { content: "WL" } @top-right { content: "WR" } }"#,
             body: "<p>One</p><div class=wide><p>Left</p><p class=b>Right</p></div><p class=b>Four</p>", pages: 4),
        Case(name: "the name's margins and box outweigh :left's; :left's other box stays",
             css: mirrored + #" @page :left { @top-left { content: "LeftBox" } @top-center { content: "left" } }"#
                 + #" @page wide { size: A5 landscape; margin: 15mm; @top-center { content: "wide" } }"#,
             body: "<p>One</p><div class=wide><p>Wide</p></div><p class=b>Three</p>", pages: 3),
        Case(name: "wide:left and wide:right outweigh wide, though written before it",
             css: #"@page wide:left { margin-left: 25mm; margin-right: 5mm; @top-center { content: "wide-left" } }"#
                 + #" @page wide { size: A5 landscape; margin: 15mm; @top-center { content: "wide" } }"#
                 + " @page wide:right { margin-left: 5mm; margin-right: 25mm }",
             body: "<p>One</p><div class=wide><p>Left</p><p class=b>Right</p></div><p class=b>Four</p>", pages: 4),
        Case(name: ":first margins and wide:first's box on a named first page",
             css: #"@page :first { margin-left: 30mm; margin-right: 10mm; @top-left { content: "First" } }"#
                 + #" @page wide { size: A5 landscape; @top-center { content: "wide" } } @page wide:first { @top-center { content: "wide-first" } }"#,
             body: "<div class=wide><p>Wide</p><p class=b>More</p></div><p class=b>Three</p>", pages: 3),
        Case(name: "wide:first's margins outweigh :first's",
             css: "@page wide:first { margin-left: 10mm; margin-right: 30mm }"
                 + #" @page :first { margin-left: 30mm; margin-right: 10mm; @top-right { content: "First" } }"#
                 + #" @page wide { size: A5 landscape; @top-center { content: "wide" } }"#,
             body: "<div class=wide><p>Wide</p></div><p class=b>Two</p>", pages: 2),
        Case(name: "a blank page after a named run is unnamed, of :blank's margins and boxes",
             css: mirrored + #" @page wide { size: A5 landscape; @top-center { content: "wide" } }"#
                 + #" @page wide:blank { @top-center { content: "wide-blank" } }"#
                 + #" @page :blank { margin-left: 40mm; margin-right: 10mm; @top-left { content: "blank" } }"#,
             body: #"<p>One</p><div class=wide><p>Wide</p></div><p style="break-before: left">Four</p>"#, pages: 4),
        Case(name: "a blank page before a named run of :left/:right margins",
             css: mirrored + #" @page wide { size: A5 landscape; @top-center { content: "wide" } } @page :blank { @top-center { content: "blank" } }"#,
             body: #"<p>One</p><div class=wide style="break-before: right"><p>Wide</p></div>"#, pages: 3),
        Case(name: "a named page of the document's size keeps :left and :right margins",
             css: mirrored + #" @page wide { @top-center { content: "wide" } } @page wide:left { @bottom-left { content: "WL" } }"#,
             body: "<p>One</p><div class=wide><p>Wide</p><p class=b>Right</p></div><p class=b>Four</p>", pages: 4),
    ]

    @Test(arguments: cases) func namedPageCascadeAsInWeasyPrint(_ c: Case) throws {
        let (ours, theirs) = try PagedMediaTests.bothEngines(Self.document(c.css, c.body))
        try Self.expectSamePages(ours, theirs, pages: c.pages)
    }

    /// The case as filed: a book of `:left`/`:right` margins whose landscape named page falls on a
    /// left-hand page took the right-hand page's margins, and its top-centre box sat 28 pt left
    /// of WeasyPrint's.
    @Test func aLandscapeNamedPageOnALeftHandPageTakesTheLeftMargins() throws {
        let html = Self.document(
            "@page :left { margin-left: 22mm; margin-right: 12mm } @page :right { margin-left: 12mm; margin-right: 22mm }"
                + #" @page wide { size: A5 landscape; @top-center { content: "Wide " counter(page) } }"#,
            "<p>One</p><div class=wide><p>Landscape</p><p>section</p></div><p class=b>Three</p>")
        let (ours, theirs) = try PagedMediaTests.bothEngines(html)
        try Self.expectSamePages(ours, theirs, pages: 3)
        let words = try PDF.words(ours, page: 2)
        let box = try #require(words.first { $0.word == "Wide" }), body = try #require(words.first { $0.word == "Landscape" })
        // Centred between the left-hand page's margins (22 mm and 12 mm) on A5 landscape.
        let centre = (22 + (210 - 12)) / 2 * 72 / 25.4
        let boxWidth = try #require(words.first { $0.word == "2" && $0.yMin < 40 }).xMax - box.xMin
        #expect(abs(box.xMin + boxWidth / 2 - centre) < 1, "the box is centred at \(box.xMin + boxWidth / 2), not \(centre)")
        #expect(abs(body.xMin - 22 * 72 / 25.4) < 0.5, "the text starts at \(body.xMin)")
    }

    /// The same number of pages as WeasyPrint's, each of the same size, with the same words at
    /// the same places (to within a point and a half).
    static func expectSamePages(_ ours: String, _ theirs: String, pages: Int) throws {
        let sizes = try PDF.pageSizes(ours).map { "\(Int($0.width.rounded()))x\(Int($0.height.rounded()))" }
        let theirSizes = try PDF.pageSizes(theirs).map { "\(Int($0.width.rounded()))x\(Int($0.height.rounded()))" }
        #expect(sizes.count == pages && sizes == theirSizes, "\(sizes), WeasyPrint's \(theirSizes)")
        for page in 1...min(sizes.count, theirSizes.count) {
            let mine = try PDF.words(ours, page: page), reference = try PDF.words(theirs, page: page)
            #expect(PagedMediaTests.marginText(mine) == PagedMediaTests.marginText(reference), "page \(page)'s words")
            PagedMediaTests.expectSamePlaces(mine, reference, page: page)
        }
    }
}
