import Foundation
import MapEngine
import SwiftPrint
import TestSupport
import Testing

/// A page renderer with a header on every page, as apps write them with UIKit.
final class HeaderRenderer: PrintPageRenderer {
    override func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect, context: GraphicsContext) {
        context.draw("HEADER \(pageIndex + 1)", at: headerRect.origin, font: .sans)
    }
}

/// `MarkupTextPrintFormatter` inside a page renderer, with the real WebKit: UIKit's inset rules
/// hold for HTML as for text.
@Suite struct MarkupFormatterTests {
    @Test func markupSitsInTheContentRectUnderTheHeaderWithTheFirstPageInset() throws {
        let html = """
            <html><body style="margin:0"><p style="margin:0">alpha</p>
            <p style="margin:0; page-break-before: always">bravo</p>
            <p style="margin:0; page-break-before: always">charlie</p></body></html>
            """
        let formatter = MarkupTextPrintFormatter(markupText: html)
        formatter.contentInsets = EdgeInsets(top: 100, left: 50, bottom: 0, right: 0)
        formatter.perPageContentInsets = EdgeInsets(all: 10)
        let renderer = HeaderRenderer()
        renderer.headerHeight = 40
        renderer.addPrintFormatter(formatter, startingAtPageAt: 0)

        let out = try temporaryDirectory() + "/recipe.pdf"
        let paper = PrintPaper(media: .a4, margins: EdgeInsets(all: 36))
        try PrintJob(renderer: renderer, info: PrintInfo(), paper: paper).writePDF(to: .file(out))

        #expect(try PDF.pageCount(out) == 3)
        for (index, word) in ["alpha", "bravo", "charlie"].enumerated() {
            let words = try PDF.words(out, page: index + 1)
            #expect(words.contains { $0.word == "HEADER" }, "no header on page \(index + 1)")
            guard let w = words.first(where: { $0.word == word }) else {
                Issue.record("\(word) is not on page \(index + 1): \(words.map(\.word))"); continue
            }
            // Printable rect 36 pt in, header 40, per-page inset 10, and on page 1 the top inset 100.
            let top = 36 + 40 + 10 + (index == 0 ? 100.0 : 0)
            #expect(w.yMin >= top - 1 && w.yMin < top + 16, "\(word) starts at y \(w.yMin), expected just below \(top)")
            #expect(abs(w.xMin - (36 + 10 + 50)) < 2, "\(word) starts at x \(w.xMin)")
        }
    }
}

/// `MapPrintFormatter` in an app's own page renderer, as UIKit apps print a map view: the
/// renderer's header on the page, the map under it with its attribution.
@Suite struct MapFormatterInRendererTests {
    @Test func aMapFormatterPrintsUnderTheRenderersHeader() throws {
        let basemap = try #require(MapEngine.basemapPath, "the offline basemap is missing")
        let formatter = MapPrintFormatter(source: try MBTilesSource(path: basemap), sourcePath: basemap,
                                          framing: .fit(GeoBox(west: 5.9, south: 45.8, east: 10.5, north: 47.8)))
        formatter.title = "Switzerland"
        formatter.showGrid()
        let renderer = HeaderRenderer()
        renderer.headerHeight = 40
        renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
        let out = FileManager.default.temporaryDirectory.path + "/map-renderer-\(getpid()).pdf"
        try PrintJob(renderer: renderer, info: PrintInfo(), paper: PrintPaper(media: .a4, margins: EdgeInsets(all: 36))).writePDF(to: .file(out))
        #expect(try PDF.pageCount(out) == 1)
        let words = try PDF.words(out, page: 1)
        let header = try #require(words.first { $0.word == "HEADER" })
        let title = try #require(words.first { $0.word == "Switzerland" })
        #expect(header.yMin < title.yMin && title.yMin >= 36 + 40 - 1, "the map's title sits below the header")
        #expect(try PDF.text(out).contains("Natural Earth"))
    }
}

/// A page renderer that bookmarks its pages: the PDF's outline holds them, nested by level,
/// whether the job streams cairo's PDF (drawing only) or assembles objects.
final class BookmarkingRenderer: PrintPageRenderer {
    override var numberOfPages: Int { 3 }
    override func drawContentForPage(at pageIndex: Int, in contentRect: CGRect, context: GraphicsContext) {
        context.draw("page \(pageIndex + 1)", at: contentRect.origin, font: .sans)
        context.addOutlineEntry(pageIndex == 0 ? "Part" : "Chapter \(pageIndex)", level: pageIndex == 0 ? 1 : 2, at: contentRect.minY)
        if pageIndex == 0 {
            context.addLink(to: .uri("https://example.org/"), over: CGRect(x: contentRect.minX, y: contentRect.minY, width: 100, height: 12))
            context.addLink(to: .destination("end"), over: CGRect(x: contentRect.minX, y: contentRect.minY + 20, width: 100, height: 12))
        }
        if pageIndex == 2 { context.addDestination("end", at: contentRect.minY) }
    }
}

@Suite struct OutlineTests {
    @Test func aRenderersBookmarksBecomeTheOutline() throws {
        let out = try temporaryDirectory() + "/b.pdf"
        try PrintJob(renderer: BookmarkingRenderer(), info: PrintInfo(), paper: PrintPaper(media: .a4, margins: EdgeInsets(all: 36)))
            .writePDF(to: .file(out))
        let json = try Tool.run("qpdf", ["--json", "--json-key=outlines", out]).stdout
        let root = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let top = try #require(root["outlines"] as? [[String: Any]])
        #expect(top.count == 1 && top[0]["title"] as? String == "Part" && top[0]["destpageposfrom1"] as? Int == 1, "\(top)")
        let kids = top[0]["kids"] as? [[String: Any]] ?? []
        #expect(kids.map { $0["title"] as? String ?? "" } == ["Chapter 1", "Chapter 2"])
        #expect(kids.map { $0["destpageposfrom1"] as? Int ?? 0 } == [2, 3])
        // Its links too: a URI and a named place on the third page.
        let objects = try Tool.run("qpdf", ["--qdf", "--object-streams=disable", out, "-"]).text
        #expect(objects.contains("/URI (https://example.org/)") && objects.components(separatedBy: "/Subtype /Link").count == 3, "\(objects.count)")
    }
}
