import Foundation
import TestSupport
import Testing

/// The page map on HTML as people write it (issue 39, item 3): each way the marked print used
/// to differ from the plain one, so that the job printed without its outline and links.
/// `scripts/page-map-rate` measures the same over several hundred real pages.
@Suite(.serialized) struct MarkupPageMapTests {
    static let mapWarning = "no exact page map"

    /// The outline's titles and the number of link annotations of a PDF.
    static func outlineAndLinks(_ pdf: String) throws -> (titles: [String], links: Int) {
        let json = try Tool.run("qpdf", ["--json", "--json-key=outlines", pdf]).stdout
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        var titles: [String] = []
        func walk(_ items: [[String: Any]]) {
            for item in items {
                titles.append(item["title"] as? String ?? "?")
                walk(item["kids"] as? [[String: Any]] ?? [])
            }
        }
        walk(root["outlines"] as? [[String: Any]] ?? [])
        return (titles, try PDF.links(pdf).count)
    }

    /// Short links side by side on one line (a man page's "See Also"): each link's end mark
    /// lay across the next one's start mark, which poppler read as one jumble of letters.
    @Test func linksSideBySideOnALineKeepTheMap() throws {
        let filler = (0..<8).map { "<p>Paragraph \($0) of the page, with enough words in it to wrap once or twice across the width of the page.</p>" }
            .joined()
        let html = "<html><body><h1>Manual</h1>\(filler)<h2>See Also</h2>"
            + (0..<8).map { "<a href=\"#t\($0)\"><b>tool\($0)</b>(1),</a>" }.joined(separator: "\n")
            + (0..<8).map { "<h3 id=t\($0)>Tool \($0)</h3><p>About tool \($0).</p>" }.joined() + "</body></html>"
        let (r, pdf) = try PagedMediaBehaviourTests.convert(html, as: "see-also.html")
        #expect(r.status == 0 && !r.stderr.contains(Self.mapWarning), "\(r.stderr)")
        let (titles, _) = try Self.outlineAndLinks(pdf)
        #expect(titles == ["Manual", "See Also"] + (0..<8).map { "Tool \($0)" }, "\(titles)")
        // Each link goes to its tool's heading, and lies over its own text.
        let links = try PDF.links(pdf)
        #expect(links.count == 8 && links.allSatisfy { $0.page != nil }, "\(links)")
        let height = try PDF.pageSizes(pdf)[0].height
        let words = try (1...PDF.pageCount(pdf)).flatMap { try PDF.words(pdf, page: $0) }.filter { $0.word.hasPrefix("tool") && $0.word.hasSuffix("(1),") }
        #expect(words.count == 8, "\(words)")
        for word in words {
            let over = links.filter { $0.box[0] <= word.xMin + 1 && $0.box[2] >= word.xMax - 1 && abs(height - $0.box[3] - word.yMin) < 3 }
            #expect(over.count == 1, "\(word.word): \(links.map(\.box))")
        }
    }

    /// A link to an anchor named the old way (`<a name>`, as CUPS's pages and DocBook's HTML
    /// name theirs) goes to it, as one to an id does.
    @Test func aLinkToANamedAnchorGoesToIt() throws {
        let filler = (0..<40).map { "<p>Filler paragraph \($0).</p>" }.joined()
        let html = """
            <html><body><h1>Title</h1><p>See <a href="#sec">the section</a> and <a href="#other">the other</a>.</p>\(filler)
            <h2><a name="sec">Section</a></h2><p id=other>Other.</p></body></html>
            """
        let (r, pdf) = try PagedMediaBehaviourTests.convert(html, as: "named.html")
        #expect(r.status == 0 && !r.stderr.contains(Self.mapWarning), "\(r.stderr)")
        let links = try PDF.links(pdf)
        let last = try PDF.pageCount(pdf) - 1
        #expect(last > 0 && links.count == 2 && links.allSatisfy { $0.page == last }, "\(links)")
    }

