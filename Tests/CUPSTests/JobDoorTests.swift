import SwiftPrint
import CUPSLibrary
import Foundation
import Testing
import TestSupport

/// A job through `lp` and IPP does what the same job does through `swiftprint convert`: text
/// options arrive whole or the job says why, a password is shown to no one, and the content
/// decides its type however cupsd labelled it. Run through a real cupsd, with `lp` and `ipptool`
/// as users and phones send jobs.
@Suite(.serialized, .enabled(if: PrivateCUPS.canRun, "cupsd runs filters as lp and backends as root only when started as root"))
struct JobDoorTests {
    let examples = directory() + "/../../Examples"

    /// Submits `file` with `lp` and these raw `-o` arguments, exactly as a user types them.
    func lp(_ cups: PrivateCUPS, _ file: String, _ options: [String], title: String) throws -> Int {
        var args = ["-h", cups.server, "-d", "swiftprint", "-t", title]
        for option in options { args += ["-o", option] }
        let r = try Tool.run("lp", args + [file])
        guard r.status == 0, let id = r.text.split(separator: " ").compactMap({ $0.split(separator: "-").last.flatMap { Int($0) } }).first else {
            throw Failure("lp failed: \(r.stderr)")
        }
        try cups.waitForJobs()
        return id
    }

