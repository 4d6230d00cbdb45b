import Foundation
import SwiftPrint
import TestSupport
import Testing

/// `printers`, `print`, `jobs` and `cancel` against a private cupsd with two IPP Everywhere
/// printers (ippeveprinter): Office prints two-sided in monochrome, Lobby one-sided in colour.
@Suite(.serialized, .enabled(if: IPPEverywherePrinter.canRun, "needs root, cupsd, ippeveprinter and dbus-daemon"))
struct PrinterTests {
    /// The suite's cupsd and printers, started once.
    final class Setup: @unchecked Sendable {
        let cups: PrivateCUPS
        let office: IPPEverywherePrinter
        let lobby: IPPEverywherePrinter
        /// A receipt printer: a roll it cuts, raster only.
        let till: IPPEverywherePrinter

        nonisolated(unsafe) private static var made: Result<Setup, Error>?
        static func shared() throws -> Setup {
            if made == nil { made = Result { try Setup() } }
            return try made!.get()
        }

        private init() throws {
            cups = try PrivateCUPS.withStockFilters()
            do {
                office = try IPPEverywherePrinter(name: "Office", duplex: true, color: false)
            } catch { cups.stop(); throw error }
            do {
                lobby = try IPPEverywherePrinter(name: "Lobby", duplex: false, color: true, supplies: Self.lobbySupplies)
            } catch { office.stop(); cups.stop(); throw error }
            do {
                till = try IPPEverywherePrinter(name: "Till", attributes: IPPEverywherePrinter.receiptPrinterAttributes)
            } catch { lobby.stop(); office.stop(); cups.stop(); throw error }
            do {
                try office.addQueue(to: cups)
                try lobby.addQueue(to: cups)
                try till.addQueue(to: cups)
            } catch { stop(); throw error }
            atexit { try? Setup.shared().stop() }
        }

        func stop() { office.stop(); lobby.stop(); till.stop(); cups.stop() }

        /// Lobby's inks and its waste box, as it reports them after each job: yellow is low
        /// (8 at or under 10), black's level is unknown but not empty (-3), the waste box is
        /// nearly full (91 at or over 90).
        static let lobbySupplies = "marker-names=Cyan,Magenta,Yellow,Black,Waste marker-colors=#00FFFF,#FF00FF,#FFFF00,#000000,none "
            + "marker-types=ink-cartridge,ink-cartridge,ink-cartridge,ink-cartridge,waste-ink marker-levels=80,45,8,-3,91 "
            + "marker-low-levels=10,10,10,10,0 marker-high-levels=100,100,100,100,90"

        /// Lobby's supplies as CUPS has them, once it has heard them: they come with a job (the
        /// printer reports them after one; CUPS's backend asks at the next), so up to two are
        /// printed first.
        func lobbyReportedSupplies() throws -> [PrinterSupply] {
            for _ in 0..<3 {
                let listed = try JSONDecoder().decode([Printer].self, from: try swiftprint(["printers", "--json"]).stdout)
                if let supplies = listed.first(where: { $0.name == "Lobby" })?.supplies, !supplies.isEmpty { return supplies }
                let pdf = try temporaryDirectory() + "/one.pdf"
                try HandWrittenPDF.make(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                         "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>"]).write(to: URL(fileURLWithPath: pdf))
                _ = try cups.submit([pdf], to: "Lobby", options: [:], title: "supplies")
                try cups.waitUntilIdle(["Lobby"])
            }
            throw Failure("CUPS never heard Lobby's supplies")
        }

