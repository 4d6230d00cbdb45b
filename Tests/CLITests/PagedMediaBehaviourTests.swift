import Foundation
import TestSupport
import Testing

/// What swiftprint does with paged media that needs no reference engine: text stays text,
/// the header rule, named-page breaks, page numbers set by elements, what cannot be applied.
@Suite(.serialized) struct PagedMediaBehaviourTests {
    /// Converts `html`, written as `name` in a folder of its own, with `options`; the run and
    /// the PDF it wrote.
    static func convert(_ html: String, as name: String, _ options: [String] = []) throws -> (result: Tool.Result, pdf: String) {
        let dir = try temporaryDirectory()
        try html.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8)
        let pdf = dir + "/" + (name as NSString).deletingPathExtension + ".pdf"
        return (try swiftprint(["convert", dir + "/" + name, "-o", pdf] + options), pdf)
    }

    /// What flows from the document into a box is text: markup in an attribute or a heading is
    /// printed as its characters, never read as Pango's markup.
    @Test func stringsFromTheDocumentStayText() throws {
        let (r, out) = try Self.convert("""
            <html><head><style>@page { margin: 20mm; @top-center { content: string(t, last); font: 9pt "DejaVu Sans" } }
            h1 { string-set: t attr(data-t) " " content() }</style></head>
            <body><h1 data-t="<b>bold</b> &amp; &lt;span foreground='red'&gt;">x &lt;i&gt;y&lt;/i&gt;</h1></body></html>
            """, as: "s.html")
        #expect(r.status == 0, "\(r.stderr)")
        // (pdftotext's -bbox output escapes XML's five characters.)
        let header = try PagedMediaTests.marginWords(out, page: 1).map(\.word).joined(separator: " ")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
        #expect(header == "<b>bold</b> & <span foreground='red'> x <i>y</i>", "\(header)")
    }

    /// The job's own header replaces the document's top boxes (the footer boxes stay); its own
    /// footer replaces the bottom ones.
    @Test func anExplicitHeaderReplacesTheDocumentsTopBoxes() throws {
        let (r, out) = try Self.convert(PagedMediaTests.book, as: "book.html", ["--header", "JOBHEADER"])
        #expect(r.status == 0, "\(r.stderr)")
        let page2 = try PDF.words(out, page: 2).map(\.word)
        #expect(page2.contains("JOBHEADER") && !page2.contains("TLC") && !page2.contains("TRC") && !page2.contains("Handbook"), "\(page2)")
        #expect(page2.contains("BRC") && page2.contains("Page") && page2.contains("LT"), "the other edges keep their boxes: \(page2)")
        let (footer, footed) = try Self.convert(PagedMediaTests.book, as: "book.html", ["--footer", "JOBFOOTER"])
        #expect(footer.status == 0)
        let words = try PDF.words(footed, page: 2).map(\.word)
        #expect(words.contains("JOBFOOTER") && !words.contains("BRC") && !words.contains("Page") && words.contains("TLC"), "\(words)")
    }

    /// Leaving a named page breaks the page too (css-page-3: the `page` values of the two
    /// siblings differ), with no `break-before` of its own. WeasyPrint 57 keeps the next
    /// element on the named page's last page: here swiftprint follows the specification.
    @Test func leavingANamedPageStartsANewPage() throws {
        let (r, out) = try Self.convert(
            PagedMediaTests.namedPages.replacingOccurrences(of: "<p class=back style=\"break-before: page\">", with: "<p class=back>"), as: "n.html")
        #expect(r.status == 0)
        #expect(try PDF.pageCount(out) == 6)
        let last = try PDF.text(out, first: 6, last: 6)
        #expect(last.contains("Back matter.") && last.contains("front vi") && !last.contains("MAIN"), "\(last)")
    }

    /// `counter-reset: page N` on an element numbers the page it starts on N, the next ones
    /// on from there: front matter in roman numerals, the body from 1. (WeasyPrint 57 resets
    /// the page counter only in `@page` rules, so this is checked against the numbers
    /// themselves; Prince numbers pages the same way.)
    @Test func anElementResetsThePageNumber() throws {
        let (r, out) = try Self.convert(
            PagedMediaTests.namedPages.replacingOccurrences(of: ".main { page: main }", with: ".main { page: main; counter-reset: page 1 }"), as: "r.html")
        #expect(r.status == 0)
        let footers = try (1...6).map { page in
            try PDF.text(out, first: page, last: page).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { $0.hasPrefix("front ") || $0.hasPrefix("main ") } ?? ""
        }
        #expect(footers == ["front i", "front ii", "main 1", "main 2", "main 3", "front iv"], "\(footers)")
    }

    /// A named page's own size is the document's, and the job's own paper wins over the
    /// document's (swiftprint(1): the one precedence rule): with `--media`, its pages keep the job's
    /// paper, and the job says so. Without it, they are turned (PagedMediaTests compares them
    /// with WeasyPrint's).
    @Test func theJobsPaperWinsOverANamedPagesOwnSize() throws {
        let html = PagedMediaTests.namedPages.replacingOccurrences(of: "@page main {", with: "@page main { size: A5 landscape;")
        let (own, ownPDF) = try Self.convert(html, as: "own.html")
        #expect(own.status == 0 && !own.stderr.contains("warning"), "\(own.stderr)")
        #expect(try PDF.pageSizes(ownPDF).map { $0.width > $0.height } == [false, false, true, true, true, false])
        let (r, out) = try Self.convert(html, as: "w.html", ["--media", "A5"])
        #expect(r.status == 0 && r.stderr.contains("w.html: @page main sets its own size or margins, which the job's own paper, orientation or margins replace"),
                "\(r.stderr)")
        #expect(try PDF.pageSizes(out).allSatisfy { $0.width < $0.height })
    }

    /// A job's header on a named page of its own size and margins sits within that page's
    /// margins, and the page's content below it.
    @Test func aJobsHeaderOnANamedPageSitsWithinItsMargins() throws {
        let (r, out) = try Self.convert("""
            <html><head><style>
            @page { size: A4; margin: 20mm } @page wide { size: A4 landscape; margin: 15mm }
            body { font: 11pt "DejaVu Serif"; margin: 0 } h2 { margin: 0 } .wide { page: wide }
            </style></head><body><p>Portrait.</p><section class=wide><h2>Landscape heading</h2><p>Wide text.</p></section></body></html>
            """, as: "hw.html", ["--header", "Job header||{page}"])
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        #expect(try PDF.pageSizes(out).map { $0.width > $0.height } == [false, true])
        let words = try PDF.words(out, page: 2)
        let job = try #require(words.first { $0.word == "Job" }), heading = try #require(words.first { $0.word == "Landscape" })
        let margin = 15 * 72 / 25.4
        #expect(abs(job.xMin - margin) < 1 && job.yMin >= margin - 1, "\(job)")
        #expect(heading.yMin > job.yMax && abs(heading.xMin - margin) < 1, "\(heading) below \(job)")
    }

    /// When marking a document's elements would change what it prints (here a `::before` in
    /// use makes the mark an element, and `:first-child` then picks another), and its print
    /// does not hold its text either (a paragraph the print style hides), there is no exact
    /// page map: the job prints WebKit's pages as they are, says what it left out, and does
    /// not fail.
    @Test func withoutAnExactPageMapTheDocumentStillPrints() throws {
        let sections = (1...3).map { "<h2 style='break-before: \($0 == 1 ? "auto" : "page")'><a>#</a>Section \($0)</h2><p>text</p>" }.joined()
        let (r, out) = try Self.convert("""
            <html><head><style>h2::before { content: ""; display: block } h2 > a:first-child { display: none }
            @media print { .screen { display: none } }</style></head>
            <body><p class=screen>On screen only.</p>\(sections)</body></html>
            """, as: "m.html")
        #expect(r.status == 0 && r.stderr.contains("printed without running strings, recto/verso pages or bookmarks"), "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 3)
        #expect(try !PDF.text(out).contains("#"), "the document prints as it is")
    }

    /// A leader row keeps its entry's words apart and its link: an entry of text alone is
    /// drawn with its leader, one with child elements (a number in a span) keeps its spaces and
    /// shows a space for its leader, and a padded entry's link still covers its line.
    @Test func leaderEntriesKeepTheirWordsAndTheirLinks() throws {
        let (r, out) = try Self.convert("""
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm } body { font: 11pt "DejaVu Serif"; margin: 0 } h1 { break-before: page }
            .toc a { display: block; padding: 0.5em 0; color: black; text-decoration: none }
            .toc a::after { content: leader('.') target-counter(attr(href), page) }
            </style></head><body>
            <div class=toc><a href="#one">Plain entry</a><a href="#two"><span>2.</span> Numbered entry</a></div>
            <h1 id=one>One</h1><h1 id=two>Two</h1>
            </body></html>
            """, as: "toc.html")
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
        let lines = try PDF.text(out, first: 1, last: 1).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{0C}"))) }.filter { !$0.isEmpty }
        #expect(lines.count == 2 && lines[0].hasPrefix("Plain entry.....") && lines[0].hasSuffix("2"), "\(lines)")
        #expect(lines.count == 2 && lines[1] == "2. Numbered entry 3", "\(lines)")
        // Both entries are links to their chapters' pages, the drawn one over its whole line.
        let links = try PDF.links(out)
        #expect(links.compactMap(\.page).sorted() == [1, 2], "\(links)")
        let plain = try #require(try PDF.words(out, page: 1).first { $0.word.hasPrefix("Plain") })
        let row = try #require(links.first { $0.page == 1 })
        #expect(abs(row.box[0] - plain.xMin) < 1 && row.box[2] > 419.53 - 20 * 72 / 25.4 - 2, "\(row.box) from \(plain.xMin)")
    }

    /// Links are kept (WebKitGTK's print output has none): each `a[href]` to a web or mail
    /// address or to a place in the document becomes a link over its text, a box a line, and
    /// links to scripts or to files beside the document do not.
    @Test func linksAreKept() throws {
        let (r, out) = try Self.convert("""
            <html><head><meta charset="utf-8"><style>
            @page { size: A5; margin: 20mm } body { font: 11pt "DejaVu Serif"; margin: 0 } h1 { break-before: page }
            </style></head><body>
            <p>See <a href="https://example.com/page">the example site</a> and <a href="#three">chapter three</a>, or
            <a href="mailto:someone@example.com">write to someone at example dot com with a long link text that wraps onto the next line for sure</a>.</p>
            <p><a href="javascript:alert(1)">no script link</a> and <a href="other.html">a relative file</a>.</p>
            <h1>Two</h1><p>x</p><h1 id="three">Three</h1><p>y</p>
            </body></html>
            """, as: "l.html")
        #expect(r.status == 0, "\(r.stderr)")
        let links = try PDF.links(out)
        #expect(links.filter { $0.uri == "https://example.com/page" }.count == 1)
        #expect(links.filter { $0.uri == "mailto:someone@example.com" }.count == 3, "three lines: \(links)")
        #expect(links.contains { $0.page == 2 }, "the link to #three goes to the third page: \(links)")
        #expect(links.count == 5, "no link for javascript: or a relative file: \(links)")
        // The web link lies over "the example site" and no further.
        let words = try PDF.words(out, page: 1)
        let the = try #require(words.first { $0.word == "the" }), site = try #require(words.first { $0.word == "site" })
        let web = try #require(links.first { $0.uri == "https://example.com/page" }?.box)
        #expect(abs(web[0] - the.xMin) < 1 && abs(web[2] - site.xMax) < 1, "\(web) over \(the.xMin)…\(site.xMax)")
        #expect(abs((595.28 - web[3]) - the.yMin) < 1, "\(web)")
        // Links are no headings: the outline holds the two chapters only.
        let outline = try Tool.run("qpdf", ["--json", "--json-key=outlines", out]).stdout
        let entries = try #require((try JSONSerialization.jsonObject(with: outline) as? [String: Any])?["outlines"] as? [[String: Any]])
        #expect(entries.map { $0["title"] as? String ?? "" } == ["Two", "Three"], "\(entries)")
    }
}
