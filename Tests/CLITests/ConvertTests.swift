import Foundation
import TestSupport
import Testing

/// Runs the real `swiftprint` binary, as a user would.
func swiftprint(_ args: [String], stdin: Data? = nil, env: [String: String] = [:]) throws -> Tool.Result {
    try Tool.run(Tool.swiftprint, args, stdin: stdin, environment: env)
}

let examples = URL(fileURLWithPath: directory()).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples").path

@Suite struct ConvertTests {
    /// Input, options, and the page size expected (points), like libcupsfilters' case tables.
    @Test(arguments: [
        (["--media", "A4"], 595.276, 841.89),
        (["--media", "letter"], 612.0, 792.0),
        (["--media", "A5"], 419.528, 595.276),
        (["--media", "A5", "--orientation", "landscape"], 595.276, 419.528),
        (["--media", "iso_a5_148x210mm"], 419.528, 595.276),
    ])
    func pageSizesAreExact(options: [String], width: Double, height: Double) throws {
        let out = try temporaryDirectory() + "/o.pdf"
        let r = try swiftprint(["convert", examples + "/server.log", "-o", out] + options)
        #expect(r.status == 0, "\(r.stderr)")
        let sizes = try PDF.pageSizes(out)
        #expect(!sizes.isEmpty)
        for s in sizes { #expect(abs(s.width - width) < 0.01 && abs(s.height - height) < 0.01) }
    }

    @Test func standardInputToStandardOutput() throws {
        let r = try swiftprint(["convert", "-", "-o", "-"], stdin: Data("piped line one\npiped line two\n".utf8))
        #expect(r.status == 0)
        let out = try temporaryDirectory() + "/piped.pdf"
        try r.stdout.write(to: URL(fileURLWithPath: out))
        #expect(try PDF.text(out).contains("piped line one\npiped line two"))
    }

    @Test func sameInputSameBytesAndSourceDateEpochIsHonoured() throws {
        let dir = try temporaryDirectory()
        for name in ["a", "b"] {
            #expect(try swiftprint(["convert", examples + "/multilingual.txt", "-o", "\(dir)/\(name).pdf"], env: ["SOURCE_DATE_EPOCH": "1"]).status == 0)
        }
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.pdf")), b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.pdf"))
        #expect(a == b)
        #expect(try swiftprint(["convert", examples + "/multilingual.txt", "-o", dir + "/c.pdf"], env: ["SOURCE_DATE_EPOCH": "1700000000"]).status == 0)
        #expect(try PDF.info(dir + "/c.pdf", "CreationDate")?.contains("2023") == true)
        // Without it, the PDF is dated when it was made.
        #expect(try swiftprint(["convert", examples + "/multilingual.txt", "-o", dir + "/d.pdf"], env: ["SOURCE_DATE_EPOCH": ""]).status == 0)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        #expect(try PDF.info(dir + "/d.pdf", "CreationDate")?.contains(String(year)) == true)
    }

    @Test func headerAndFooterTemplates() throws {
        let out = try temporaryDirectory() + "/hf.pdf"
        let r = try swiftprint(["convert", examples + "/server.log", "-o", out, "--title", "Nightly",
                                "--header", "{title}||{file}", "--footer", "page {page} of {pages}"],
                               env: ["SOURCE_DATE_EPOCH": "0"])
        #expect(r.status == 0)
        let pages = try PDF.pageCount(out)
        let last = try PDF.text(out, first: pages, last: pages)
        #expect(last.contains("Nightly") && last.contains("server.log") && last.contains("page \(pages) of \(pages)"))
    }

    /// The multilingual sample's first page at 50 dpi, rendered with the pinned fonts, or with
    /// the fontconfig file `fonts` when given.
    func multilingualPage(fonts: String? = nil) throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let out = try temporaryDirectory() + "/m.pdf"
        let env = try fonts.map { ["FONTCONFIG_FILE": $0] } ?? PinnedFonts.environment
        let r = try swiftprint(["convert", examples + "/multilingual.txt", "-o", out, "--media", "A5"], env: env)
        #expect(r.status == 0, "\(r.stderr)")
        return try PDF.grayPixels(out, page: 1, dpi: 50)
    }

    @Test func theMultilingualPageLooksRight() throws {
        // Pixels, compared with a golden image: catches boxes, clipped lines, wrong fonts.
        // Re-record with SWIFTPRINT_RECORD=1 after a deliberate change, and look at the result.
        let page = try multilingualPage()
        let golden = directory() + "/Golden/multilingual-a5.pgm"
        if ProcessInfo.processInfo.environment["SWIFTPRINT_RECORD"] == "1" {
            try PGM.encode(width: page.width, height: page.height, pixels: page.pixels).write(to: URL(fileURLWithPath: golden))
        }
        let expected = try PGM.decode(Data(contentsOf: URL(fileURLWithPath: golden)))
        #expect(expected.width == page.width && expected.height == page.height)
        let differing = zip(expected.pixels, page.pixels).filter { abs(Int($0) - Int($1)) > 48 }.count
        #expect(Double(differing) / Double(page.pixels.count) < 0.002, "\(differing) pixels differ")
        // And the page is not blank.
        #expect(page.pixels.filter { $0 < 128 }.count > 2000)
    }

    /// A font folder with one more fallback face (DejaVu's maths font, which has the sample's
    /// mathematical bold letters) changes the page when its face is let in, and not a pixel when
    /// the fonts are pinned: the golden images depend on the pinned fonts alone.
    @Test func extraFontsCannotChangeThePinnedPage() throws {
        let face = "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf"
        try #require(FileManager.default.fileExists(atPath: face), "fonts-dejavu-extra (the tests' section of scripts/apt-packages.txt) is not installed")
        try #require(try !PinnedFonts.fontFiles.contains(face), "the extra face must not be one of the pinned ones")
        let folder = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: face, toPath: folder + "/Extra.ttf")
        let pinned = try multilingualPage()
        let withFolder = try multilingualPage(fonts: PinnedFonts.configuration(scanning: folder, alsoAccepted: []))
        let faceLetIn = try multilingualPage(fonts: PinnedFonts.configuration(scanning: folder, alsoAccepted: [folder + "/Extra.ttf"]))
        #expect(withFolder.pixels == pinned.pixels, "the pinned fonts let the extra face in")
        let differing = zip(faceLetIn.pixels, pinned.pixels).filter { $0 != $1 }.count
        #expect(differing > 0, "the extra face changes nothing, so this test proves nothing")
    }

    @Test func missingFontsStillPrintAndWarnOnce() throws {
        // A fontconfig that knows only DejaVu: CJK, Thai, Devanagari and emoji have no font.
        let dir = try temporaryDirectory()
        let conf = """
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
        <fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>\(dir)/cache</cachedir></fontconfig>
        """
        try conf.write(toFile: dir + "/fonts.conf", atomically: false, encoding: .utf8)
        let r = try swiftprint(["convert", examples + "/multilingual.txt", "-o", dir + "/m.pdf"], env: ["FONTCONFIG_FILE": dir + "/fonts.conf"])
        #expect(r.status == 0)
        #expect(try PDF.pageCount(dir + "/m.pdf") == 1)
        let warnings = r.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1, "\(r.stderr)")
        #expect(warnings.first?.contains("fonts-noto-cjk") == true && warnings.first?.contains("fonts-noto-core") == true)
    }
}