        /// Runs swiftprint talking to this cupsd.
        func swiftprint(_ args: [String]) throws -> Tool.Result {
            try Tool.run(Tool.swiftprint, args, environment: ["CUPS_SERVER": cups.server])
        }
    }

    /// `swiftprint jobs --json` output (dates in ISO 8601).
    static func jobs(from data: Data) throws -> [JobStatus] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode([JobStatus].self, from: data)
    }

    func threePages() throws -> String {
        let dir = try temporaryDirectory()
        try Data("page one\u{0C}page two\u{0C}page three".utf8).write(to: URL(fileURLWithPath: dir + "/three.txt"))
        return dir + "/three.txt"
    }

    @Test func printersShowsEachQueueWithItsCapabilities() throws {
        let s = try Setup.shared()
        // Jobs of the tests before may still be ending at the printers.
        try s.cups.waitUntilIdle(["Office", "Lobby"])
        let r = try s.swiftprint(["printers", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let printers = try JSONDecoder().decode([Printer].self, from: r.stdout)
        let office = try #require(printers.first { $0.name == "Office" })
        let lobby = try #require(printers.first { $0.name == "Lobby" })
        #expect(office.deviceURI == s.office.uri && office.state == .idle && office.isAcceptingJobs, "\(office)")
        let oc = try #require(office.capabilities, "\(office.capabilitiesError ?? "")")
        #expect(oc.sides.contains("two-sided-long-edge") && oc.printsTwoSided)
        #expect(oc.colorModes == ["monochrome"])
        #expect(oc.media.contains("iso_a4_210x297mm") && oc.media.contains("na_letter_8.5x11in"))
        #expect(oc.documentFormats.contains("application/pdf"))
        #expect(oc.resolutions == ["600dpi"])
        // pwg-raster-document-sheet-back, which libcups has no call to read: asked on its own.
        #expect(oc.sheetBack == .normal)
        let lc = try #require(lobby.capabilities)
        #expect(lc.sides == ["one-sided"] && !lc.printsTwoSided)
        #expect(lc.sheetBack == nil, "a one-sided printer turns no backs")
        #expect(lc.colorModes.contains("color"))
        // The text listing says the same for people.
        let text = try s.swiftprint(["printers"]).text
        #expect(text.contains("Office: idle") && text.contains("sides: one-sided, two-sided-long-edge, two-sided-short-edge"), "\(text)")
        #expect(text.contains("Lobby: idle") && text.contains("colour: "))
    }

    /// The supplies' levels a printer reports reach CUPS's queue (`marker-*`), and `printers`
    /// shows them: levels, the low and nearly-full ones marked, an unknown level said.
    @Test func printersShowsTheSuppliesCUPSHeardFromThePrinter() throws {
        let s = try Setup.shared()
        let supplies = try s.lobbyReportedSupplies()
        #expect(supplies.map(\.name) == ["Cyan", "Magenta", "Yellow", "Black", "Waste"], "\(supplies)")
        #expect(supplies.map(\.level) == [80, 45, 8, nil, 91])
        #expect(supplies.map(\.attention) == [nil, nil, .low, nil, .nearlyFull])
        #expect(supplies[3].someRemaining && supplies[0].color == "#00FFFF" && supplies[0].type == "ink-cartridge")
        let text = try s.swiftprint(["printers"]).text
        #expect(text.contains("supplies: Cyan 80 %, Magenta 45 %, Yellow 8 % (low), Black some left, Waste 91 % (nearly full)"), "\(text)")
        // A printer that has reported nothing lists none.
        let office = try JSONDecoder().decode([Printer].self, from: try s.swiftprint(["printers", "--json"]).stdout).first { $0.name == "Office" }
        #expect(office?.supplies == [])
    }

    @Test func aThreePagePrintArrivesAndIsFollowedToCompletion() throws {
        let s = try Setup.shared()
        let before = s.office.received.count
        let r = try s.swiftprint(["print", "-d", "Office", "--media", "A4", "--sides", "two-sided-long-edge", try threePages()])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("sent, 4 pages"), "two-sided: 3 pages and a blank back; \(r.stderr)")
        #expect(r.stderr.contains("printing page") && r.stderr.contains("completed"), "\(r.stderr)")
        let received = s.office.received
        #expect(received.count == before + 1)
        let pdf = try #require(received.last)
        #expect(try PDF.text(pdf).contains("page three"))
        #expect(try PDF.pageSizes(pdf).allSatisfy { abs($0.width - 595.28) < 1 && abs($0.height - 841.89) < 1 })
        // The Print Center keeps it, with the pages printed.
        let jobs = try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json", "-d", "Office"]).stdout)
        let last = try #require(jobs.last)
        #expect(last.state == .completed && last.title == "three.txt" && last.impressionsCompleted >= 3)
    }

    /// Copies the printer can make are its to make: one set is sent, with `copies` and whether
    /// they are collated; the progress counts every copy's pages.
    @Test(arguments: [(["--copies", "3"], "separate-documents-collated-copies"),
                      (["--copies", "3", "--no-collate"], "separate-documents-uncollated-copies")])
    func copiesAreMadeByThePrinter(options: [String], handling: String) throws {
        let s = try Setup.shared()
        let before = s.lobby.received.count
        let r = try s.swiftprint(["print", "-d", "Lobby", "--media", "A4"] + options + [try threePages()])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("sent, 3 pages, 3 copies made by the printer"), "\(r.stderr)")
        let received = s.lobby.received
        #expect(received.count == before + 1)
        let pdf = try #require(received.last)
        #expect(try PDF.pageCount(pdf) == 3, "one set in the document")
        let attributes = s.lobby.attributes(of: pdf)
        #expect(attributes["COPIES"] == "3", "\(attributes)")
        #expect(attributes["MULTIPLE_DOCUMENT_HANDLING"] == handling, "\(attributes)")
    }

    @Test func copiesBeyondWhatThePrinterMakesAreInThePDF() {
        let delivery = PrinterDelivery(printer: "Small", capabilities: PrinterCapabilities(maximumCopies: 2))
        var info = PrintInfo()
        info.copies = 3
        #expect(delivery.copyOptions(info: info) == nil)
        info.copies = 2
        #expect(delivery.copyOptions(info: info)?.first { $0.0 == "copies" }?.1 == "2")
        #expect(PrinterDelivery(printer: "Unknown", capabilities: PrinterCapabilities()).copyOptions(info: info) == nil)
    }

    /// A printer that takes no PDF gets PWG raster, else Apple raster, at a resolution and in a
    /// type it lists (the job's own when it lists it); what it cannot take fails before drawing.
    @Test func theFormatIsTheOneThePrinterTakes() throws {
        let raster = PrinterCapabilities(colorModes: ["monochrome", "color"], documentFormats: ["image/pwg-raster", "image/urf"],
                                         pwgRasterResolutions: ["150dpi", "600dpi", "300dpi"], pwgRasterTypes: ["sgray_8", "srgb_8"],
                                         urfSupported: ["RS300-600", "W8", "SRGB24"])
        let d = PrinterDelivery(printer: "Cheap", capabilities: raster)
        var info = PrintInfo()
        var sent = try d.outputSettings(for: info)
        #expect(sent.outputFormat == .pwgRaster && sent.printerResolution == PrinterResolution(x: 300, y: 300) && sent.rasterType == .srgb8)
        info.outputType = .grayscale
        #expect(try d.outputSettings(for: info).rasterType == .sgray8)
        info.printerResolution = PrinterResolution(x: 1200, y: 1200)
        #expect(throws: PrintError.self) { try d.outputSettings(for: info) }
        info.printerResolution = nil
        var urfOnly = raster
        urfOnly.documentFormats = ["image/urf"]
        sent = try PrinterDelivery(printer: "Phone", capabilities: urfOnly).outputSettings(for: info)
        #expect(sent.outputFormat == .appleRaster && sent.printerResolution == PrinterResolution(x: 300, y: 300) && sent.rasterType == .sgray8)
        // The backs of two-sided raster sheets turned as the printer says, unless the job chose:
        // Apple raster's in urf-supported, PWG raster's from the queue's PPD (*cupsBackSide).
        #expect(sent.sheetBack == nil)
        urfOnly.urfSupported.append("DM3")
        sent = try PrinterDelivery(printer: "Phone", capabilities: urfOnly).outputSettings(for: info)
        #expect(sent.sheetBack == .rotated)
        var flipping = raster
        flipping.sheetBack = .flipped
        #expect(try PrinterDelivery(printer: "Cheap", capabilities: flipping).outputSettings(for: info).sheetBack == .flipped)
        var chosen = info
        chosen.sheetBack = .normal
        #expect(try PrinterDelivery(printer: "Cheap", capabilities: flipping).outputSettings(for: chosen).sheetBack == .normal)
        #expect(try PrinterDelivery(printer: "Office", capabilities: PrinterCapabilities(documentFormats: ["application/pdf"], sheetBack: .flipped))
            .outputSettings(for: PrintInfo()).sheetBack == nil)
        // PDF when the printer takes it; an error when it takes none of the three.
        #expect(try PrinterDelivery(printer: "Office", capabilities: PrinterCapabilities(documentFormats: ["application/pdf", "image/urf"]))
            .outputSettings(for: PrintInfo()).outputFormat == .pdf)
        #expect(throws: PrintError.self) {
            try PrinterDelivery(printer: "Old", capabilities: PrinterCapabilities(documentFormats: ["application/postscript"])).outputSettings(for: PrintInfo())
        }
    }

    /// `--output-format` sends raster to a real printer through the queue: ippeveprinter gets an
    /// Apple raster document whose pages are the job's, and `--verbose` says what was sent. (The
    /// queue CUPS makes for it takes image/urf, not image/pwg-raster, which is refused by name.)
    @Test func rasterIsSentWhenAsked() throws {
        let s = try Setup.shared()
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: s.lobby.output))
        let refused = try s.swiftprint(["print", "-d", "Lobby", "--output-format", "pwg-raster", try threePages()])
        #expect(refused.status == 64 && refused.stderr.contains("image/pwg-raster asked; Lobby takes") && refused.stderr.contains("(--output-format)"), "\(refused.stderr)")
        let r = try s.swiftprint(["print", "-d", "Lobby", "--media", "A4", "--output-format", "urf", "--verbose", try threePages()])
        #expect(r.status == 0, "\(r.stderr)")
        // At a resolution the queue lists in urf-supported (CUPS writes RS600 from the PPD it made
        // for ippeveprinter), the one nearest 300 dpi.
        let listed = try #require(try JSONDecoder().decode([Printer].self, from: s.swiftprint(["printers", "--json"]).stdout)
            .first { $0.name == "Lobby" }?.capabilities?.urfSupported)
        #expect(listed.contains("RS600") && listed.contains("SRGB24"), "\(listed)")
        #expect(r.stderr.contains("Lobby gets image/urf at 600dpi, srgb_8"), "\(r.stderr)")
        // ippeveprinter keeps the document (.urf) beside its print command's output (.prn).
        let new = try FileManager.default.contentsOfDirectory(atPath: s.lobby.output).filter { !before.contains($0) && $0.hasSuffix(".urf") }
        let document = try #require(new.first, "the printer received nothing new: \(new)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: s.lobby.output + "/" + document))
        #expect(bytes.starts(with: Array("UNIRAST\0".utf8)), "\(document)")
        let back = try temporaryDirectory() + "/back.pdf"
        let read = try Tool.run(Tool.swiftprint, ["convert", s.lobby.output + "/" + document, "-o", back])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try PDF.pageCount(back) == 3)
    }

    /// The Apple raster CUPS's own filters write for a printer (cupsfilter with the PPD CUPS made
    /// for Lobby: Ghostscript, then rastertopwg) reads as the same pages, of the same size.
    @Test func appleRasterFromCUPSFiltersReads() throws {
        let s = try Setup.shared()
        let dir = try temporaryDirectory()
        let text = try threePages()
        let pdf = dir + "/three.pdf"
        #expect(try Tool.run(Tool.swiftprint, ["convert", text, "--media", "A4", "-o", pdf]).status == 0)
        let made = try Tool.run("/usr/sbin/cupsfilter", ["-p", "\(s.cups.root)/etc/ppd/Lobby.ppd", "-m", "image/urf", "-o", "media=iso_a4_210x297mm", pdf])
        #expect(made.status == 0 && made.stdout.starts(with: Array("UNIRAST\0".utf8)), "\(made.stderr.suffix(1500))")
        try made.stdout.write(to: URL(fileURLWithPath: dir + "/theirs.urf"))
        let r = try Tool.run(Tool.swiftprint, ["convert", dir + "/theirs.urf", "-o", dir + "/back.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(dir + "/back.pdf") == 3)
        #expect(try PDF.pageSizes(dir + "/back.pdf").allSatisfy { abs($0.width - 595.3) < 1 && abs($0.height - 841.9) < 1 })
        #expect(try PDF.text(dir + "/back.pdf").trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty, "pixels, no text")
    }

    @Test func aHeldJobIsListedAndCancelled() throws {
        let s = try Setup.shared()
        // The queue takes PDF (stock CUPS here has pdftopdf, not texttopdf).
        let pdf = try temporaryDirectory() + "/three.pdf"
        #expect(try s.swiftprint(["convert", try threePages(), "-o", pdf]).status == 0)
        let lp = try Tool.run("lp", ["-h", s.cups.server, "-d", "Lobby", "-H", "hold", "-t", "held report", pdf])
        let id = try #require(lp.text.split(separator: " ").compactMap { $0.split(separator: "-").last.flatMap { Int($0) } }.first,
                              "lp: \(lp.text) \(lp.stderr)")
        var listing = try s.swiftprint(["jobs", "-d", "Lobby"])
        #expect(listing.text.contains("\(id)") && listing.text.contains("held") && listing.text.contains("held report"), "\(listing.text)")
        let cancel = try s.swiftprint(["cancel", String(id)])
        #expect(cancel.status == 0, "\(cancel.stderr)")
        listing = try s.swiftprint(["jobs", "-d", "Lobby"])
        #expect(!listing.text.contains("held report"))
        let all = try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout)
        #expect(all.first { $0.id == id }?.state == .cancelled)
        // A finished job cannot be cancelled again, and says so.
        let again = try s.swiftprint(["cancel", String(id)])
        #expect(again.status != 0 && again.stderr.contains("job \(id)"))
    }

    @Test func noWaitPrintsTheJobNumberAtOnce() throws {
        let s = try Setup.shared()
        let r = try s.swiftprint(["print", "-d", "Lobby", "--no-wait", try threePages()])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require(Int(r.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let status = try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout)
        #expect(status.contains { $0.id == id && $0.printer == "Lobby" })
        // Done before the next test counts what Lobby received.
        let end = Date().addingTimeInterval(30 * Sanitizer.patience)
        while Date() < end, try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).contains(where: { $0.id == id && $0.state != .completed }) {
            usleep(100_000)
        }
    }

    @Test(arguments: [
        (["-d", "Lobby", "--sides", "two-sided-long-edge"], "two-sided printing asked (sides=two-sided-long-edge); Lobby prints one-sided only"),
        (["-d", "Office", "--print-color-mode", "color"], "colour asked; Office prints in monochrome only"),
        (["-d", "Office", "--media", "A3"], "media iso_a3_297x420mm asked; Office takes"),
    ])
    func anOptionThePrinterLacksFailsBeforeAnythingIsSent(options: [String], message: String) throws {
        let s = try Setup.shared()
        let count = { try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).count }
        let before = try count()
        let r = try s.swiftprint(["print"] + options + [try threePages()])
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(try count() == before, "no job may reach CUPS")
    }

    /// Tab after `-d` offers the printers CUPS knows, as the completion scripts ask for them
    /// (`swiftprint ---completion print -- -d CWORD CURSOR WORDS…`).
    @Test func printerNamesCompleteAfterDashD() throws {
        let s = try Setup.shared()
        let r = try s.swiftprint(["---completion", "print", "--", "-d", "3", "2", "swiftprint", "print", "-d", "Of"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.text.split(separator: "\n") == ["Office"], "\(r.text)")
        let all = try s.swiftprint(["---completion", "jobs", "--", "-d", "3", "0", "swiftprint", "jobs", "-d", ""]).text.split(separator: "\n")
        #expect(Set(all).isSuperset(of: ["Office", "Lobby", "Till"]), "\(all)")
    }

    @Test func anUnknownPrinterIsNamedWithTheOnesThatExist() throws {
        let s = try Setup.shared()
        let r = try s.swiftprint(["print", "-d", "Attic", try threePages()])
        #expect(r.status == 69)
        #expect(r.stderr.contains("no printer called Attic") && r.stderr.contains("Lobby") && r.stderr.contains("Office"), "\(r.stderr)")
    }

    @Test func aPresetKeepsThePrinterAndSettings() throws {
        let s = try Setup.shared()
        let dir = try temporaryDirectory()
        let preset = dir + "/office.json"
        var r = try s.swiftprint(["print", "-d", "Office", "--media", "A4", "--sides", "two-sided-short-edge", "--no-wait",
                                  "--save-preset", preset, try threePages()])
        #expect(r.status == 0, "\(r.stderr)")
        let info = try PrintInfo(presetAt: preset)
        #expect(info.printerID == "Office" && info.duplex == .shortEdge && info.media?.pwgName == "iso_a4_210x297mm")
        // The preset alone picks the printer; an option given overrides its setting.
        r = try s.swiftprint(["print", "--preset", preset, "--sides", "one-sided", "--no-wait", try threePages()])
        #expect(r.status == 0, "\(r.stderr)")
        let id = try #require(Int(r.text.trimmingCharacters(in: .whitespacesAndNewlines)))
        let jobs = try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout)
        #expect(jobs.first { $0.id == id }?.printer == "Office")
    }
}

