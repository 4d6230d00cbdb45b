import Foundation
import SwiftPrint
import TestSupport
import Testing

/// Where elements land among WebKit's pages (the page map that running headers, page counters
/// and recto/verso breaks stand on), checked against where their text is in the printed job.
@Suite struct ElementPageMapTests {
    /// A long document of the things that move elements between pages: forced breaks, headings
    /// kept with what follows, tables, lists, floats, columns, an inline span mid-paragraph,
    /// an element whose own ::before is in use, styles that count children (`:first-child`,
    /// `* + *`, which a mark inserted into the DOM would upset), and one element not shown.
    /// Each marked element (class `a`) starts with the word `Anchor<n>X`.
    static func document() -> (html: String, anchors: Int) {
        var seed: UInt64 = 12_345
        func next(_ n: Int) -> Int { seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return Int((seed >> 33) % UInt64(n)) }
        let vocabulary = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore".split(separator: " ")
        func words(_ low: Int, _ high: Int) -> String { (0..<(low + next(high - low))).map { _ in String(vocabulary[next(vocabulary.count)]) }.joined(separator: " ") }
        var n = 0
        func anchor() -> String { defer { n += 1 }; return "Anchor\(n)X" }
        var body = ""
        for section in 0..<36 {
            switch section % 7 {
            case 0: body += "<h2 class=a>\(anchor()) heading</h2><p>\(words(40, 260))</p>"
            case 1: body += "<p>\(words(30, 200)) <span class=a>\(anchor()) \(words(3, 6))</span> \(words(30, 300))</p>"
            case 2: body += "<table>" + (0..<(3 + next(14))).map { r in "<tr><td\(r % 3 == 0 ? " class=a" : "")>\(r % 3 == 0 ? anchor() : words(2, 3))</td><td>\(words(3, 40))</td></tr>" }.joined() + "</table>"
            case 3: body += "<ol>" + (0..<(2 + next(8))).map { _ in "<li class=a>\(anchor()) \(words(5, 60))</li>" }.joined() + "</ol>"
            case 4: body += "<div class='fl a'>\(anchor()) \(words(20, 80))</div><p>\(words(50, 250))</p>"
            case 5: body += "<div class=cols>" + (0..<4).map { _ in "<p class=a>\(anchor()) \(words(20, 90))</p>" }.joined() + "</div>"
            default: body += "<h3 class=a>\(anchor()) section</h3><div class=flow><p>\(words(20, 200))</p><p class=a>\(anchor()) \(words(20, 120))</p></div>"
            }
        }
        let hidden = "<p class=a style='display:none'>\(anchor()) hidden</p>"
        let style = """
            body { font: 10pt 'DejaVu Sans' } h2 { break-after: avoid } h3 { break-before: page }
            h3::before { content: "§ " } .fl { float: right; width: 40%; border: 1px solid } .cols { columns: 2 }
            .flow > * + * { margin-top: 2em } .flow > :first-child { margin-top: 0; font-size: 12pt }
            """
        return ("<html><head><style>\(style)</style></head><body>\(body)\(hidden)</body></html>", n)
    }