/// Outputs that are not plain files: a pipe is written as it is (never replaced by a file),
/// a symbolic link keeps pointing where it did, and a folder is refused.
@Suite struct OutputKindTests {
    @Test func aPipeIsWrittenNotReplaced() throws {
        let dir = try temporaryDirectory()
        let fifo = dir + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/sh")
        reader.arguments = ["-c", "cat '\(fifo)' > '\(dir)/read.pdf'"]
        try reader.run()
        let r = try swiftprint(["convert", directory() + "/../../Examples/server.log", "-o", fifo])
        reader.waitUntilExit()
        #expect(r.status == 0, "\(r.stderr)")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO, "the pipe was replaced")
        #expect(try PDF.pageCount(dir + "/read.pdf") >= 1)
    }

    @Test func aLinkKeepsPointingAtItsFile() throws {
        let dir = try temporaryDirectory()
        try "old".write(toFile: dir + "/real.pdf", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.pdf", withDestinationPath: "real.pdf")
        let r = try swiftprint(["convert", directory() + "/../../Examples/server.log", "-o", dir + "/link.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.pdf") == "real.pdf")
        #expect(try PDF.pageCount(dir + "/real.pdf") >= 1)
    }

    @Test func aFolderIsRefused() throws {
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", directory() + "/../../Examples/server.log", "-o", dir])
        #expect(r.status == 73 && r.stderr.contains("is a folder"), "\(r.stderr)")
    }
}

@Suite struct ErrorTests {
    @Test func aMissingInputNamesTheFileAndLeavesNothing() throws {
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", dir + "/nope.txt", "-o", dir + "/out.pdf"])
        #expect(r.status == 66)
        #expect(r.stderr.contains("nope.txt") && r.stderr.contains("No such file"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func anUnwritableOutputSaysSo() throws {
        let r = try swiftprint(["convert", examples + "/server.log", "-o", "/nonexistent-dir/out.pdf"])
        #expect(r.status == 73)
        #expect(r.stderr.contains("/nonexistent-dir/out.pdf"))
    }

    @Test(arguments: [["--media", "A44"], ["--page-ranges", "3-1"], ["--copies", "0"], ["--margins", "1,2,3,4,5"],
                      ["--alignment", "middle"], ["--font", ""]])
    func badOptionsAreUsageErrors(options: [String]) throws {
        let r = try swiftprint(["convert", examples + "/server.log", "-o", "/tmp/never.pdf"] + options)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.pdf"))
    }

