import Foundation
import SwiftPrint
import TestSupport
import Testing

/// The library's answers to UIKit's questions, from real libmagic.
@Suite struct DispatcherTests {
    @Test func canPrintAnswersFromContent() throws {
        let dispatcher = Dispatcher.standard
        #expect(dispatcher.canPrint(data: Data("plain words\n".utf8)))
        #expect(dispatcher.canPrint(data: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [UInt8](repeating: 0, count: 64))))
        #expect(dispatcher.canPrint(data: Data("<!DOCTYPE html><html><body>x</body></html>".utf8)))
        #expect(!dispatcher.canPrint(data: Data("%!PS-Adobe-3.0\n%%EOF\n".utf8)))
        let dir = try temporaryDirectory()
        try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: URL(fileURLWithPath: dir + "/a.pdf"))
        #expect(dispatcher.canPrint(url: URL(fileURLWithPath: dir + "/a.pdf")))
        #expect(!dispatcher.canPrint(url: URL(fileURLWithPath: dir + "/missing.pdf")))
    }

    @Test func printableUTIsFollowConformance() throws {
        let dispatcher = Dispatcher.standard
        let utis = dispatcher.printableUTIs
        #expect(utis.contains("com.adobe.pdf") && utis.contains("public.jpeg") && utis.contains("public.png"))
        #expect(utis.contains("public.source-code"), "printable through public.plain-text")
        #expect(utis.contains("public.html") && !utis.contains("com.adobe.postscript"))
        let chain = dispatcher.detector.catalogue.conformanceChain(of: "public.jpeg")
        #expect(Array(chain.prefix(3)) == ["public.jpeg", "public.image", "public.data"])
    }

    /// A type the sender named (CUPS's CONTENT_TYPE) → the handler and how it was decided. The
    /// first bytes may narrow it; libmagic is never loaded for it.
    @Test(arguments: [
        // The name does not narrow it: sent as text/plain, a Markdown file prints as its source.
        ("text/plain", "notes.md", "# Minutes\n\n- approved\n", "text", "declared"),
        ("application/json", "route", #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [7.4, 46.9]}}"#, "map", "content"),
        // HTML is not a kind of plain text: sent as text/plain, its source is printed.
        ("text/plain", "page", "<!DOCTYPE html><html><body>x</body></html>", "text", "declared"),
        ("text/plain", "log", "plain words\n", "text", "declared"),
        // The sender's word decides over the bytes: these bytes are a PNG's signature.
        ("text/plain", "odd", "\u{89}PNG\r\n\u{1A}\n", "text", "declared"),
        ("application/pdf", "a.pdf", "%PDF-1.4\n%%EOF\n", "pdf", "declared"),
        // A name of another kind does not change the sender's type.
        ("application/pdf", "a.md", "%PDF-1.4\n%%EOF\n", "pdf", "declared"),
    ])
    func aDeclaredTypeDecidesWithoutLibmagic(mime: String, name: String, content: String, handler: String, method: String) throws {
        let detector = ContentDetector()
        let dispatcher = Dispatcher(registry: .standard, detector: detector)
        let path = try temporaryDirectory() + "/spooled"
        try Data(content.utf8).write(to: URL(fileURLWithPath: path))
        var input = PrintInput(path: path)
        input.displayName = name
        input.declaredMIMEType = mime
        let routed = try dispatcher.route(input)
        #expect(routed.handler.name == handler)
        #expect(routed.type.method == method)
        #expect(!detector.hasLoadedLibmagic)
        // Unnamed, the same file is detected by libmagic (the bytes may print or not).
        _ = try? dispatcher.route(PrintInput(path: path))
        #expect(detector.hasLoadedLibmagic)
    }

    @Test func aDeclaredTypeStillNamesAnUnreadableFile() throws {
        var input = PrintInput(path: try temporaryDirectory() + "/missing")
        input.declaredMIMEType = "text/plain"
        #expect(throws: PrintError.self) { try Dispatcher.standard.route(input) }
    }

    @Test func aUserTypesFileAddsATypeWithoutARebuild() throws {
        var catalogue = TypeCatalogue.standard
        catalogue.add(tsv: "org.example.notes\tpublic.plain-text\ttext/x-notes\tnotes\tField notes\n")
        let dispatcher = Dispatcher(registry: .standard, detector: ContentDetector(catalogue: catalogue))
        let dir = try temporaryDirectory()
        try Data("a note\n".utf8).write(to: URL(fileURLWithPath: dir + "/trip.notes"))
        let routed = try dispatcher.route(PrintInput(path: dir + "/trip.notes"))
        #expect(routed.type.type?.identifier == "org.example.notes")
        #expect(routed.handler.name == "text")
    }

    @Test func aTypesFileIsReadByItsColumns() {
        var catalogue = TypeCatalogue()
        catalogue.add(tsv: """
            # a comment line, then a blank one and one of spaces only

            \u{20}\u{20}
            org.example.a \t public.plain-text , public.text\tText/X-A, text/x-a2\tA,aa \t An A file\tconv {in} {out}\r
            org.example.b\tpublic.data\t\tb\u{3000}
            """)
        #expect(catalogue.order == ["org.example.a", "org.example.b"])
        let a = catalogue.type("org.example.a")
        #expect(a?.conformsTo == ["public.plain-text", "public.text"])
        #expect(a?.mimeTypes == ["text/x-a", "text/x-a2"] && a?.extensions == ["a", "aa"])
        #expect(a?.description == "An A file" && a?.converter == ["conv", "{in}", "{out}"])
        #expect(catalogue.type(forMIME: "TEXT/X-A2")?.identifier == "org.example.a")
        // Unicode's space separators are trimmed as CharacterSet.whitespaces trims them.
        #expect(catalogue.type(forExtension: "b")?.identifier == "org.example.b")
        #expect(catalogue.type("org.example.b")?.description == "org.example.b")
    }
}
