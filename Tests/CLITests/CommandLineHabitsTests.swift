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

    /// The PDF's Title and {title} come from the document where it has one, as WeasyPrint does;
    /// --title still wins.
    @Test func theTitleIsTheDocumentsOwn() throws {
        let dir = try temporaryDirectory()
        try "<html><head><title>Quarterly  figures</title></head><body><p>x</p></body></html>".write(toFile: dir + "/page.html", atomically: false, encoding: .utf8)
        try "Some words first\n\n# Minutes of the board\n\ntext\n".write(toFile: dir + "/notes.md", atomically: false, encoding: .utf8)
        #expect(try swiftprint(["convert", examples + "/server.log", "-o", dir + "/titled.pdf", "--title", "Inner title", "--page-ranges", "1"]).status == 0)
        for (file, title) in [("page.html", "Quarterly figures"), ("notes.md", "Minutes of the board"), ("titled.pdf", "Inner title")] {
            let r = try swiftprint(["convert", dir + "/" + file, "-o", dir + "/out.pdf", "--header", "[{title}]"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try PDF.info(dir + "/out.pdf", "Title") == title, "\(file)")
            // (A PDF's page keeps its size: the header is drawn over its top, and text
            // extraction may interleave the two, so each word is looked for.)
            let words = Set(try PDF.text(dir + "/out.pdf").split(whereSeparator: \.isWhitespace))
            #expect("[\(title)]".split(separator: " ").allSatisfy(words.contains), "\(file): {title}")
        }
        #expect(try swiftprint(["convert", dir + "/page.html", "-o", dir + "/out.pdf", "--title", "Mine"]).status == 0)
        #expect(try PDF.info(dir + "/out.pdf", "Title") == "Mine")
        try "no heading here\n".write(toFile: dir + "/plain.md", atomically: false, encoding: .utf8)
        #expect(try swiftprint(["convert", dir + "/plain.md", "-o", dir + "/out.pdf"]).status == 0)
        #expect(try PDF.info(dir + "/out.pdf", "Title") == "plain.md")
    }

    @Test func aColourTakesEveryCSSName() throws {
        let dir = try temporaryDirectory()
        for name in ["darkblue", "rebeccapurple", "LightGoldenrodYellow"] {
            let r = try swiftprint(["convert", examples + "/server.log", "-o", dir + "/c.pdf", "--color", name, "--page-ranges", "1"])
            #expect(r.status == 0, "\(name): \(r.stderr)")
        }
        let bad = try swiftprint(["convert", examples + "/server.log", "-o", dir + "/c.pdf", "--color", "darkbleu"])
        #expect(bad.status == 64 && bad.stderr.contains("css-color-4/#named-colors"), "\(bad.stderr)")
    }

    @Test func typesHasAHeaderAndWholeNames() throws {
        let r = try swiftprint(["types"])
        #expect(r.status == 0)
        let lines = r.text.split(separator: "\n")
        #expect(lines.first?.hasPrefix("TYPE") == true && lines.first?.contains("HANDLER") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.contains(" markdown ") || $0.contains(" markup ") }, "\(r.text)")
    }

    /// A manual whose style sheet sits in the folder above: the page is printed, and the user
    /// hears once what was not loaded and which option lets it be.
    @Test func aBlockedStyleSheetIsNamedWithTheOptionThatAllowsIt() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/manual", withIntermediateDirectories: true)
        try #"p::before { content: "STYLED-FROM-ABOVE " }"#.write(toFile: dir + "/style.css", atomically: false, encoding: .utf8)
        try """
            <html><head><title>Manual</title><link rel="stylesheet" href="../style.css"></head>
            <body><p>chapter one</p><img src="missing.png"></body></html>
            """.write(toFile: dir + "/manual/page.html", atomically: false, encoding: .utf8)
        var r = try swiftprint(["convert", dir + "/manual/page.html", "-o", dir + "/out.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!(try PDF.text(dir + "/out.pdf")).contains("STYLED-FROM-ABOVE"))
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("not loaded") || $0.contains("not found") }
        #expect(warnings.count == 2, "\(r.stderr)")
        #expect(r.stderr.contains("not loaded, outside the folder the page may read") && r.stderr.contains(dir + "/style.css")
                    && r.stderr.contains("--allow-files \(dir) lets it"), "\(r.stderr)")
        #expect(r.stderr.contains("not found: \(dir)/manual/missing.png"), "\(r.stderr)")
        r = try swiftprint(["convert", dir + "/manual/page.html", "-o", dir + "/out.pdf", "--allow-files", dir])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.text(dir + "/out.pdf").contains("STYLED-FROM-ABOVE"), "the sheet is read with --allow-files")
        #expect(!r.stderr.contains("not loaded"), "\(r.stderr)")
    }

    @Test func anAddressGivenAsAFileIsNamedAsOne() throws {
        let r = try swiftprint(["convert", "https://example.org/report.pdf", "-o", try temporaryDirectory() + "/r.pdf"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("https://example.org/report.pdf: is an address, and swiftprint prints files"), "\(r.stderr)")
    }

    /// `-o -` on a terminal (script(1) gives the program one) is refused, not a screenful of PDF.
    @Test func binaryIsNotWrittenToATerminal() throws {
        let r = try Tool.run("script", ["-qec", "'\(Tool.swiftprint)' convert '\(examples)/server.log' -o -", "/dev/null"])
        #expect(r.status == 64, "\(r.text.prefix(300))")
        #expect(r.text.contains("would write a PDF to the terminal") && !r.text.contains("%PDF"), "\(r.text.prefix(300))")
    }

    /// Each example in --help is one line, as a user copies it.
    @Test func helpExamplesAreOneLineEach() throws {
        for command in ["convert", "preview", "print", "printers", "jobs", "cancel", "install"] {
            let help = try swiftprint([command, "--help"]).text
            let block = help.components(separatedBy: "Examples:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
            #expect(!block.isEmpty, "\(command) has examples")
            for line in block.split(separator: "\n") {
                #expect(line.hasPrefix("  swiftprint ") || line.hasPrefix("  sudo ") || line.hasPrefix("  cat ") || line.hasPrefix("  lp "),
                        "\(command): a wrapped example line: '\(line)'")
            }
        }
    }

    /// The installer's errors say what is wrong; the command adds its own flag, as a package's
    /// scripts, sharing the installer, would word it their own way.
    @Test func installsErrorsNameTheFlagOnlyAtTheCommandLine() throws {
        let bad = try swiftprint(["install", "--dry-run", "--printer", "ipp://127.0.0.1:9/ipp/print", "--name", "Front Desk"])
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr == "swiftprint: Front Desk: a queue's name is 1 to 127 printable characters, without spaces, /, \\, #, ' or \" (--name)\n", "\(bad.stderr)")
        let unknown = try swiftprint(["uninstall", "--dry-run", "--name", "NoSuchQueue"])
        #expect(unknown.status == 69, "\(unknown.stderr)")
        #expect(unknown.stderr.hasSuffix("NoSuchQueue: swiftprint made no printer queue of that name (swiftprint printers lists them) (--name)\n"), "\(unknown.stderr)")
    }
}