    func words(_ pdf: String) throws -> String {
        try PDF.text(pdf).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func aFooterTemplateWrittenWithPercentFieldsArrivesWhole() throws {
        let cups = try PrivateCUPS.shared()
        let id = try lp(cups, examples + "/server.log", ["swiftprint-footer='%{file}||page {page} of {pages}'", "page-ranges=1"], title: "footer")
        let saved = cups.saved + "/root/\(id)-footer.pdf"
        #expect(FileManager.default.fileExists(atPath: saved), "\((try? cups.finishedJobReport(id)) ?? "")")
        let text = try words(saved)
        #expect(text.contains("footer") && text.contains("page 1 of "), "\(text.suffix(200))")
        #expect(!text.contains("%{") && !text.contains("{page}"))
    }

    /// A number past a map option's range fails the job saying the range: `map-dpi=1e-300`
    /// once made the tile zoom minus infinity and stopped the filter with a trap.
    @Test func aMapResolutionPastItsRangeFailsTheJobSayingTheRange() throws {
        let cups = try PrivateCUPS.shared()
        let id = try lp(cups, examples + "/walk.gpx", ["map-dpi=1e-300"], title: "map-dpi")
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(id)-") }.isEmpty)
        let report = try cups.finishedJobReport(id, awaiting: "map-dpi")
        #expect(report.contains("a number from 10 to 10000"), "\(report)")
    }

    @Test func aTemplateThatLibcupsTurnedIntoACollectionFailsTheJobSayingHowToWriteIt() throws {
        let cups = try PrivateCUPS.shared()
        let id = try lp(cups, examples + "/server.log", ["swiftprint-footer='{file}||page {page} of {pages}'"], title: "collection")
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(id)-") }.isEmpty)
        let report = try cups.finishedJobReport(id, awaiting: "collection")
        #expect(report.contains("swiftprint-footer arrived as an IPP collection") && report.contains("%{"), "\(report)")
    }

    @Test("a value split at its spaces fails the job naming the stray words", arguments: [
        ("swiftprint-footer=page {page} of {pages}", "'of'"),
        ("swiftprint-font=DejaVu Sans Mono 10", "'Mono'"),
    ])
    func aValueSplitAtItsSpacesFailsTheJob(option: String, stray: String) throws {
        let cups = try PrivateCUPS.shared()
        let id = try lp(cups, examples + "/server.log", [option], title: "split")
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(id)-") }.isEmpty)
        let report = try cups.finishedJobReport(id, awaiting: "options of their own")
        #expect(report.contains("arrived as options of their own") && report.contains(stray), "\(report)")
    }

    /// Every free-text option, quoted as CUPS users quote values with spaces, does in a job what
    /// its flag does in `convert`.
    @Test func everyFreeTextOptionArrivesAsWritten() throws {
        let cups = try PrivateCUPS.shared()
        let id = try lp(cups, examples + "/server.log", [
            "swiftprint-header='Night run — {title}||{user}'", "swiftprint-font='DejaVu Sans Mono 9'",
            "swiftprint-text-color=#1f3a93", "page-ranges=1",
        ], title: "Quarterly report")
        let saved = cups.saved + "/root/\(id)-Quarterly report.pdf"
        #expect(FileManager.default.fileExists(atPath: saved), "\((try? cups.finishedJobReport(id)) ?? "")")
        let text = try words(saved)
        #expect(text.contains("Night run — Quarterly report") && text.contains("root"), "\(text.prefix(200))")
        #expect(try PDF.info(saved, "Title") == "Quarterly report")
        let fonts = try Tool.run("pdffonts", [saved]).text
        #expect(fonts.contains("DejaVuSansMono"), "\(fonts)")
        let reference = try temporaryDirectory() + "/reference.pdf"
        #expect(try Tool.run(Tool.swiftprint, ["convert", examples + "/server.log", "-o", reference, "--header", "Night run — {title}||{user}",
                                               "--font", "DejaVu Sans Mono 9", "--color", "#1f3a93", "--page-ranges", "1",
                                               "--title", "Quarterly report"], environment: ["USER": "root"]).status == 0)
        #expect(try PDF.grayPixels(saved, page: 1, dpi: 50).pixels == PDF.grayPixels(reference, page: 1, dpi: 50).pixels)
    }

    /// The password of an encrypted PDF goes as IPP's document-password: the job prints, and no
    /// other user (nor the owner) sees it in lpstat or the job's attributes; the old
    /// swiftprint-password, which cupsd shows to everyone, is refused with the reason.
    @Test func aPasswordIsShownToNoOne() throws {
        let cups = try PrivateCUPS.shared()
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        #expect(try Tool.run(Tool.swiftprint, ["convert", examples + "/server.log", "-o", dir + "/plain.pdf", "--page-ranges", "1"]).status == 0)
        #expect(try Tool.run("qpdf", ["--encrypt", "Secr3t-user", "Secr3t-owner", "256", "--", dir + "/plain.pdf", dir + "/locked.pdf"]).status == 0)
        chmod(dir + "/locked.pdf", 0o644)
        let id = try lp(cups, dir + "/locked.pdf", ["document-password=Secr3t-user"], title: "locked")
        #expect(FileManager.default.fileExists(atPath: cups.saved + "/root/\(id)-locked.pdf"), "\((try? cups.finishedJobReport(id)) ?? "")")
        let listings = [
            try Tool.run("lpstat", ["-h", cups.server, "-U", "someoneelse", "-l", "-W", "all", "-o", "swiftprint"]).text,
            try Tool.run("lpstat", ["-h", cups.server, "-l", "-W", "all", "-o", "swiftprint"]).text,
            try ippJobAttributes(cups, id, user: "someoneelse"),
        ]
        for listing in listings { #expect(!listing.contains("Secr3t"), "\(listing)") }
        #expect(listings[2].contains("job-state"), "the job's attributes were read: \(listings[2].prefix(300))")

        let old = try lp(cups, dir + "/locked.pdf", ["swiftprint-password=Secr3t-user"], title: "exposed")
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(old)-") }.isEmpty)
        let report = try cups.finishedJobReport(old, awaiting: "document-password")
        #expect(report.contains("send the password as document-password"), "\(report)")
        let wrong = try lp(cups, dir + "/locked.pdf", ["document-password=Wr0ng"], title: "wrong")
        let wrongReport = try cups.finishedJobReport(wrong, awaiting: "document-password=")
        #expect(wrongReport.contains("password is not right") && wrongReport.contains("lp -o document-password=") && !wrongReport.contains("Wr0ng"), "\(wrongReport)")
    }

    /// Options that do not go together are refused with one message through both doors, each
    /// naming the option its own way: the flag on the command line, `lp -o` in a CUPS job.
    @Test func aCombinationRefusedNamesTheOptionAsEachDoorSetsIt() throws {
        let cups = try PrivateCUPS.shared()
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        let photo = dir + "/photo.jpg"
        #expect(try Tool.run("convert", ["-size", "300x200", "gradient:red-blue", photo]).status == 0)
        chmod(photo, 0o644)
        let said = "a photo grid is a layout of its own: it cannot be combined with pages per side (number-up) or a booklet"
        let direct = try Tool.run(Tool.swiftprint, ["convert", photo, "--photos-per-sheet", "4", "--number-up", "2", "-o", dir + "/x.pdf"])
        #expect(direct.status == 64 && direct.stderr.contains(said + " (--photos-per-sheet)"), "\(direct.stderr)")
        let id = try lp(cups, photo, ["swiftprint-photos-per-sheet=4", "number-up=2"], title: "grid")
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(id)-") }.isEmpty)
        let report = try cups.finishedJobReport(id, awaiting: "photo grid")
        #expect(report.contains(said + " (lp -o swiftprint-photos-per-sheet=…)") && !report.contains("--"), "\(report)")
    }

    func ippJobAttributes(_ cups: PrivateCUPS, _ id: Int, user: String) throws -> String {
        let test = try temporaryDirectory() + "/get-job.test"
        try """
        { NAME "Get-Job-Attributes" OPERATION Get-Job-Attributes GROUP operation-attributes-tag
          ATTR charset attributes-charset utf-8 ATTR naturalLanguage attributes-natural-language en
          ATTR uri printer-uri $uri ATTR integer job-id \(id) ATTR name requesting-user-name \(user)
          ATTR keyword requested-attributes all STATUS successful-ok }
        """.write(toFile: test, atomically: false, encoding: .utf8)
        return try Tool.run("ipptool", ["-tv", "ipp://\(cups.server)/printers/swiftprint", test]).text
    }

    /// `print`, `printers` and `lp` give one answer about the queue's two sides: the queue's
    /// own (its PPD's Duplex option, which cupsd turns into sides-supported).
    @Test func printAndLpAgreeOnTwoSides() throws {
        let cups = try PrivateCUPS.shared()
        let env = ["CUPS_SERVER": cups.server]
        let printers = try Tool.run(Tool.swiftprint, ["printers"], environment: env)
        let lines = printers.text.split(separator: "\n")
        let start = lines.firstIndex { $0.dropFirst(2).hasPrefix("swiftprint:") || $0.dropFirst(2).hasPrefix("swiftprint (default):") }
        let entry = start.map { lines[($0 + 1)...].prefix { $0.hasPrefix("    ") }.joined(separator: "\n") } ?? ""
        #expect(entry.contains("two-sided-long-edge") && entry.contains("two-sided-short-edge"), "\(printers.text)")
        let before = Set(cups.savedFiles())
        let r = try Tool.run(Tool.swiftprint, ["print", "-d", "swiftprint", "--sides", "two-sided-long-edge", "--title", "duplex",
                                               "--page-ranges", "1", examples + "/server.log"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        try cups.waitForJobs()
        let made = Set(cups.savedFiles()).subtracting(before).filter { $0.hasSuffix("-duplex.pdf") }
        #expect(made.count == 1, "\(made)")
        if let file = made.first { #expect(try PDF.pageCount(cups.saved + "/root/" + file) == 2, "one page, two-sided: a blank back") }

        // One adapter: the queue read from its PPD (the filter's view) is the queue cupsd
        // describes over IPP (print's and printers' view).
        let json = try Tool.run(Tool.swiftprint, ["printers", "--json"], environment: env).text
        let list = try JSONDecoder().decode([Printer].self, from: Data(json.utf8))
        let overIPP = try #require(list.first { $0.name == "swiftprint" }?.capabilities)
        let fromPPD = PrinterCapabilities(ppd: try PPDFile(path: cups.root + "/etc/ppd/swiftprint.ppd"))
        #expect(fromPPD.sides.sorted() == overIPP.sides.sorted())
        #expect(Set(fromPPD.media) == Set(overIPP.media), "\(Set(fromPPD.media).symmetricDifference(overIPP.media))")
        #expect(fromPPD.defaultMedia == overIPP.defaultMedia)
        #expect(overIPP.colorModes.contains("color") == fromPPD.colorModes.contains("color"))
        // The raster attributes a shared queue announces are read (libcups adds "-supported").
        #expect(!overIPP.urfSupported.isEmpty && !overIPP.pwgRasterTypes.isEmpty, "\(overIPP)")
    }

    /// Each document of a job is titled by its own title.
    @Test func eachSavedPDFHasItsDocumentsTitle() throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([QueueTests.fixtures + "/notes.md", QueueTests.fixtures + "/page.html"])
        try cups.waitForJobs()
        let files = cups.savedFiles().filter { $0.hasPrefix("\(id)-") }
        #expect(files.count == 2, "\(files)")
        let titles = try Set(files.map { try PDF.info(cups.saved + "/root/" + $0, "Title") ?? "" })
        #expect(titles == ["Minutes", "Page"], "\(titles)")
        // A title the sender chose is the job's, as --title is in convert.
        let named = try lp(cups, QueueTests.fixtures + "/notes.md", ["swiftprint-header='[%{title}]'"], title: "Board minutes")
        let saved = cups.saved + "/root/\(named)-Board minutes.pdf"
        #expect(try PDF.info(saved, "Title") == "Board minutes")
        #expect(try words(saved).contains("[Board minutes]"))
    }

    /// Options for other filters, written as options are (crop-to-fit, nopdfAutoRotate), are
    /// ignored with a warning beside a text option, not taken for split words; a password split
    /// at its spaces fails the job without a piece of it in the reason.
    @Test func otherFiltersOptionsAreNotSplitWordsAndAPasswordIsNeverRepeated() throws {
        let cups = try PrivateCUPS.shared()
        let id = try lp(cups, examples + "/server.log", ["swiftprint-header='Night run'", "crop-to-fit", "nopdfAutoRotate", "page-ranges=1"], title: "others")
        #expect(FileManager.default.fileExists(atPath: cups.saved + "/root/\(id)-others.pdf"), "\((try? cups.finishedJobReport(id)) ?? "")")
        let split = try lp(cups, examples + "/server.log", ["document-password=correct horse battery"], title: "split-password")
        let report = try cups.finishedJobReport(split, awaiting: "options of their own")
        #expect(report.contains("2 words arrived as options of their own"), "\(report)")
        #expect(!report.contains("horse") && !report.contains("battery") && !report.contains("correct"), "\(report)")
    }

    /// A failed job's reason stays on the job; the queue's own message goes with the next good job.
    /// On a cupsd of its own: another suite's job on the shared one would be the queue's news.
    @Test func aFailedJobsReasonStaysOnTheJobNotOnTheQueue() throws {
        let cups = try PrivateCUPS.withStockFilters()
        defer { cups.stop() }
        let failed = try lp(cups, QueueTests.cut("report.pdf", to: 0.5, as: "half.pdf"), [], title: "half.pdf")
        #expect(try Tool.run("lpstat", ["-h", cups.server, "-p", "swiftprint"]).text.contains("half.pdf"), "the failure is the queue's news first")
        _ = try lp(cups, examples + "/server.log", ["page-ranges=1"], title: "good")
        try cups.waitUntilIdle(["swiftprint"])
        let queue = try Tool.run("lpstat", ["-h", cups.server, "-p", "swiftprint"]).text
        #expect(!queue.contains("half.pdf"), "a good job clears the queue's message: \(queue)")
        #expect(try cups.finishedJobReport(failed, awaiting: "Status: swiftprint: half.pdf:").contains("Status: swiftprint: half.pdf:"))
    }

    /// A page in a print job reads no local file; the job says which, as the page wrote them,
    /// never as paths in cupsd's spool.
    @Test func aPrintJobsPageSaysWhatItDidNotLoad() throws {
        let cups = try PrivateCUPS.shared()
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/help", withIntermediateDirectories: true)
        try "<html><head><title>Help</title><link rel=stylesheet href=\"../site.css\"></head><body><p>help text</p></body></html>"
            .write(toFile: dir + "/help/page.html", atomically: false, encoding: .utf8)
        _ = try Tool.run("chmod", ["-R", "a+rX", dir])
        let id = try lp(cups, dir + "/help/page.html", [], title: "page.html")
        #expect(FileManager.default.fileExists(atPath: cups.saved + "/root/\(id)-page.html.pdf"))
        let report = try cups.finishedJobReport(id, awaiting: "not loaded")
        #expect(report.contains("page.html: not loaded, a page in a print job reads no local file: ../site.css"), "\(report)")
        #expect(!report.contains("/var/spool") && !report.contains(cups.root), "\(report)")
    }

    @Test func cancellingAJobThatIsNotThereSaysSo() throws {
        let cups = try PrivateCUPS.shared()
        let r = try Tool.run(Tool.swiftprint, ["cancel", "99999"], environment: ["CUPS_SERVER": cups.server])
        #expect(r.status == 69, "no such job, not the printer-aborted 75: \(r.stderr)")
        #expect(r.stderr.contains("99999"), "\(r.stderr)")
    }

    /// A PNG named x.pdf: cupsd calls it a PDF by its name, the filter prints it as the PNG it is.
    @Test func theContentDecidesWhatCupsdLabelledByName() throws {
        let cups = try PrivateCUPS.shared()
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        #expect(try Tool.run("convert", ["-size", "300x200", "xc:green", "png:" + dir + "/x.pdf"]).status == 0)
        chmod(dir + "/x.pdf", 0o644)
        let id = try lp(cups, dir + "/x.pdf", [], title: "x.pdf")
        let saved = cups.saved + "/root/\(id)-x.pdf"
        #expect(FileManager.default.fileExists(atPath: saved), "\((try? cups.finishedJobReport(id)) ?? "")")
        #expect(try PDF.pageCount(saved) == 1)
    }

    /// AVIF and JPEG XL, which stock CUPS does not know, are accepted by the swiftprint queue
    /// (its swiftprint.types names them) and print with their colour.
    @Test(arguments: ["avif", "jxl"])
    func todaysPhotoFormatsPrintThroughTheQueue(format: String) throws {
        let cups = try PrivateCUPS.shared()
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        let png = dir + "/photo.png", file = dir + "/photo." + format
        #expect(try Tool.run("convert", ["-size", "300x200", "gradient:red-blue", "-profile", "/usr/share/color/icc/colord/AdobeRGB1998.icc", png]).status == 0)
        let made = format == "avif" ? try Tool.run("avifenc", ["-s", "8", png, file]) : try Tool.run("cjxl", ["-d", "1", png, file])
        #expect(made.status == 0, "\(made.stderr)")
        chmod(file, 0o644)
        let id = try lp(cups, file, [], title: "photo." + format)
        let saved = cups.saved + "/root/\(id)-photo.\(format).pdf"
        #expect(FileManager.default.fileExists(atPath: saved), "\((try? cups.finishedJobReport(id)) ?? "")")
        let images = try Tool.run("pdfimages", ["-list", saved]).text
        #expect(images.contains(" icc "), "\(images)")
    }

    /// What an iPhone sends, on a cupsd with every converter of this machine (cups-filters'
    /// rastertopdf among them, which ties at cost 0 with a route through PDF): swiftprint's own
    /// route is taken, and no other converter runs.
    @Test func anAppleRasterJobTakesSwiftprintsOwnRouteBesideCupsFilters() throws {
        let cups = try PrivateCUPS.withSystemFilters()
        defer { cups.stop() }
        let urf = QueueTests.fixtures + "/job.urf"
        let r = try Tool.run("ipptool", ["-tv", "-f", urf, "-d", "filetype=image/urf", "ipp://\(cups.server)/printers/swiftprint", "print-job.test"])
        #expect(r.status == 0, "\(r.text)")
        try cups.waitForJobs()
        let saved = cups.savedFiles()
        let jobs = try Tool.run("lpstat", ["-h", cups.server, "-l", "-W", "completed", "-o", "swiftprint"]).text
        #expect(saved.count == 1, "\(saved) \(jobs)")
        if let file = saved.first { #expect(try PDF.pageCount(cups.saved + "/root/" + file) == 2) }
        let log = try String(contentsOfFile: cups.root + "/log/error_log", encoding: .utf8)
        #expect(log.contains("filter/swiftprint"), "swiftprint's filter ran")
        #expect(!log.contains("rastertopdf") && !log.contains("pdftopdf"), "no other converter ran")
    }
}
