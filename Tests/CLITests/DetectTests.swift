import Foundation
import TestSupport
import Testing

/// `swiftprint detect` and `types`, and how convert routes what it cannot print.
@Suite struct DetectTests {
    /// File name, bytes → UTI detected and handler, like libcupsfilters' case tables.
    @Test(arguments: [
        ("notes.txt", "plain words\n", "public.plain-text", "text"),
        ("notes.md", "# Title\n\nwords\n", "net.daringfireball.markdown", "markdown"),
        ("page.html", "<!DOCTYPE html>\n<html><body>hi</body></html>\n", "public.html", "markup"),
        ("page.txt", "  <html><body>hi</body></html>\n", "public.html", "markup"),
        // Markup that no sniffer recognises: libmagic's text patterns name the page.
        ("page", "<!-- saved page -->\n<html><head><title>t</title></head><body>hi</body></html>\n", "public.html", "markup"),
        ("drawing", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></svg>\n", "public.svg-image", "image"),
        // A PDF behind a line of junk (readers look for the header in the first kilobyte).
        ("late", "junk\n%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n", "com.adobe.pdf", "pdf"),
        // Other text is not asked of them: a script prints as text, its extension names it.
        ("run.sh", "#!/bin/sh\necho hi\n", "public.source-code", "text"),
        ("run", "#!/bin/sh\necho hi\n", "public.plain-text", "text"),
        // Notes that mention a tag are still notes (libmagic's text patterns call them HTML).
        ("relnotes.txt", "Release notes\n=============\n\n * \"--pretty=<style>\" can now be spelled as \"--format=<style>\".\n", "public.plain-text", "text"),
        ("print.ps", "%!PS-Adobe-3.0\n%%EOF\n", "com.adobe.postscript", nil),
        ("data.json", "{\"a\": 1}\n", "public.json", "text"),
        ("shapes.json", "{\"type\": \"FeatureCollection\", \"features\": []}\n", "public.geojson", "map"),
        ("track.xml", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"></gpx>\n", "com.topografix.gpx", "map"),
        // XHTML as git's and DocBook's manuals write it: libmagic calls it XML (its source printed).
        ("manual.html", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\"\n"
            + "    \"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd\">\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>hi</p></body></html>\n",
         "public.html", "markup"),
        ("chapter", "<?xml version=\"1.0\"?>\n<!-- made by DocBook -->\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>hi</body></html>\n",
         "public.html", "markup"),
        // XML that only mentions html is not a page.
        ("feed.xml", "<?xml version=\"1.0\"?>\n<feed><content type=\"html\">&lt;html&gt;</content></feed>\n", "public.xml", "text"),
        ("utf16.txt", "\u{FEFF}wide text", "public.plain-text", "text"),
        ("report.pdf", "%PDF-1.4\n%%EOF\n", "com.adobe.pdf", "pdf"),
        ("text-named.pdf", "just words, not a PDF\n", "public.plain-text", "text"),
    ] as [(String, String, String, String?)])
    func detects(name: String, content: String, uti: String, handler: String?) throws {
        let dir = try temporaryDirectory()
        let data = name == "utf16.txt" ? content.data(using: .utf16LittleEndian)! : Data(content.utf8)
        try data.write(to: URL(fileURLWithPath: "\(dir)/\(name)"))
        let r = try swiftprint(["detect", "--json", "\(dir)/\(name)"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        #expect(object?["uti"] as? String == uti, "\(r.text)")
        #expect(object?["handler"] as? String == handler, "\(r.text)")
    }

    /// A GPX track in UTF-16 (with its byte-order mark, either order) is a map, not text: it
    /// printed as its XML source.
    @Test(arguments: ["UTF-16LE", "UTF-16BE"])
    func aUTF16TrackPrintsAsAMap(encoding: String) throws {
        let dir = try temporaryDirectory()
        let body = try Tool.run("iconv", ["-f", "UTF-8", "-t", encoding, examples + "/walk.gpx"]).stdout
        let bom: [UInt8] = encoding == "UTF-16LE" ? [0xFF, 0xFE] : [0xFE, 0xFF]
        try (Data(bom) + body).write(to: URL(fileURLWithPath: dir + "/walk.gpx"))
        let detected = try swiftprint(["detect", "--json", dir + "/walk.gpx"])
        let object = try JSONSerialization.jsonObject(with: detected.stdout) as? [String: Any]
        #expect(object?["uti"] as? String == "com.topografix.gpx" && object?["handler"] as? String == "map", "\(detected.text)")
        let r = try swiftprint(["convert", dir + "/walk.gpx", "-o", dir + "/walk.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!(try PDF.text(dir + "/walk.pdf")).contains("<?xml"), "a map, not its source")
        // As CUPS hands it on: a spool file with no extension, its type named (it was read as
        // GeoJSON: "not valid JSON").
        try FileManager.default.copyItem(atPath: dir + "/walk.gpx", toPath: dir + "/d00001-001")
        let spooled = try swiftprint(["convert", "--document-format", "application/gpx+xml", dir + "/d00001-001", "-o", dir + "/spooled.pdf"])
        #expect(spooled.status == 0, "\(spooled.stderr)")
    }

    /// A link is detected by what it links to: libmagic is handed the file's bytes, not its name
    /// (it named a link `inode/symlink`, and only an extension rescued it).
    @Test func aSymbolicLinkIsDetectedByItsTarget() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: dir + "/photo", withDestinationPath: examples + "/../Tests/CLITests/Identity/photo.jpg")
        let r = try swiftprint(["detect", dir + "/photo"])
        #expect(r.status == 0 && r.text.contains("image/jpeg public.jpeg"), "\(r.text) \(r.stderr)")
    }

    @Test func conformanceChainIsShown() throws {
        let dir = try temporaryDirectory()
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.pdf"))
        let r = try swiftprint(["detect", dir + "/a.pdf"])
        #expect(r.text.contains("application/pdf com.adobe.pdf → public.data"))
        #expect(r.text.contains("handler: pdf"))
    }

    @Test func typesListsWhatPrints() throws {
        let r = try swiftprint(["types"])
        #expect(r.status == 0)
        #expect(r.text.contains("com.adobe.pdf") && r.text.contains("application/pdf") && r.text.contains(".pdf"))
        #expect(r.text.contains("public.plain-text"))
        #expect(r.text.contains("public.html") && r.text.contains("net.daringfireball.markdown"))
        #expect(!r.text.contains("com.adobe.postscript"), "PostScript has no handler")
        #expect(try swiftprint(["types", "--all"]).text.contains("com.adobe.postscript"))
    }

    @Test func unprintableInputsFailNamingTheirType() throws {
        let dir = try temporaryDirectory()
        try Data("%!PS-Adobe-3.0\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: dir + "/p.ps"))
        try Data().write(to: URL(fileURLWithPath: dir + "/empty.txt"))
        try Data([0x00, 0x01, 0x02, 0xFF, 0xFE, 0x00, 0x9C] + Array(repeating: 0, count: 100)).write(to: URL(fileURLWithPath: dir + "/blob"))
        for (file, message) in [("p.ps", "PostScript document (com.adobe.postscript"), ("empty.txt", "the file is empty"), ("blob", "cannot print application/octet-stream")] {
            let r = try swiftprint(["convert", "\(dir)/\(file)", "-o", dir + "/o.pdf"])
            #expect(r.status == 65, "\(file): \(r.stderr)")
            #expect(r.stderr.contains(file) && r.stderr.contains(message), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o.pdf"))
        }
        let r = try swiftprint(["convert", dir + "/missing.txt", "-o", dir + "/o.pdf"])
        #expect(r.status == 66 && r.stderr.contains("missing.txt: cannot open the file: No such file or directory"), "\(r.stderr)")
    }

    /// A type found from the content or the name is named by its own MIME type, not by
    /// libmagic's guess: Apple and PWG raster were application/octet-stream.
    @Test func rasterAndOtherSniffedTypesAreNamedByTheirOwnMIMEType() throws {
        let dir = try temporaryDirectory()
        for (format, file) in [("urf", "page.urf"), ("pwg-raster", "page.pwg")] {
            let made = try swiftprint(["convert", examples + "/server.log", "--page-ranges", "1", "--output-format", format, "-o", dir + "/" + file])
            #expect(made.status == 0, "\(made.stderr)")
        }
        try Data(#"{"type":"Point","coordinates":[2.35,48.85]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/paris.json"))
        for (file, mime, uti) in [("page.urf", "image/urf", "com.apple.urf"), ("page.pwg", "image/pwg-raster", "org.pwg.raster"),
                                  ("paris.json", "application/geo+json", "public.geojson")] {
            let r = try swiftprint(["detect", dir + "/" + file])
            #expect(r.status == 0 && r.text.contains(": \(mime) \(uti)"), "\(r.text) \(r.stderr)")
        }
    }
}