extension PrinterTests {
    /// A job cancelled while `print` follows it: print says so and exits 130. The queue is
    /// stopped first, so the job waits for the cancel instead of racing it.
    @Test func printExitsWith130WhenItsJobIsCancelled() throws {
        let s = try Setup.shared()
        #expect(try Tool.run("cupsdisable", ["-h", s.cups.server, "Lobby"]).status == 0)
        defer { _ = try? Tool.run("cupsenable", ["-h", s.cups.server, "Lobby"]) }
        let before = Set(try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).map(\.id))
        let printing = Process()
        printing.executableURL = URL(fileURLWithPath: Tool.swiftprint)
        printing.arguments = ["print", "-d", "Lobby", try threePages()]
        printing.environment = ProcessInfo.processInfo.environment.merging(["CUPS_SERVER": s.cups.server]) { $1 }
        let err = Pipe()
        printing.standardError = err
        printing.standardOutput = FileHandle.nullDevice
        try printing.run()
        var id: Int?
        for _ in 0..<100 where id == nil {
            usleep(100_000)
            id = try Self.jobs(from: try s.swiftprint(["jobs", "--json"]).stdout).map(\.id).first { !before.contains($0) }
        }
        let job = try #require(id, "the job never reached CUPS")
        #expect(try s.swiftprint(["cancel", String(job)]).status == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        printing.waitUntilExit()
        #expect(printing.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("job \(job) on Lobby was cancelled"), "\(stderr)")
    }
}
