import Foundation
import TestSupport
import Testing

/// What users of CUPS, enscript and img2pdf type at `swiftprint`, and what they must hear back.
@Suite struct CommandLineHabitsTests {
    @Test func aSecondOutputFlagIsRefusedAndTheOptionItLooksLikeIsNamed() throws {
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", examples + "/server.log", "-o", dir + "/out.pdf", "-o", "media=A5"], env: ["PWD": dir])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--media A5"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "media=A5"))
        let preview = try swiftprint(["preview", examples + "/server.log", "-o", dir + "/p.png", "-o", "p2.png"])
        #expect(preview.status == 64 && preview.stderr.contains("given once"), "\(preview.stderr)")
    }

    @Test func aMisspeltCommandOrOptionGetsTheClosestName() throws {
        let command = try swiftprint(["conver", examples + "/server.log", "-o", "t.pdf"])
        #expect(command.status == 64)
        #expect(command.stderr.contains("'conver' is not a swiftprint command") && command.stderr.contains("'convert'"), "\(command.stderr)")
        let option = try swiftprint(["convert", examples + "/server.log", "-o", try temporaryDirectory() + "/t.pdf", "--meda", "A4"])
        #expect(option.status == 64)
        #expect(option.stderr.contains("--meda") && option.stderr.contains("did you mean '--media'"), "\(option.stderr)")
        let far = try swiftprint(["convert", examples + "/server.log", "-o", "-", "--zzzzzz", "1"])
        #expect(far.status == 64 && !far.stderr.contains("did you mean"), "\(far.stderr)")
    }

    @Test func oneInputWithoutAnOutputIsWrittenBesideItAndNeverOverAFile() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: examples + "/server.log", toPath: dir + "/notes.txt")
        var r = try swiftprint(["convert", dir + "/notes.txt"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(dir + "/notes.pdf") >= 1)
        let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/notes.pdf"))
        r = try swiftprint(["convert", dir + "/notes.txt", "--media", "A5"])
        #expect(r.status == 73 && r.stderr.contains("notes.pdf") && r.stderr.contains("--force"), "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/notes.pdf")) == first)
        r = try swiftprint(["convert", dir + "/notes.txt", "--media", "A5", "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/notes.pdf")) != first)
        r = try swiftprint(["convert", dir + "/notes.txt", examples + "/multilingual.txt"])
        #expect(r.status == 64 && r.stderr.contains("-o"), "\(r.stderr)")
        r = try swiftprint(["convert", "-"], stdin: Data("x\n".utf8))
        #expect(r.status == 64 && r.stderr.contains("-o"), "\(r.stderr)")
    }

    @Test func standardInputCanBeTyped() throws {
        let markdown = Data("# Minutes\n\n- approved **budget**\n".utf8)
        let dir = try temporaryDirectory()
        var r = try swiftprint(["convert", "-", "-o", dir + "/md.pdf", "--document-format", "text/markdown"], stdin: markdown)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PDF.text(dir + "/md.pdf")
        #expect(text.contains("Minutes") && !text.contains("# Minutes") && !text.contains("**"), "\(text)")
        r = try swiftprint(["convert", "-", "-o", dir + "/plain.pdf"], stdin: markdown)
        #expect(try PDF.text(dir + "/plain.pdf").contains("**budget**"), "without it, detection decides: text")
        r = try swiftprint(["convert", "-", "-o", dir + "/x.pdf", "--document-format", "text/x-nothing"], stdin: markdown)
        #expect(r.status == 64 && r.stderr.contains("text/x-nothing"), "\(r.stderr)")
    }

    /// A type named wrongly (by the user, as by cupsd) does not override what the bytes are.
    @Test func theContentDecidesOverAWrongDocumentFormat() throws {
        let dir = try temporaryDirectory()
        #expect(try Tool.run("convert", ["-size", "300x200", "xc:green", "png:" + dir + "/x.pdf"]).status == 0)
        for extra in [[], ["--document-format", "application/pdf"]] {
            let r = try swiftprint(["convert", dir + "/x.pdf", "-o", dir + "/out.pdf"] + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            #expect(try PDF.pageCount(dir + "/out.pdf") == 1)
        }
    }

    @Test func anEncryptedPDFsErrorNamesTheFlag() throws {
        let dir = try temporaryDirectory()
        #expect(try swiftprint(["convert", examples + "/server.log", "-o", dir + "/plain.pdf", "--page-ranges", "1"]).status == 0)
        #expect(try Tool.run("qpdf", ["--encrypt", "u1", "o1", "256", "--", dir + "/plain.pdf", dir + "/locked.pdf"]).status == 0)
        let r = try swiftprint(["convert", dir + "/locked.pdf", "-o", dir + "/o.pdf"])
        #expect(r.status == 77)
        #expect(r.stderr.contains("locked.pdf: the PDF is encrypted: give its password (--password)"), "\(r.stderr)")
    }
}
