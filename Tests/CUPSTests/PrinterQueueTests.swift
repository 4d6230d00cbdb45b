import Foundation
import TestSupport
import Testing

/// swiftprint queues for real printers (`swiftprint install --printer URI --name NAME`), each in
/// front of an `ippeveprinter` that takes one format only: PDF, PWG raster or Apple raster. A
/// private cupsd that has every filter this machine's CUPS has (CUPS's, cups-filters',
/// Ghostscript's) still runs only swiftprint's filter and CUPS's `ipp` backend (below swiftprint's
/// relay, `swiftprint-ipp`) for these jobs, and
/// what each printer keeps is what `swiftprint convert` makes, in the printer's format.
@Suite(.serialized, .enabled(if: IPPEverywherePrinter.canRun, "needs root, cupsd, ippeveprinter and dbus-daemon"))
struct PrinterQueueTests {
    static let examples = directory() + "/../../Examples"

    final class Setup: @unchecked Sendable {
        let cups: PrivateCUPS
        /// Queue name → its printer.
        var printers: [String: IPPEverywherePrinter] = [:]
        let fixtures: String

        nonisolated(unsafe) private static var made: Result<Setup, Error>?
        static func shared() throws -> Setup {
            if made == nil { made = Result { try Setup() } }
            return try made!.get()
        }

        private init() throws {
            cups = try PrivateCUPS.withSystemFilters()
            fixtures = try temporaryDirectory()
            do {
                for (queue, format) in [("PDFPrinter", "application/pdf"), ("PWGPrinter", "image/pwg-raster"), ("URFPrinter", "image/urf")] {
                    let printer = try IPPEverywherePrinter(name: queue + "Device", duplex: true, color: true, formats: [format])
                    printers[queue] = printer
                    let r = try swiftprint(["install"] + cups.installArguments + ["--printer", printer.uri, "--name", queue])
                    guard r.status == 0 else { throw Failure("install --printer \(printer.uri): \(r.stderr)\(r.text)") }
                }
                _ = try Tool.run("convert", ["-size", "900x600", "-seed", "3", "plasma:", "-quality", "90", fixtures + "/photo.jpg"])
                let pdf = try swiftprint(["convert", PrinterQueueTests.examples + "/poster.svg", "--media", "A4", "-o", fixtures + "/poster.pdf"])
                guard pdf.status == 0 else { throw Failure("cannot make the test PDF: \(pdf.stderr)") }
            } catch { stop(); throw error }
            atexit { try? Setup.shared().stop() }
        }

        func stop() { printers.values.forEach { $0.stop() }; cups.stop() }

        func swiftprint(_ args: [String]) throws -> Tool.Result {
            try Tool.run(Tool.swiftprint, args, environment: ["CUPS_SERVER": cups.server])
        }

        /// Prints `file` on `queue` and waits for the printer to keep it; the kept document.
        func print(_ file: String, on queue: String, options: [String: String]) throws -> String {
            try printJob(file, on: queue, options: options).kept
        }

        /// Prints `file` on `queue` and waits for the printer to keep it; the job and the kept document.
        func printJob(_ file: String, on queue: String, options: [String: String]) throws -> (id: Int, kept: String) {
            let printer = try #require(printers[queue])
            let before = Set(printer.kept)
            let id = try cups.submit([file], to: queue, options: options)
            try cups.waitForJobs(on: queue, timeout: 120)
            for _ in 0..<100 {
                if let new = Set(printer.kept).subtracting(before).first { return (id, new) }
                usleep(100_000)
            }
            throw Failure("\(queue) job \(id) reached no printer: \(try cups.finishedJobReport(id, queue: queue))\n\(log())")
        }

        func log() -> String { (try? String(contentsOfFile: cups.root + "/log/error_log", encoding: .utf8)) ?? "" }
    }