    @Test func eachElementIsMappedToThePageItPrintsOn() throws {
        let (html, count) = Self.document()
        let formatter = MarkupTextPrintFormatter(markupText: html)
        let renderer = PrintPageRenderer()
        renderer.addPrintFormatter(formatter, startingAtPageAt: 0)
        let out = try temporaryDirectory() + "/book.pdf"
        let paper = PrintPaper(media: .a4, margins: EdgeInsets(all: 72))
        try PrintJob(renderer: renderer, info: PrintInfo(), paper: paper).writePDF(to: .file(out))

        // WebKit's pages are the content rect's size; each is one page of the job.
        let map = try formatter.elementPages(matching: ".a", pageSize: paper.printableRect.size)
        let pageCount = try PDF.pageCount(out)
        #expect(map.pageCount == pageCount && pageCount > 10, "\(map.pageCount) mapped, \(pageCount) printed")
        var printedOn: [Int: Int] = [:]
        for page in 1...pageCount {
            for w in try PDF.words(out, page: page) where w.word.hasPrefix("Anchor") && w.word.hasSuffix("X") {
                if let n = Int(w.word.dropFirst(6).dropLast()), printedOn[n] == nil { printedOn[n] = page - 1 }
            }
        }
        #expect(printedOn.count == count - 1, "every shown anchor is in the job")
        #expect(map.pages.count == count - 1 || (map.pages.count == count && map.pages.last! == nil))
        let wrong = (0..<(count - 1)).filter { map.pages.indices.contains($0) ? map.pages[$0] != printedOn[$0] : true }
        #expect(wrong.isEmpty, "mapped to the wrong page: \(wrong.map { "\($0): \(String(describing: map.pages.indices.contains($0) ? map.pages[$0] : nil)) not \(printedOn[$0] ?? -1)" })")
        #expect(Set(printedOn.values).count > 8, "the anchors spread over many pages")
        #expect(try !PDF.text(out).contains("SWPM"), "no mark is left in what prints")
        // How far down: each anchor word's top on its page (the job's page has 72 pt above
        // WebKit's), to a few points (the word's box starts at its glyphs, the line a little higher).
        var off: [String] = []
        for page in 1...pageCount {
            for w in try PDF.words(out, page: page) where w.word.hasPrefix("Anchor") && w.word.hasSuffix("X") {
                guard let n = Int(w.word.dropFirst(6).dropLast()), n < map.tops.count, let top = map.tops[n], map.pages[n] == page - 1 else { continue }
                if abs(top + 72 - w.yMin) > 4 { off.append("\(n): \(top + 72) vs \(w.yMin)") }
            }
        }
        #expect(off.isEmpty, "\(off)")
        #expect(map.tops.compactMap { $0 }.count >= count - 1)
    }

    /// Marked elements that start at one place (a section and its heading, and a span in that):
    /// their marks are drawn at levels of their own, or poppler would read them as one and the
    /// map would not be exact.
    @Test func nestedElementsThatStartTogetherAreEachMapped() throws {
        let filler = (0..<40).map { "<p>Filler paragraph \($0) of the first page.</p>" }.joined()
        let html = """
            <html><head><style>body { font: 11pt 'DejaVu Sans' } h2 { margin-top: 0 } section { break-before: page }</style></head>
            <body><p class=a>First</p>\(filler)
            <section class=a><h2 class=a><span class=a>Nested</span> heading</h2><p>Body of the section.</p></section>
            <section class=a><h2 class=a>Second</h2></section></body></html>
            """
        let formatter = MarkupTextPrintFormatter(markupText: html)
        let map = try formatter.elementPages(matching: ".a", pageSize: CGSize(width: 451, height: 698))
        #expect(map.pages == [0, 2, 2, 2, 3, 3] || map.pages == [0, 1, 1, 1, 2, 2], "\(map.pages)")
        // The three that start together start at one height.
        let tops = map.tops[1...3].compactMap { $0 }
        #expect(tops.count == 3 && tops.max()! - tops.min()! < 0.5, "\(map.tops)")
    }

    @Test func aBadSelectorIsAClearError() throws {
        let formatter = MarkupTextPrintFormatter(markupText: "<p>one</p>")
        #expect { try formatter.elementPages(matching: "p[", pageSize: CGSize(width: 400, height: 600)) } throws: {
            "\($0)".contains("cannot be marked")
        }
    }
}

/// The queue's default header gives way to a document's own top boxes; without them it prints.
@Suite struct QueueHeaderPrecedenceTests {
    func convert(_ html: String, queueHeader: String) throws -> [String] {
        let dir = try temporaryDirectory()
        try html.write(toFile: dir + "/d.html", atomically: false, encoding: .utf8)
        var settings = JobSettings()
        settings.header = queueHeader
        settings.headerIsQueueDefault = true
        let out = dir + "/d.pdf"
        _ = try DocumentConversion(settings: settings, dispatcher: .standard).run([PrintInput(path: dir + "/d.html")], to: .file(out))
        return try PDF.words(out, page: 1).map(\.word)
    }

    @Test func theDocumentsBoxesRankAboveTheQueuesHeader() throws {
        let boxed = try convert("<style>@page { @top-center { content: 'DOCBOX' } }</style><p>body</p>", queueHeader: "QUEUEHEADER")
        #expect(boxed.contains("DOCBOX") && !boxed.contains("QUEUEHEADER"), "\(boxed)")
        let plain = try convert("<p>body</p>", queueHeader: "QUEUEHEADER")
        #expect(plain.contains("QUEUEHEADER"), "\(plain)")
    }
}
