import Foundation
import TestSupport
import Testing

/// HTML and Markdown through the real binary and the real WebKit (swiftprint-markup, headless on
/// its own Xvfb): @page honoured, CSS sizes true, relative assets used, nothing fetched or leaked.
@Suite(.serialized) struct MarkupTests {
    /// Writes `files` (name → contents) into a new folder and returns it.
    func folder(_ files: [String: String]) throws -> String {
        let dir = try temporaryDirectory()
        for (name, text) in files { try text.write(toFile: dir + "/" + name, atomically: false, encoding: .utf8) }
        return dir
    }

    func convert(_ inputs: [String], _ options: [String] = [], env: [String: String] = [:]) throws -> (Tool.Result, String) {
        let out = try temporaryDirectory() + "/out.pdf"
        let r = try swiftprint(["convert"] + inputs + ["-o", out] + options, env: env)
        return (r, out)
    }

    /// Mean grey (0 black … 255 white) of a region given in fractions of the page.
    func brightness(_ pdf: String, page: Int = 1, x: ClosedRange<Double>, y: ClosedRange<Double>) throws -> Double {
        let (w, h, pixels) = try PDF.grayPixels(pdf, page: page, dpi: 36)
        var sum = 0, n = 0
        for row in Int(y.lowerBound * Double(h))..<Int(y.upperBound * Double(h)) {
            for col in Int(x.lowerBound * Double(w))..<Int(x.upperBound * Double(w)) { sum += Int(pixels[row * w + col]); n += 1 }
        }
        return Double(sum) / Double(max(1, n))
    }

    @Test func atPageSizeAndMarginsMakeThePaper() throws {
        let dir = try folder(["a.html": """
            <html><head><style>@page { size: A5 landscape; margin: 0 }
            body { margin: 0 } .bar { width: 100mm; height: 20mm; background: black }</style></head>
            <body><div class="bar"></div><p>Landscape A5</p></body></html>
            """])
        let (r, out) = try convert([dir + "/a.html"])
        #expect(r.status == 0, "\(r.stderr)")
        let sizes = try PDF.pageSizes(out)
        #expect(sizes.count == 1)
        #expect(abs(sizes[0].width - 595.28) < 0.5 && abs(sizes[0].height - 419.53) < 0.5, "\(sizes)")
        // CSS's true sizes: a 100 mm bar at the top-left corner is 100 mm wide (about 47 % of 210 mm).
        let (w, h, pixels) = try PDF.grayPixels(out, page: 1, dpi: 72)
        let row = Int(Double(h) * 0.02)
        let dark = (0..<w).filter { pixels[row * w + $0] < 128 }
        #expect(abs(Double(dark.count) - 283.5) < 4, "bar is \(dark.count) pt wide, not 283.5")
        #expect(try PDF.text(out).contains("Landscape A5"))
    }

    @Test func embeddedFontsAreSubset() throws {
        // WebKit embeds each font whole: DejaVu Sans alone is 740 KB, and a page in three faces
        // came to 1.8 MB. Subset, a page of text is a few kilobytes per face.
        let dir = try folder(["f.html": """
            <html><body style="font-family: 'DejaVu Sans'"><p>Subset fonts keep only the glyphs shown.</p>
            <p style="font-family: 'DejaVu Serif'"><b>Bold serif</b> and <i>italic serif</i>.</p></body></html>
            """])
        let (r, out) = try convert([dir + "/f.html"])
        #expect(r.status == 0, "\(r.stderr)")
        let size = try FileManager.default.attributesOfItem(atPath: out)[.size] as! Int
        #expect(size < 80_000, "\(size) bytes: the fonts are not subset")
        #expect(try PDF.text(out).contains("Subset fonts keep only the glyphs shown."))
        let fonts = try Tool.run("pdffonts", [out]).text
        #expect(fonts.contains("DejaVuSans") && fonts.contains("DejaVuSerif"), "\(fonts)")
        #expect(try brightness(out, x: 0.05...0.6, y: 0.02...0.15) < 250, "no text drawn")
    }