    /// Helvetica and Arial, on a machine with Ghostscript's URW fonts (the test packages install
    /// them), are Nimbus Sans, which cairo writes as Type 3 fonts: poppler's boxes for their
    /// characters are as tall as the glyphs, and a link's mark lay above its line's glyphs,
    /// so that every link was lost (libxslt's and valgrind's manuals: 47 of the corpus's pages).
    @Test(arguments: ["Helvetica", "Arial"])
    func linksInURWFontsKeepTheirBoxes(_ family: String) throws {
        let html = "<html><head><style>body { font-family: \(family) }</style></head><body><h1>Manual</h1>"
            + "<p>See <a href=\"http://example.com/a\">example a</a> here.</p><ul><li><a href=\"http://example.com/b\">Tutorial</a></li></ul></body></html>"
        let (r, pdf) = try PagedMediaBehaviourTests.convert(html, as: "urw.html")
        #expect(r.status == 0 && !r.stderr.contains(Self.mapWarning), "\(r.stderr)")
        let fonts = try Tool.run("pdffonts", [pdf]).text
        try #require(fonts.contains("Type 3"), "the case needs URW's Nimbus Sans (fonts-urw-base35): \(fonts)")
        let links = try PDF.links(pdf).sorted { ($0.uri ?? "") < ($1.uri ?? "") }
        #expect(links.map(\.uri) == ["http://example.com/a", "http://example.com/b"], "\(links)")
        // Each over its own text.
        let height = try PDF.pageSizes(pdf)[0].height
        let words = try PDF.words(pdf, page: 1)
        for (link, word) in zip(links, ["example", "Tutorial"]) {
            let w = try #require(words.first { $0.word == word })
            #expect(link.box[0] <= w.xMin + 1 && link.box[2] >= w.xMax - 1 && abs(height - link.box[3] - w.yMin) < 3, "\(word): \(link.box)")
        }
    }

    /// A manual written as XHTML (git's: an XML declaration first) prints as HTML, with its
    /// outline; it printed as its source. (Its links are to other files, which a PDF cannot hold.)
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/doc/git-doc/git-mv.html"), "needs git-doc"))
    func anXHTMLManualGetsItsOutline() throws {
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", "/usr/share/doc/git-doc/git-mv.html", "-o", dir + "/git-mv.pdf"])
        #expect(r.status == 0 && !r.stderr.contains(Self.mapWarning), "\(r.stderr)")
        let (titles, _) = try Self.outlineAndLinks(dir + "/git-mv.pdf")
        #expect(titles.contains("SYNOPSIS") && titles.contains("DESCRIPTION"), "\(titles)")
        #expect(!(try PDF.text(dir + "/git-mv.pdf")).contains("<?xml"), "not its source")
    }

    /// Pages of the corpus where poppler read a mark in pieces among a line's words ("rgb" as
    /// "rgbDWC5"; spec-ipp, ref-ppdcfile, libxslt's), and one whose plain and marked prints put
    /// a character 0.0001 pt apart across a hundredth's rounding boundary (diffutils' index):
    /// each printed without its outline and links.
    @Test(arguments: ["/usr/share/cups/doc-root/help/spec-ipp.html", "/usr/share/cups/doc-root/help/ref-ppdcfile.html",
                      "/usr/share/doc/libxslt1-dev/html/tutorial/libxslttutorial.html", "/usr/share/doc/libxslt1-dev/html/APIchunk6.html",
                      "/usr/share/doc/diffutils/Index.html"])
    func corpusPagesKeepTheirMap(_ path: String) throws {
        // The corpus's packages are test packages (scripts/apt-packages.txt): missing, the run fails.
        try #require(FileManager.default.fileExists(atPath: path), "\(path): install the corpus's packages")
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", path, "-o", dir + "/out.pdf"])
        #expect(r.status == 0 && !r.stderr.contains(Self.mapWarning), "\(r.stderr)")
        let (titles, _) = try Self.outlineAndLinks(dir + "/out.pdf")
        #expect(!titles.isEmpty)
    }

    /// CUPS's own help pages, each of a way the map failed: links side by side (man-lp), a
    /// first line whose glyphs rise a hair above the page, which poppler's reading from the
    /// page's corner left out (man-lpoptions), marks that changed the order poppler reads a
    /// page's columns in where nothing moved (api-ppd), and a long table WebKit prints
    /// otherwise the second time, marks or none (policies).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/cups/doc-root/help/man-lp.html"), "needs CUPS's help pages"),
          arguments: ["man-lp", "man-lpoptions", "api-ppd", "policies"])
    func cupsHelpPagesGetTheirOutline(_ name: String) throws {
        let dir = try temporaryDirectory()
        let pdf = dir + "/\(name).pdf"
        let r = try swiftprint(["convert", "/usr/share/cups/doc-root/help/\(name).html", "-o", pdf])
        #expect(r.status == 0 && !r.stderr.contains(Self.mapWarning), "\(r.stderr)")
        let (titles, links) = try Self.outlineAndLinks(pdf)
        #expect(!titles.isEmpty && links > 0, "\(titles.count) bookmarks, \(links) links")
    }
}