    @Test func rangesPastTheEndFailWithoutReplacingTheOldFile() throws {
        let dir = try temporaryDirectory()
        try "old".write(toFile: dir + "/out.pdf", atomically: false, encoding: .utf8)
        let r = try swiftprint(["convert", examples + "/server.log", "-o", dir + "/out.pdf", "--page-ranges", "900-"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("select none"))
        #expect(!r.stderr.contains("out.pdf"), "the ranges are to blame, not the output: \(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/out.pdf", encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.pdf"])
    }
}

@Suite struct MemoryTests {
    /// Peak RSS (KiB) of converting an n-line log, measured by GNU time.
    func peakRSS(lines: Int) throws -> Int {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let log = dir + "/big.log"
        #expect(FileManager.default.createFile(atPath: log, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        var chunk = ""
        for i in 0..<lines {
            chunk += "2026-11-22 10:00:00.\(i % 1000) INFO worker-\(i % 16) GET /api/v1/items/\(i) status=200 bytes=\(i * 7 % 99999)\n"
            if i % 10_000 == 9_999 { handle.write(Data(chunk.utf8)); chunk = "" }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()
        let r = try Tool.run("/usr/bin/time", ["-f", "%M", Tool.swiftprint, "convert", log, "-o", dir + "/big.pdf", "--quiet"])
        #expect(r.status == 0)
        return Int(r.stderr.split(separator: "\n").last ?? "") ?? -1
    }

    /// A line of Chinese costs a few megabytes more than a line of English, not the 36 MB of
    /// embedding Noto Sans CJK whole (cairo copies its 15 MB CFF table; see LargeFontCuts).
    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)")) func aLineOfChineseCostsLittleMoreMemoryThanALineOfEnglish() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func peak(_ line: String) throws -> Int {
            try (line + "\n").write(toFile: dir + "/one.txt", atomically: false, encoding: .utf8)
            let r = try Tool.run("/usr/bin/time", ["-f", "%M", Tool.swiftprint, "convert", dir + "/one.txt", "-o", dir + "/one.pdf", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try PDF.text(dir + "/one.pdf").contains(line))
            return Int(r.stderr.split(separator: "\n").last ?? "") ?? -1
        }
        let english = try peak("The quick brown fox jumps over the lazy dog.")
        let chinese = try peak("我能吞下玻璃而不伤身体。")
        #expect(english > 0 && chinese > 0)
        #expect(chinese - english < 12_000, "English: \(english) KiB, Chinese: \(chinese) KiB")
    }

    /// 2,000 lines drawing 3,000 different ideographs cost under 30 MB more than 2,000 lines of
    /// English (26 MB here): the font's cut holds thousands of glyphs, and its charstrings are
    /// flattened. Keeping the font's subroutines in the cut made it 36 MB.
    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)")) func aLongCJKDocumentCostsBoundedMemory() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func peak(_ text: String) throws -> Int {
            try text.write(toFile: dir + "/doc.txt", atomically: false, encoding: .utf8)
            let r = try Tool.run("/usr/bin/time", ["-f", "%M", Tool.swiftprint, "convert", dir + "/doc.txt", "-o", dir + "/doc.pdf", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(try PDF.pageCount(dir + "/doc.pdf") >= 30)
            return Int(r.stderr.split(separator: "\n").last ?? "") ?? -1
        }
        // Lines of 30 characters stepping through U+4E00 … U+55B7 (3,000 ideographs) and the kana.
        let ideographs = (0..<3000).map { Character(Unicode.Scalar(0x4E00 + $0)!) }
        let kana = (0x3041...0x3096).map { Character(Unicode.Scalar($0)!) }
        var cjk = "", english = ""
        for line in 0..<2000 {
            cjk += String((0..<30).map { i in i % 4 == 3 ? kana[(line * 7 + i) % kana.count] : ideographs[(line * 30 + i * 17) % ideographs.count] }) + "\n"
            english += "line \(line) of a long English document, about as wide as the other one\n"
        }
        let englishPeak = try peak(english)
        let cjkPeak = try peak(cjk)
        #expect(englishPeak > 0 && cjkPeak > 0)
        #expect(cjkPeak - englishPeak < 30_000, "English: \(englishPeak) KiB, CJK: \(cjkPeak) KiB")
    }

    @Test(.disabled(if: Sanitizer.isOn, "a peak of memory means nothing under a sanitizer (scripts/sanitize)")) func memoryDoesNotGrowWithTheDocument() throws {
        let small = try peakRSS(lines: 100_000), large = try peakRSS(lines: 1_000_000)
        #expect(small > 0 && large > 0)
        #expect(Double(large) <= Double(small) * 1.10, "100k lines: \(small) KiB, 1M lines: \(large) KiB")
    }
}