    /// A document's magic: what the printer got.
    static func format(of path: String) throws -> String {
        let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).readData(ofLength: 8)
        if head.starts(with: Array("%PDF".utf8)) { return "application/pdf" }
        if head.starts(with: Array("RaS2".utf8)) { return "image/pwg-raster" }
        if head.starts(with: Array("UNIRAST".utf8)) { return "image/urf" }
        return "unknown"
    }

    /// Text, an HTML page, a photo and a PDF through each queue. The PDF printer keeps a PDF with
    /// as many pages, of the asked size, as `swiftprint convert` makes with the same options and
    /// the printer's unprintable edges, and it looks the same at 50 dpi (within 2 grey levels on
    /// average; measured 0–1) — HTML, whose @page margins the convert flags would replace, by its
    /// text. The raster printers keep PWG and Apple raster that, read back, is that PDF drawn at the
    /// printer's 600 dpi: the same as `swiftprint convert` makes of it in the same format (within
    /// 1 grey level). Only swiftprint's filter and the ipp backend ran.
    @Test(arguments: ["server.log", "report.html", "photo.jpg", "poster.pdf"])
    func eachPrinterGetsItsOwnFormat(_ name: String) throws {
        let s = try Setup.shared()
        let dir = try temporaryDirectory()
        let input = [".log", ".html"].contains { name.hasSuffix($0) } ? Self.examples + "/" + name : s.fixtures + "/" + name
        let options = ["media": "A4", "page-ranges": "1-2"]

        let pdf = try s.print(input, on: "PDFPrinter", options: options)
        #expect(try Self.format(of: pdf) == "application/pdf")
        let direct = dir + "/direct.pdf"
        let r = try s.swiftprint(["convert", input, "--media", "A4", "--page-ranges", "1-2", "--margins", Self.printerA4Margins, "-o", direct])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(pdf) == PDF.pageCount(direct), "\(name)")
        let sizes = try PDF.pageSizes(pdf), directSizes = try PDF.pageSizes(direct)
        // A4, upright or turned as convert turns it.
        #expect(zip(sizes, directSizes).allSatisfy { abs($0.width - $1.width) < 1 && abs($0.height - $1.height) < 1 }
            && sizes.allSatisfy { abs(min($0.width, $0.height) - 595.3) < 1 && abs(max($0.width, $0.height) - 841.9) < 1 }, "\(name): \(sizes)")
        if name.hasSuffix(".html") {
            #expect(try PDF.text(pdf).contains("Quarterly report"))
        } else {
            let d = PDF.meanDifference(try PDF.grayPixels(pdf, page: 1), try PDF.grayPixels(direct, page: 1))
            #expect(d < 2, "\(name): mean difference \(d) from swiftprint convert")
        }

        for (queue, format) in [("PWGPrinter", "image/pwg-raster"), ("URFPrinter", "image/urf")] {
            let kept = try s.print(input, on: queue, options: options)
            #expect(try Self.format(of: kept) == format, "\(queue) \(name)")
            let back = dir + "/\(queue).pdf", reference = dir + "/\(queue)-reference.pdf", raster = dir + "/\(queue).raster"
            for args in [[kept, "-o", back], [pdf, "--output-format", format, "--printer-resolution", "600", "-o", raster], [raster, "-o", reference]] {
                let c = try s.swiftprint(["convert"] + args)
                try #require(c.status == 0, "\(queue) \(name): convert \(args): \(c.stderr)")
            }
            #expect(try PDF.pageCount(back) == PDF.pageCount(pdf), "\(queue) \(name)")
            let images = try Tool.run("pdfimages", ["-list", "-f", "1", "-l", "1", back]).text
            #expect(images.contains(" 600   600 "), "\(queue) \(name): \(images)")
            let d = PDF.meanDifference(try PDF.grayPixels(back, page: 1), try PDF.grayPixels(reference, page: 1))
            #expect(d < 1, "\(queue) \(name): mean difference \(d) from swiftprint convert --output-format \(format)")
        }
        // Only swiftprint's filter and its relay backend (which runs CUPS's ipp) started for these jobs.
        let started = s.log().split(separator: "\n").filter { $0.contains("Started filter") || $0.contains("Started backend") }
        let programs = Set(started.compactMap { line in line.split(separator: " ").first { $0.hasPrefix("/") }.map { ($0 as NSString).lastPathComponent } })
        #expect(programs == ["swiftprint", "swiftprint-ipp"], "\(programs)")
    }

    /// IPP's way: sides, copies, print-quality and print-color-mode asked with lp reach a PWG
    /// raster printer as the raster it wants: a two-sided header (and the printer's own sides),
    /// every copy drawn by the filter (the printer is asked for one), Draft at the printer's
    /// lowest resolution, grey as sGray. cupsd counts each sheet side (its page log) and hears of the
    /// option nothing knows.
    @Test func ippOptionsBecomeThePrintersRaster() throws {
        let s = try Setup.shared()
        let file = try temporaryDirectory() + "/three.txt"
        try Data("page one\u{0C}page two\u{0C}page three".utf8).write(to: URL(fileURLWithPath: file))
        let (id, kept) = try s.printJob(file, on: "PWGPrinter", options: [
            "sides": "two-sided-long-edge", "copies": "2", "print-quality": "3", "print-color-mode": "monochrome", "staple-twice": "yes",
        ])
        let h = PWGHeader(try Data(contentsOf: URL(fileURLWithPath: kept)))
        #expect(h.duplex == 1 && h.tumble == 0)
        #expect(h.resolution == (300, 300), "\(h.resolution)")
        #expect(h.colorSpace == 18 && h.bitsPerColor == 8, "sgray_8: \(h.colorSpace) \(h.bitsPerColor)")
        // Three pages two-sided are four sides a copy; two copies.
        #expect(h.totalPageCount == 8, "\(h.totalPageCount)")
        let attributes = try #require(s.printers["PWGPrinter"]).attributes(of: kept)
        #expect(attributes["SIDES"] == "two-sided-long-edge", "\(attributes)")
        #expect((attributes["COPIES"] ?? "1") == "1", "\(attributes)")
        let pageLog = (try? String(contentsOfFile: s.cups.root + "/log/page_log", encoding: .utf8)) ?? ""
        // CUPS 2.4 logs a job's total of the PAGE: lines the filter sent.
        let line = pageLog.split(separator: "\n").first { $0.hasPrefix("PWGPrinter root \(id) ") } ?? ""
        #expect(line.contains("] total 8 "), "\(pageLog)")
        #expect(s.log().contains("swiftprint ignored an option it does not know: staple-twice=yes"))
    }

    /// `swiftprint printers` tells swiftprint's queues; a printer queue can be made again while
    /// its printer is off, from what the printer answered before, and `uninstall --name` takes it
    /// away and nothing else; a printer never heard from is a clear error.
    @Test func aQueueOutlivesItsPrinterBeingOffAndIsRemovedAlone() throws {
        let s = try Setup.shared()
        let printers = try s.swiftprint(["printers", "--json", "--no-capabilities"])
        let listed = try JSONSerialization.jsonObject(with: printers.stdout) as? [[String: Any]] ?? []
        let kinds = Dictionary(uniqueKeysWithValues: listed.map { ($0["name"] as? String ?? "", $0["swiftprintQueue"] as? String ?? "-") })
        #expect(kinds["PDFPrinter"] == "printer" && kinds["URFPrinter"] == "printer" && kinds["swiftprint"] == "save-as-pdf", "\(kinds)")

        let spare = try IPPEverywherePrinter(name: "SpareDevice", duplex: false, color: false, formats: ["image/pwg-raster"])
        let install = ["install"] + s.cups.installArguments + ["--printer", spare.uri, "--name", "Spare"]
        let first = try s.swiftprint(install)
        #expect(first.status == 0, "\(first.stderr)")
        spare.stop()
        let again = try s.swiftprint(install)
        #expect(again.status == 0 && again.text.contains("the queue is made from what the printer answered"), "\(again.text) \(again.stderr)")
        let removed = try s.swiftprint(["uninstall"] + s.cups.installArguments + ["--name", "Spare"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let queues = try Tool.run("lpstat", ["-h", s.cups.server, "-v"]).text
        #expect(!queues.contains("Spare") && queues.contains("PDFPrinter") && queues.contains("swiftprint"), "\(queues)")
        #expect(!FileManager.default.fileExists(atPath: s.cups.root + "/prefix/share/swiftprint/printers/Spare.ipp"))

        let port = try PrivateCUPS.freePort()
        let never = try s.swiftprint(["install"] + s.cups.installArguments + ["--printer", "ipp://127.0.0.1:\(port)/ipp/print", "--name", "Never"])
        #expect(never.status == 69 && never.stderr.contains("must ask the printer once"), "\(never.status) \(never.stderr)")
        #expect(!(try Tool.run("lpstat", ["-h", s.cups.server, "-v"]).text.contains("Never")))
    }

    /// A printer that is off delays a job and never loses it: CUPS's ipp backend gives up after
    /// the URI's `contimeout`, the queue's retry-job policy holds the job and tries again
    /// (`JobRetryInterval 1` here), and once the printer answers the job prints. A printer that
    /// refuses a job (two-sided, from a printer that has lost its duplexer) ends it, with the
    /// reason in `lpstat -l`.
    @Test func anOffPrinterDelaysAJobAndARefusingOneEndsIt() throws {
        let s = try Setup.shared()
        var printer = try IPPEverywherePrinter(name: "FlakyDevice", duplex: true, color: false, formats: ["application/pdf"])
        let port = printer.port
        defer { printer.stop() }
        let install = try s.swiftprint(["install"] + s.cups.installArguments + ["--printer", printer.uri + "?contimeout=1", "--name", "Flaky"])
        try #require(install.status == 0, "\(install.stderr)")
        let test = try temporaryDirectory() + "/policy.test"
        try """
        { OPERATION Get-Printer-Attributes
          GROUP operation-attributes-tag
          ATTR charset attributes-charset utf-8
          ATTR naturalLanguage attributes-natural-language en
          ATTR uri printer-uri $uri
          ATTR keyword requested-attributes printer-error-policy
          STATUS successful-ok
          EXPECT printer-error-policy OF-TYPE name WITH-VALUE retry-job }
        """.write(toFile: test, atomically: false, encoding: .utf8)
        let policy = try Tool.run("ipptool", ["-t", "ipp://\(s.cups.server)/printers/Flaky", test])
        #expect(policy.status == 0, "the queue retries jobs: \(policy.text)")

        printer.stop()
        let file = try temporaryDirectory() + "/note.txt"
        try Data("a note for a printer that is off".utf8).write(to: URL(fileURLWithPath: file))
        let waiting = try s.cups.submit([file], to: "Flaky")
        sleep(4)
        let queued = try Tool.run("lpstat", ["-h", s.cups.server, "-l", "-o", "Flaky"]).text
        #expect(queued.contains("Flaky-\(waiting) "), "the job waits: \(queued)")
        printer = try IPPEverywherePrinter(name: "FlakyDevice", duplex: true, color: false, formats: ["application/pdf"], port: port)
        try s.cups.waitForJobs(on: "Flaky", timeout: 60)
        #expect(try s.cups.finishedJobReport(waiting, queue: "Flaky").contains("completed") || printer.kept.count == 1)
        #expect(printer.kept.count == 1, "the job reached the printer once it was on: \(printer.kept)")

        printer.stop()
        printer = try IPPEverywherePrinter(name: "FlakyDevice", duplex: false, color: false, formats: ["application/pdf"], port: port)
        let refused = try s.cups.submit([file], to: "Flaky", options: ["sides": "two-sided-long-edge"])
        try s.cups.waitForJobs(on: "Flaky", timeout: 60)
        let report = try s.cups.finishedJobReport(refused, queue: "Flaky", awaiting: "supplied options")
        #expect(report.contains("supplied options") || report.contains("not supported"), "\(report)")
        #expect(printer.kept.isEmpty)
        _ = try s.swiftprint(["uninstall"] + s.cups.installArguments + ["--name", "Flaky"])
    }

    /// A busy printer delays the job in the backend, which asks again until it takes jobs: the
    /// "printer" here is another cupsd's swiftprint queue (an IPP printer as any other), made to
    /// refuse new jobs with `cupsreject` and then to take them again with `cupsaccept`.
    @Test func aBusyPrinterDelaysTheJobUntilItTakesJobsAgain() throws {
        let s = try Setup.shared()
        let other = try PrivateCUPS.fresh()
        defer { other.stop() }
        let uri = "ipp://\(other.server)/printers/swiftprint"
        let install = try s.swiftprint(["install"] + s.cups.installArguments + ["--printer", uri, "--name", "Relay"])
        try #require(install.status == 0, "\(install.stderr)")
        defer { _ = try? s.swiftprint(["uninstall"] + s.cups.installArguments + ["--name", "Relay"]) }
        #expect(try Tool.run("cupsreject", ["-h", other.server, "swiftprint"]).status == 0)
        let file = try temporaryDirectory() + "/busy.txt"
        try Data("a note for a busy printer".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        let id = try s.cups.submit([file], to: "Relay", title: "busy")
        sleep(4)
        let waiting = try Tool.run("lpstat", ["-h", s.cups.server, "-l", "-o", "Relay"]).text
        #expect(waiting.contains("Relay-\(id) "), "the job waits: \(waiting)")
        // The job's status is the printer's own message, which the ipp backend passes on.
        #expect(waiting.contains("Status: Rejecting Jobs"), "the job says why: \(waiting)")
        #expect(other.savedFiles().isEmpty)
        #expect(try Tool.run("cupsaccept", ["-h", other.server, "swiftprint"]).status == 0)
        try s.cups.waitForJobs(on: "Relay", timeout: 60)
        try other.waitForJobs()
        #expect(other.savedFiles().contains { $0.hasSuffix("-busy.pdf") }, "\(other.savedFiles())")
    }

    /// convert's 36 pt margins plus what ippeveprinter cannot print on A4 (its
    /// media-col-database: 1.02 mm at the top, 3.40 mm at the sides, 11.68 mm at the bottom),
    /// which the queue's jobs leave blank: top, right, bottom, left in points.
    static let printerA4Margins: String = {
        let mm = 72 / 25.4
        return [1.02, 3.40, 11.68, 3.40].map { String(format: "%.3f", 36 + $0 * mm) }.joined(separator: " ")
    }()

}