    @Test func theJobsMediaWinsOverAtPage() throws {
        let dir = try folder(["a.html": "<html><head><style>@page { size: A5 }</style></head><body>x</body></html>"])
        let (r, out) = try convert([dir + "/a.html"], ["--media", "letter"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try PDF.pageSizes(out)
        #expect(s.count == 1 && abs(s[0].width - 612) < 0.5 && abs(s[0].height - 792) < 0.5, "\(s)")
    }

    @Test func forcedPageBreaksGiveThePageCount() throws {
        let dir = try folder(["b.html": """
            <html><body><h1>One</h1><h1 style="page-break-before: always">Two</h1>
            <h1 style="break-before: page">Three</h1><p>more</p><h1 style="break-before: page">Four</h1></body></html>
            """])
        let (r, out) = try convert([dir + "/b.html"], ["--media", "A4"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 4)
        for (page, word) in ["One", "Two", "Three", "Four"].enumerated() {
            #expect(try PDF.text(out, first: page + 1, last: page + 1).contains(word))
        }
    }

    @Test func relativeStyleSheetsAndImagesAreUsed() throws {
        let dir = try folder([
            "print.css": "@page { size: 105mm 148mm; margin: 0 } body { margin: 0 } img { display: block; width: 100%; height: 50mm }",
            "page.html": "<html><head><link rel=stylesheet href=print.css></head><body><img src=black.png><p>below</p></body></html>",
        ])
        _ = try Tool.run("convert", ["-size", "40x40", "xc:black", dir + "/black.png"])
        let (r, out) = try convert([dir + "/page.html"])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try PDF.pageSizes(out)
        #expect(abs(s[0].width - 297.64) < 0.5 && abs(s[0].height - 419.53) < 0.5, "the linked sheet's @page A6: \(s)")
        #expect(try brightness(out, x: 0.1...0.9, y: 0.05...0.25) < 40, "the relative image is missing")
        #expect(try brightness(out, x: 0.1...0.9, y: 0.6...0.95) > 240)
    }

    /// A server on 127.0.0.1 that counts the connections it is offered.
    final class CountingServer: @unchecked Sendable {
        private(set) var port = 0
        private var fd: Int32 = -1
        private let lock = NSLock()
        private var accepted = 0

        init() {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
            listen(fd, 16)
            _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
            port = Int(UInt16(bigEndian: addr.sin_port))
            Thread.detachNewThread { self.serve() }
        }

        private func serve() {
            while true {
                let c = accept(fd, nil, nil)
                if c < 0 { return }
                lock.lock(); accepted += 1; lock.unlock()
                let reply = "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n"
                _ = reply.withCString { write(c, $0, strlen($0)) }
                close(c)
            }
        }

        var connections: Int { lock.lock(); defer { lock.unlock() }; return accepted }
        func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
    }

    @Test(arguments: [false, true])
    func aPageFetchesNothingAndReadsNoFileOutsideItsFolder(scripts: Bool) throws {
        let server = CountingServer()
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let dir = try folder(["leak.html": """
            <html><head><link rel=stylesheet href="\(base)/link.css">
            <style>@import url("\(base)/import.css"); @font-face { font-family: F; src: url("\(base)/font.woff") }
            body { font-family: F, sans-serif; background: url("\(base)/bg.png") }</style></head>
            <body><p>visible text</p><img src="\(base)/img.png"><iframe src="\(base)/frame.html"></iframe>
            <iframe src="file:///etc/passwd"></iframe><object data="file:///etc/hostname"></object>
            <img src="file:///usr/share/pixmaps/debian-logo.png">
            <script>fetch("\(base)/fetch"); new Image().src = "\(base)/beacon"; document.write("<p>script ran</p>")</script>
            </body></html>
            """])
        let (r, out) = try convert([dir + "/leak.html"], scripts ? ["--scripts"] : [])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PDF.text(out)
        #expect(text.contains("visible text"))
        #expect(!text.contains("root:"), "/etc/passwd leaked into the page")
        #expect(text.contains("script ran") == scripts)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(server.connections == 0, "the page made \(server.connections) requests")
    }

    @Test func anEndlessScriptIsHarmlessWhenScriptsAreOffAndATimeoutWhenOn() throws {
        let dir = try folder(["loop.html": "<html><body><p>still printed</p><script>while (true) {}</script></body></html>"])
        let (off, outOff) = try convert([dir + "/loop.html"])
        #expect(off.status == 0, "\(off.stderr)")
        #expect(try PDF.text(outOff).contains("still printed"))

        let (on, outOn) = try convert([dir + "/loop.html"], ["--scripts", "--markup-timeout", "3"])
        #expect(on.status != 0)
        #expect(on.stderr.contains("loop.html") && on.stderr.contains("took longer than 3 s"), "\(on.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outOn), "a failed job left an output file")
    }

    /// A process the renderer needs, killed while a page's script spins: WebKit's web process,
    /// or the private Xvfb its GTK draws on (which GDK alone reported in three lines blaming "the
    /// application", naming no Xvfb).
    @Test(arguments: [("WebKitWebProces", ""), ("Xvfb", "lost its X display :")])
    func aCrashedRendererProcessIsAnErrorNotAHang(process: String, said: String) throws {
        let dir = try folder(["spin.html": "<html><body><p>spinning</p><script>while (true) {}</script></body></html>"])
        let out = dir + "/out.pdf"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Tool.swiftprint)
        p.arguments = ["convert", dir + "/spin.html", "-o", out, "--scripts", "--markup-timeout", "60"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        // Kill it once WebKit's web process has been spinning in the page's script a while.
        var killed = false, seen: Date?
        for _ in 0..<150 where !killed {
            Thread.sleep(forTimeInterval: 0.1)
            let tree = ProcessTree.descendants(of: p.processIdentifier)
            if tree.contains(where: { $0.name.hasPrefix("WebKitWebProces") }), seen == nil { seen = Date() }
            if let seen, Date().timeIntervalSince(seen) > 1.5 {
                let victims = tree.filter { $0.name.hasPrefix(process) }
                for v in victims { kill(v.pid, SIGKILL) }
                killed = !victims.isEmpty
            }
        }
        let started = Date()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(killed, "no \(process) process was found")
        // EX_TEMPFAIL, and not blaming the document alone: WebKit tells a crash from a kill
        // (the out-of-memory killer's likeliest choice, the largest process) by neither.
        #expect(p.terminationStatus == 75, "\(message)")
        #expect(Date().timeIntervalSince(started) < 20, "the job hung after the crash")
        #expect(message.contains("spin.html") && message.contains("ended while printing this document (it crashed, or was stopped from outside)"),
                "\(message)")
        if process == "Xvfb" {
            #expect(message.contains(said) && message.contains("Xvfb was killed by signal 9"), "\(message)")
            #expect(!message.contains("lost its connection to the display"), "GDK's own three lines: \(message)")
        }
        #expect(!FileManager.default.fileExists(atPath: out))
        // And the next job prints.
        let next = try folder(["still.html": "<html><body><p>still printing</p></body></html>"])
        let (r, nextOut) = try convert([next + "/still.html"])
        let nextText = try PDF.text(nextOut)
        #expect(r.status == 0 && nextText.contains("still printing"), "\(r.stderr)")
    }

    @Test func tenDocumentsShareOneRendererAndDisplayAndEachPrintsItself() throws {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
        var files: [String: String] = [:]
        for w in words { files[w + ".html"] = "<html><body><p>document \(w)</p></body></html>" }
        let dir = try folder(files)
        let (r, out) = try convert(words.map { dir + "/" + $0 + ".html" }, ["--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 10)
        // One web view serves them all: each page must still be its own document's.
        for (index, w) in words.enumerated() {
            let text = try PDF.text(out, first: index + 1, last: index + 1)
            #expect(text.contains("document \(w)"), "page \(index + 1): \(text)")
        }
        let starts = r.stderr.components(separatedBy: "started the markup renderer").count - 1
        #expect(starts == 1, "\(r.stderr)")
        let displays = r.stderr.components(separatedBy: "swiftprint-markup: display :").count - 1
        #expect(displays == 1, "\(r.stderr)")
    }

    @Test func aLaterDocumentCannotReadAnEarlierDocumentsFolder() throws {
        // The web view is reused from document to document; its filter must change with it.
        let first = try folder(["first.html": "<html><body style='margin:0'><img src=black.png style='display:block;width:100%;height:50mm'></body></html>"])
        _ = try Tool.run("convert", ["-size", "40x40", "xc:black", first + "/black.png"])
        let second = try folder(["second.html": """
            <html><body style='margin:0'><img src="file://\(first)/black.png" style='display:block;width:100%;height:50mm'>
            <p>second</p></body></html>
            """])
        let (r, out) = try convert([first + "/first.html", second + "/second.html"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 2)
        #expect(try brightness(out, page: 1, x: 0.2...0.8, y: 0.1...0.2) < 40, "the first document's own image is missing")
        #expect(try brightness(out, page: 2, x: 0.2...0.8, y: 0.1...0.2) > 240, "the second document read the first one's folder")
        #expect(try PDF.text(out, first: 2, last: 2).contains("second"))
    }

    @Test func markdownPrintsAsHTMLWithItsRelativeImages() throws {
        let dir = try folder(["notes.md": "# Shopping list\n\n- apples\n- **pears**\n\n![logo](black.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"])
        _ = try Tool.run("convert", ["-size", "200x200", "xc:black", dir + "/black.png"])
        let (r, out) = try convert([dir + "/notes.md"], ["--media", "A4"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PDF.text(out)
        #expect(text.contains("Shopping list") && text.contains("pears"))
        #expect(!text.contains("**"), "Markdown was printed as plain text")
        // The 200 px image (150 pt) sits below the list, inside the 18 mm left margin.
        #expect(try brightness(out, x: 0.1...0.25, y: 0.1...0.35) < 200, "the relative image is missing")
    }

    /// Markdown that Ink, the parser read before cmark-gfm, never returned from (a `<p`, `<pre`
    /// or `<param` with no `>` after it; brackets nested forty deep took it minutes) or stopped
    /// the process on (`---` and a line that was not front matter; a list ending in white
    /// space). Found by the markdown fuzz target; the text prints as written, and tags, links
    /// and code keep their meaning.
    @Test func markdownThatStoppedInkPrintsAsWritten() throws {
        let deep = String(repeating: "[", count: 40) + " deep " + String(repeating: "![", count: 20)
        let dir = try folder([
            "hang.md": "# Less than\n\nIf a <pre and b <P then\n\n```\nx <p\n```\n",
            "tags.md": "<p>A real paragraph</p>\n\nthen a <param\n",
            "deep.md": "\(deep)\n\nSee [the site](https://example.org/), [a [b] c] and `[[code]]`.\n\n```\n[[[[block]]]]\n```\n",
            "rule.md": "---\nA line under a rule\n\n",
            "list.md": "- one\n- two\n  ",
        ])
        for name in ["hang.md", "tags.md", "deep.md", "rule.md", "list.md"] {
            let (r, out) = try convert([dir + "/" + name], ["--media", "A4"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
            let text = try PDF.text(out)
            #expect(!text.contains("&#91;") && !text.contains("&lt;"), "\(name): \(text)")
            switch name {
            case "hang.md": #expect(text.contains("If a <pre and b <P then") && text.contains("x <p"), "\(text)")
            case "tags.md": #expect(text.contains("A real paragraph") && !text.contains("<p>") && text.contains("then a <param"), "\(text)")
            case "rule.md": #expect(text.contains("A line under a rule") && !text.contains("---"), "\(text)")
            case "list.md": #expect(text.contains("one") && text.contains("two") && !text.contains("-"), "\(text)")
            default:
                let words = text.filter { !$0.isWhitespace }
                #expect(words.contains(deep.filter { !$0.isWhitespace }) && words.contains("[[[[block]]]]"), "\(text)")
                #expect(words.contains("Seethesite,[a[b]c]and[[code]]"), "\(text)")
                #expect(try PDF.links(out).contains { $0.uri == "https://example.org/" }, "the link is lost")
            }
        }
    }

    /// Markdown as projects write their READMEs: Ink read an autolink (`<https://…>`, on the
    /// second line of GLib's README) as the start of an HTML tag, and printed the rest of the
    /// document as one paragraph, `##` and `*` included; it did not know setext headings or
    /// footnotes. Headings are the outline, autolinks are links, and front matter is metadata.
    @Test func markdownAsProjectsWriteItKeepsItsStructure() throws {
        let dir = try folder([
            "README.md": """
                ---
                title: "The project"
                layout: page
                ---
                Read me
                =======

                Downloads: <https://download.example.org/sources/>

                ## Installing

                * one step[^1]
                * two steps, ~~three~~

                | Option | Meaning |
                |:-------|--------:|
                | `-v`   | more    |

                - [x] done

                Building
                --------

                Run `make`.

                [^1]: Or none.

                """,
            "front.md": "---\ntitle: 'From the front matter'\n---\nNo heading here.\n",
        ])
        let (r, out) = try convert([dir + "/README.md"], ["--media", "A4"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PDF.text(out)
        for gone in ["##", "* one", "===", "---", "~~", "[^1]", "layout: page", "|"] {
            #expect(!text.contains(gone), "\(gone) printed: \(text)")
        }
        // (Inline code's padding reads as a space.)
        #expect(text.contains("Or none.") && text.contains("more") && text.filter { !$0.isWhitespace }.contains("Runmake."), "\(text)")
        let (titles, _) = try MarkupPageMapTests.outlineAndLinks(out)
        #expect(titles == ["Read me", "Installing", "Building"], "\(titles)")
        #expect(try PDF.links(out).contains { $0.uri == "https://download.example.org/sources/" }, "the autolink is lost")
        #expect(try Tool.run("pdfinfo", [out]).text.contains("The project") == false, "the front matter's title beat the heading")
        #expect(try Tool.run("pdfinfo", [out]).text.contains("Read me"))

        let (r2, out2) = try convert([dir + "/front.md"], ["--media", "A4"])
        #expect(r2.status == 0, "\(r2.stderr)")
        #expect(try Tool.run("pdfinfo", [out2]).text.contains("From the front matter"))
        #expect(try PDF.text(out2).contains("No heading here.") && !(try PDF.text(out2).contains("title:")))
    }

    @Test func textAndImageJobsNeverLoadWebKit() throws {
        // WebKit and GTK live in swiftprint-markup only; the tool itself does not link them.
        let libraries = try Tool.run("ldd", [Tool.swiftprint]).text
        #expect(!libraries.contains("libwebkit2gtk") && !libraries.contains("libgtk-3"), "\(libraries)")
    }

    /// WebKit's processes write GLib's debug messages to their standard output when the user's
    /// environment asks for them; none of it may reach the renderer's replies (it once ended the
    /// job with "the markup renderer answered something unreadable").
    @Test func glibDebugMessagesDoNotReachTheRenderersReplies() throws {
        let dir = try folder(["page.html": "<html><body><h1>Debug</h1><p>GLib may talk.</p></body></html>"])
        let (r, out) = try convert([dir + "/page.html"], env: ["G_MESSAGES_DEBUG": "all"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.text(out).contains("GLib may talk."))
    }

    @Test func aPageThatCannotLoadIsAnErrorNamingTheFile() throws {
        let (r, _) = try convert(["/nonexistent/page.html"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("page.html"), "\(r.stderr)")
    }
}
