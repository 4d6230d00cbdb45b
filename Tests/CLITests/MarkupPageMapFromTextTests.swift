import Foundation
import TestSupport
import Testing

/// The page map read from the job's own print (issue 40): the document's text found in the
/// print's, in drawing order, so that outline and links cost no second, marked print; the
/// marked print only where the two do not agree.
@Suite(.serialized) struct MarkupPageMapFromTextTests {
    static let fromText = "from the print's own text"
    static let fellBack = "a marked print"

    /// Paragraphs enough to fill most of a page.
    static let filler = (0..<12).map {
        "<p>Paragraph \($0) of the page, with enough words in it to wrap once or twice across the width of the page, and a little more.</p>"
    }.joined()

    /// How many prints WebKit made for the job (each logs "WebKit print").
    static func prints(_ log: String) -> Int { log.components(separatedBy: "WebKit print: done").count - 1 }

    /// Headings and links over several pages: one print, the map from its text, every heading
    /// in the outline and every link over its own words.
    @Test func headingsAndLinksNeedNoSecondPrint() throws {
        var html = "<html><body><h1>Manual</h1><p>Go to <a href=\"#s4\">section four</a> or <a href=\"https://example.com/x\">the site</a>.</p>"
        for n in 0..<6 { html += "<h2 id=s\(n)>Section \(n)</h2>\(Self.filler)<p>Back to <a href=\"#s0\">the start</a>.</p>" }
        html += "</body></html>"
        let (r, pdf) = try PagedMediaBehaviourTests.convert(html, as: "sections.html", ["--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(Self.fromText) && Self.prints(r.stderr) == 1, "\(r.stderr)")
        let (titles, count) = try MarkupPageMapTests.outlineAndLinks(pdf)
        #expect(titles == ["Manual"] + (0..<6).map { "Section \($0)" }, "\(titles)")
        #expect(count == 8)
        try Self.expectLinksOverWords(pdf, startingWith: ["section", "the"] + Array(repeating: "the", count: 6))
    }

    /// Floats are painted before the text around them (CUPS's API pages float "DEPRECATED"
    /// beside each heading): their text is found where the print draws it.
    @Test func floatsAreFoundWhereThePrintDrawsThem() throws {
        var html = "<html><body><h1>API</h1><p>See <a href=\"#f3\">function three</a>.</p>"
        for n in 0..<6 { html += "<h2 id=f\(n)><span style=\"float: right\">DEPRECATED</span>Function \(n)</h2>\(Self.filler)" }
        html += "</body></html>"
        let (r, pdf) = try PagedMediaBehaviourTests.convert(html, as: "floats.html", ["--verbose"])
        #expect(r.status == 0 && r.stderr.contains(Self.fromText) && Self.prints(r.stderr) == 1, "\(r.stderr)")
        let (titles, _) = try MarkupPageMapTests.outlineAndLinks(pdf)
        #expect(titles == ["API"] + (0..<6).map { "DEPRECATED Function \($0)" } || titles == ["API"] + (0..<6).map { "DEPRECATEDFunction \($0)" },
                "\(titles)")
        // The link goes to the page "Function 3" is on.
        let links = try PDF.links(pdf)
        let page = try (1...PDF.pageCount(pdf)).first { try PDF.text(pdf, first: $0, last: $0).contains("Function 3") }
        #expect(links.count == 1 && links[0].page.map { $0 + 1 } == page, "\(links) \(String(describing: page))")
    }

    /// A print that does not hold the document's text in its order (here a paragraph the print
    /// style hides) gets the marked print, and the same outline and links.
    @Test func aPrintThatDiffersFromTheDocumentGetsTheMarkedPrint() throws {
        var html = "<html><head><style>@media print { .screen { display: none } }</style></head><body><h1>Manual</h1>"
            + "<p class=screen>Only on screen.</p><p>See <a href=\"#s3\">section three</a>.</p>"
        for n in 0..<5 { html += "<h2 id=s\(n)>Section \(n)</h2>\(Self.filler)" }
        html += "</body></html>"
        let (r, pdf) = try PagedMediaBehaviourTests.convert(html, as: "print-only.html", ["--verbose"])
        #expect(r.status == 0 && r.stderr.contains(Self.fellBack) && Self.prints(r.stderr) == 2, "\(r.stderr)")
        #expect(!r.stderr.contains(MarkupPageMapTests.mapWarning))
        let (titles, count) = try MarkupPageMapTests.outlineAndLinks(pdf)
        #expect(titles == ["Manual"] + (0..<5).map { "Section \($0)" } && count == 1, "\(titles)")
        try Self.expectLinksOverWords(pdf, startingWith: ["section"])
    }

    /// A link whose line is the first of a page: the marks put its start on the page before
    /// (WebKit placed the out-of-flow mark before moving the line over), so the link lay over
    /// the last line of the earlier page, or began at its line's start. Git's user manual has
    /// one at the top of its page 29: "See the section called “Using interactive rebases”".
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/doc/git-doc/user-manual.html"), "needs git-doc"))
    func aLinkStartingAPageIsOnThatPage() throws {
        let pdf = try temporaryDirectory() + "/user-manual.pdf"
        let r = try swiftprint(["convert", "--verbose", "/usr/share/doc/git-doc/user-manual.html", "-o", pdf])
        #expect(r.status == 0 && r.stderr.contains(Self.fromText) && Self.prints(r.stderr) == 1, "\(r.stderr)")
        let byPage = try PDF.linkBoxesByPage(pdf)
        let pages = try PDF.pageCount(pdf)
        let page = try (1...pages).first { try PDF.words(pdf, page: $0).prefix(5).map(\.word) == ["See", "the", "section", "called", "“Using"] }
        let words = try PDF.words(pdf, page: try #require(page))
        let height = try PDF.pageSizes(pdf)[page! - 1].height
        let the = words[1]
        #expect((byPage[page! - 1] ?? []).contains { abs($0[0] - the.xMin) < 1.5 && abs(height - $0[3] - the.yMin) < 3 }, "\(byPage[page! - 1] ?? [])")
        // No link lies over nothing: each box holds some word of its page.
        for (page, boxes) in byPage {
            let height = try PDF.pageSizes(pdf)[page].height
            let words = try PDF.words(pdf, page: page + 1)
            for box in boxes {
                #expect(words.contains { $0.xMax > box[0] && $0.xMin < box[2] && height - $0.yMax < box[3] && height - $0.yMin > box[1] },
                        "page \(page + 1): \(box)")
            }
        }
    }

    /// Each link annotation lies over a word starting with the given prefixes, in turn.
    static func expectLinksOverWords(_ pdf: String, startingWith prefixes: [String]) throws {
        let byPage = try PDF.linkBoxesByPage(pdf)
        var found: [String] = []
        for page in byPage.keys.sorted() {
            let height = try PDF.pageSizes(pdf)[page].height
            let words = try PDF.words(pdf, page: page + 1)
            for box in byPage[page]!.sorted(by: { $0[3] > $1[3] }) {
                let first = words.filter { $0.xMin >= box[0] - 1 && $0.xMax <= box[2] + 1 && abs(height - box[3] - $0.yMin) < 3 }
                    .min { $0.xMin < $1.xMin }
                found.append(first?.word.lowercased() ?? "(nothing)")
            }
        }
        #expect(found.count == prefixes.count && zip(found, prefixes).allSatisfy { $0.hasPrefix($1) }, "\(found)")
    }
}
