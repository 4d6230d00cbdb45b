import Foundation
import Testing
import TestSupport

/// The swiftprint queue in a real cupsd: jobs go in with `lp`, PDFs come out of the backend.
@Suite(.serialized, .enabled(if: PrivateCUPS.canRun, "cupsd runs filters as lp and backends as root only when started as root"))
struct QueueTests {
    let examples = directory() + "/../../Examples"

    /// Test inputs: the examples, and images and a PDF made here.
    static let fixtures: String = {
        let dir = try! temporaryDirectory()
        chmod(dir, 0o755)
        _ = try? Tool.run("convert", ["-size", "640x480", "gradient:red-blue", dir + "/photo.jpg"])
        _ = try? Tool.run("convert", ["-size", "300x200", "xc:green", dir + "/chart.png"])
        _ = try? Tool.run(Tool.swiftprint, ["convert", directory() + "/../../Examples/server.log", "-o", dir + "/report.pdf", "--quiet"])
        // What an iPhone sends (Apple raster), and a driverless printer's PWG raster.
        for (name, format) in [("job.urf", "urf"), ("page.pwg", "pwg-raster")] {
            _ = try? Tool.run(Tool.swiftprint, ["convert", dir + "/report.pdf", "--page-ranges", "1-2", "--output-format", format,
                                                "--printer-resolution", "72", "-o", dir + "/" + name, "--quiet"])
            chmod(dir + "/" + name, 0o644)
        }
        try? """
            <html><head><title>Page</title><style>@page { size: A5; margin: 15mm }</style></head>
            <body><h1>Quarterly figures</h1><table><tr><td>North</td><td>12</td></tr></table>
            <h2 style="page-break-before: always">Notes</h2><p>second page</p></body></html>
            """.write(toFile: dir + "/page.html", atomically: false, encoding: .utf8)
        try? "# Minutes\n\n- approved **budget**\n- next meeting: *Friday*\n".write(toFile: dir + "/notes.md", atomically: false, encoding: .utf8)
        // A page that tries to read a file beside it and one elsewhere: as a CUPS job it may read none.
        try? "SECRET-BESIDE".write(toFile: dir + "/secret.txt", atomically: false, encoding: .utf8)
        try? """
            <html><body><p>public part</p><iframe src="secret.txt"></iframe><iframe src="file:///etc/passwd"></iframe></body></html>
            """.write(toFile: dir + "/nosy.html", atomically: false, encoding: .utf8)
        try? ##"{ "type": "Feature", "properties": { "stroke": "#c00000" }, "geometry": { "type": "LineString", "coordinates": [[7.44, 46.95], [8.54, 47.37]] } }"##
            .write(toFile: dir + "/route.geojson", atomically: false, encoding: .utf8)
        try? #"{ "swiftprint-map": 1, "title": "Lake trip", "center": { "lat": 46.9, "lon": 7.4 }, "scale": 2000000, "grid": true, "markers": [ { "lat": 46.95, "lon": 7.44, "label": "Bern" } ] }"#
            .write(toFile: dir + "/trip.map.json", atomically: false, encoding: .utf8)
        try? FileManager.default.copyItem(atPath: directory() + "/../../Config/basemap/world.mbtiles", toPath: dir + "/world.mbtiles")
        for name in ["page.html", "notes.md", "secret.txt", "nosy.html", "route.geojson", "trip.map.json", "world.mbtiles"] {
            chmod(dir + "/" + name, 0o644)
        }
        return dir
    }()

    /// What `swiftprint convert` makes of `file` with `flags`, for comparison.
    func converted(_ file: String, _ flags: [String] = []) throws -> String {
        let out = try temporaryDirectory() + "/convert.pdf"
        let r = try Tool.run(Tool.swiftprint, ["convert", file, "-o", out, "--quiet"] + flags)
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    @Test("each type arrives as the PDF swiftprint convert makes", arguments: [
        "server.log", "multilingual.txt", "photo.jpg", "chart.png", "report.pdf", "page.html", "notes.md",
        "poster.svg", "walk.gpx", "route.geojson", "trip.map.json", "world.mbtiles", "job.urf", "page.pwg",
    ])
    func eachTypeArrives(name: String) throws {
        let cups = try PrivateCUPS.shared()
        let file = [".txt", ".log", ".svg", ".gpx"].contains { name.hasSuffix($0) } ? examples + "/" + name : Self.fixtures + "/" + name
        let id = try cups.submit([file], options: ["media": "A4"])
        try cups.waitForJobs()
        let base = name.hasSuffix(".pdf") ? String(name.dropLast(4)) : name
        // HTML is laid out by WebKit under the filter's user (lp) with a bare environment.
        let saved = cups.saved + "/root/\(id)-\(base).pdf"
        #expect(FileManager.default.fileExists(atPath: saved), "\(cups.savedFiles())")
        let reference = try converted(file, ["--media", "A4"])
        #expect(try PDF.pageCount(saved) == PDF.pageCount(reference))
        #expect(try PDF.text(saved) == PDF.text(reference))
        let sizes = try PDF.pageSizes(saved)
        #expect(sizes.map { $0.width.rounded() } == (try PDF.pageSizes(reference)).map { $0.width.rounded() })
    }

    @Test func aPageInAJobReadsNoLocalFile() throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([Self.fixtures + "/nosy.html"], title: "nosy")
        try cups.waitForJobs()
        let saved = cups.saved + "/root/\(id)-nosy.pdf"
        #expect(FileManager.default.fileExists(atPath: saved), "\(cups.savedFiles())")
        let text = try PDF.text(saved)
        #expect(text.contains("public part"))
        #expect(!text.contains("SECRET-BESIDE") && !text.contains("root:"), "a CUPS job read a local file: \(text)")
    }

    @Test func aJobOfSeveralDocumentsGivesOnePDFEach() throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([examples + "/multilingual.txt", Self.fixtures + "/photo.jpg", Self.fixtures + "/report.pdf"])
        try cups.waitForJobs()
        let files = cups.savedFiles().filter { $0.hasPrefix("\(id)-") }
        #expect(files == ["\(id)-multilingual.txt.pdf", "\(id)-photo.jpg.pdf", "\(id)-report.pdf"])
        for f in files { #expect(try PDF.pageCount(cups.saved + "/root/" + f) >= 1, "\(f) is not a valid PDF") }
        #expect(try PDF.text(cups.saved + "/root/\(id)-report.pdf").contains("GET /api/v1/"))
    }

    @Test func mediaRangesAndCopiesDoWhatTheyDoEverywhere() throws {
        let cups = try PrivateCUPS.shared()
        let a5 = try cups.submit([Self.fixtures + "/report.pdf"], options: ["media": "A5", "page-ranges": "1-2"], title: "a5")
        let two = try cups.submit([examples + "/multilingual.txt"], options: ["copies": "2"], title: "copies")
        let grey = try cups.submit([Self.fixtures + "/photo.jpg"], options: ["print-color-mode": "monochrome"], title: "grey")
        try cups.waitForJobs()
        let sizes = try PDF.pageSizes(cups.saved + "/root/\(a5)-a5.pdf")
        #expect(sizes.count == 2)
        #expect(sizes.allSatisfy { abs($0.width - 419.53) < 1 && abs($0.height - 595.28) < 1 })
        let copies = cups.saved + "/root/\(two)-copies.pdf"
        let single = try converted(examples + "/multilingual.txt")
        #expect(try PDF.pageCount(copies) == 2 * PDF.pageCount(single))
        // Monochrome: every pixel of the photo's page is grey (r = g = b).
        let ppm = try Tool.run("pdftoppm", ["-r", "20", "-f", "1", "-l", "1", cups.saved + "/root/\(grey)-grey.pdf"])
        let bytes = [UInt8](ppm.stdout.suffix(3000)).map(Int.init)
        var coloured = 0
        for i in stride(from: 0, to: bytes.count - 2, by: 3) where abs(bytes[i] - bytes[i + 1]) > 2 || abs(bytes[i + 1] - bytes[i + 2]) > 2 {
            coloured += 1
        }
        #expect(coloured == 0)
    }

    /// n-up, page ranges and two-sided output reach the filter as `-o` options, as on any queue.
    @Test func nUpAndSidesWorkThroughTheQueue() throws {
        let cups = try PrivateCUPS.shared()
        let pages = try PDF.pageCount(Self.fixtures + "/report.pdf")
        let up = try cups.submit([Self.fixtures + "/report.pdf"], options: ["number-up": "4", "page-ranges": "2-\(pages)"], title: "nup")
        let duplex = try cups.submit([examples + "/multilingual.txt", examples + "/server.log"], options: ["sides": "two-sided-long-edge"], title: "duplex")
        let sheetHeader = try cups.submit([Self.fixtures + "/report.pdf"],
                                          options: ["number-up": "2", "swiftprint-sheet-headers": "True", "swiftprint-header": "TitlePage"], title: "headed")
        try cups.waitForJobs()
        // The header numbers the sides of the sheet; the queue's PPD offers where it goes.
        let sides = (pages + 1) / 2
        #expect(try PDF.text(cups.saved + "/root/\(sheetHeader)-headed.pdf", first: 1, last: 1).contains("1/\(sides)"))
        let installed = (try? String(contentsOfFile: cups.root + "/prefix/share/swiftprint/swiftprint.ppd", encoding: .utf8)) ?? ""
        #expect(installed.contains("*OpenUI *swiftprint-sheet-headers"), "the installed PPD lacks it")
        let cached = (try? String(contentsOfFile: cups.root + "/etc/ppd/swiftprint.ppd", encoding: .utf8)) ?? ""
        #expect(cached.contains("*OpenUI *swiftprint-sheet-headers"), "cupsd's copy lacks it")
        let listed = try Tool.run("lpoptions", ["-h", cups.server, "-p", "swiftprint", "-l"])
        #expect(listed.text.contains("swiftprint-sheet-headers/"), "lpoptions -l: \(listed.text) \(listed.stderr)")
        // Pages 2 to the last, four to a side (pdftopdf would count the ranges in sheets).
        #expect(try PDF.pageCount(cups.saved + "/root/\(up)-nup.pdf") == (pages - 1 + 3) / 4)
        // Each document of a CUPS job is a PDF of its own; printed two-sided, each has an even count.
        for f in cups.savedFiles().filter({ $0.hasPrefix("\(duplex)-") }) {
            #expect(try PDF.pageCount(cups.saved + "/root/" + f) % 2 == 0, "\(f)")
        }
    }

    @Test("hostile titles and user names stay inside the spool folder and run nothing", arguments: [
        "../../../../tmp/x;touch /tmp/swiftprint-pwned",
        String(repeating: "ß", count: 300),
        "tab\there\u{1B}[31mred\u{7}",
        ".hidden",
    ])
    func hostileTitles(title: String) throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([examples + "/server.log"], title: title)
        try cups.waitForJobs()
        #expect(!FileManager.default.fileExists(atPath: "/tmp/swiftprint-pwned"))
        let folders = try FileManager.default.contentsOfDirectory(atPath: cups.saved)
        #expect(!folders.contains { $0.hasPrefix(".") || $0.contains("/") })
        let user = "root"
        let files = cups.savedFiles(user: user).filter { $0.hasPrefix("\(id)-") }
        #expect(files.count == 1, "\(folders) \(files)")
        for f in files {
            #expect(f.utf8.count <= 255)
            #expect(!f.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            #expect(try PDF.pageCount(cups.saved + "/" + user + "/" + f) >= 1)
        }
    }

    /// A sender with no account on the machine (`lp -U`, a phone's requesting-user-name) gets
    /// no file on a queue with no guest account: the job is held, `lpstat -l` says why, and
    /// nothing is written anywhere.
    @Test func aSenderWithNoAccountIsHeldWithTheReason() throws {
        // A cupsd of its own: a held job would keep the shared one's queue busy for other tests.
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let before = try FileManager.default.contentsOfDirectory(atPath: cups.saved)
        let id = try cups.submit([examples + "/server.log"], title: "stranger", user: "../evil user")
        defer { _ = try? Tool.run("cancel", ["-h", cups.server, "swiftprint-\(id)"]) }
        var report = ""
        let end = Date().addingTimeInterval(60 * Sanitizer.patience)
        while Date() < end {
            report = try Tool.run("lpstat", ["-h", cups.server, "-l", "-o", "swiftprint"]).text
            if report.contains("has no account on this machine") && report.contains("job-hold-until-specified") { break }
            usleep(200_000)
        }
        #expect(report.contains("the sender ../evil user has no account on this machine, so the job is held"), "\(report)")
        #expect(report.contains("job-hold-until-specified"), "held, not failed: \(report)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cups.saved) == before)
    }

    /// Options from the network are values, never commands or paths: a header with a shell
    /// substitution is printed as written; a font or file name that points outside is refused
    /// or ignored, and the job still reads only what was sent.
    @Test func hostileOptionsRunNothingAndReadNothing() throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([examples + "/server.log"], options: [
            // (lp splits an option's value at spaces unless it is quoted inside the option.)
            "swiftprint-header": "$(touch${IFS}/tmp/swiftprint-pwned-header)`touch${IFS}/tmp/swiftprint-pwned-tick`",
            "swiftprint-font": "'/etc/shadow 10'", "page-ranges": "1",
        ], title: "options")
        try cups.waitForJobs()
        #expect(!FileManager.default.fileExists(atPath: "/tmp/swiftprint-pwned-header"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/swiftprint-pwned-tick"))
        let saved = cups.saved + "/root/\(id)-options.pdf"
        if FileManager.default.fileExists(atPath: saved) {
            let text = try PDF.text(saved).split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains("$(touch${IFS}/tmp/swiftprint-pwned-header)"), "the header is printed as written: \(text.prefix(300))")
            #expect(!text.contains("root:"), "no file named by an option is read")
        } else {
            #expect(try cups.finishedJobReport(id, awaiting: "swiftprint").contains("swiftprint"), "a refused option is the job's reason")
        }
    }

    /// The first `fraction` of fixture `name`, saved as `newName` where cupsd's filter (as lp)
    /// can read it.
    static func cut(_ name: String, to fraction: Double, as newName: String) throws -> String {
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        let whole = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name))
        let path = dir + "/" + newName
        try whole.prefix(Int(Double(whole.count) * fraction)).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        return path
    }

    @Test func aTruncatedPDFEndsTheJobWithAReadableReasonAndNoFile() throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([try Self.cut("report.pdf", to: 1.0 / 2, as: "broken-report.pdf")])
        try cups.waitForJobs()
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(id)-") }.isEmpty)
        let report = try cups.finishedJobReport(id, awaiting: "Status: swiftprint: broken-report.pdf:")
        #expect(report.contains("Status: swiftprint: broken-report.pdf:"), "\(report)")
        #expect(report.lowercased().contains("truncated") || report.contains("damaged") || report.contains("not a PDF"), "\(report)")
        // Nothing half-written either.
        let partial = (try FileManager.default.contentsOfDirectory(atPath: cups.saved + "/root")).filter { $0.hasPrefix(".") }
        #expect(partial.isEmpty)
    }

    /// An iPhone's job cut off in its second page fails with the page named, and saves nothing.
    @Test func aTruncatedRasterJobSaysWhichPage() throws {
        let cups = try PrivateCUPS.shared()
        let id = try cups.submit([try Self.cut("job.urf", to: 3.0 / 4, as: "cut-job.urf")])
        try cups.waitForJobs()
        #expect(cups.savedFiles().filter { $0.hasPrefix("\(id)-") }.isEmpty)
        let report = try cups.finishedJobReport(id, awaiting: "page 2 is truncated")
        #expect(report.contains("cut-job.urf") && report.contains("page 2 is truncated"), "\(report)")
    }

    @Test func twentyJobsAtOnceGiveTwentyFiles() throws {
        let cups = try PrivateCUPS.shared()
        let ids = try (1...20).map { n in try cups.submit([examples + "/multilingual.txt"], title: "burst-\(n)") }
        try cups.waitForJobs()
        for (n, id) in zip(1..., ids) {
            #expect(FileManager.default.fileExists(atPath: cups.saved + "/root/\(id)-burst-\(n).pdf"))
        }
    }

    @Test func aFilterKilledMidJobLeavesNoPartialFile() throws {
        let cups = try PrivateCUPS.shared()
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        let big = dir + "/big.log"
        let line = "2026-11-22 10:00:00.000 INFO  worker-01 GET /api/v1/items/12345 status=200 bytes=12345\n"
        try String(repeating: line, count: 400_000).write(toFile: big, atomically: false, encoding: .utf8)
        chmod(big, 0o644)
        let id = try cups.submit([big], title: "killed")
        // Wait for the filter to start, then stop it the way cupsd cancelling a job does.
        // cupsd gives a filter the queue's name as argv[0]: find it by its executable.
        let filter = cups.root + "/prefix/libexec/swiftprint/swiftprint-filter"
        var killed = false
        for _ in 0..<400 where !killed {
            for pid in try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap({ Int32($0) })
            where (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == filter {
                kill(pid, SIGTERM); killed = true
            }
            usleep(10_000)
        }
        #expect(killed)
        try cups.waitForJobs()
        let left = cups.savedFiles().filter { $0.hasPrefix("\(id)-") || $0.hasPrefix(".\(id)-") }
        #expect(left.isEmpty, "\(left)")
    }

    /// The spare markup renderer through CUPS (issue 40): a spare started as the filter's user
    /// with cupsd's TempDir, as the service `install` writes starts it, is taken by the filter of
    /// the next HTML job, which it serves alone before it exits.
    @Test func anHTMLJobTakesTheFiltersSpareRenderer() throws {
        let cups = try PrivateCUPS.shared()
        let helper = cups.root + "/prefix/libexec/swiftprint/swiftprint-markup"
        let unit = try String(contentsOfFile: cups.root + "/prefix/lib/systemd/system/swiftprint-markup-spare.service", encoding: .utf8)
        #expect(unit.contains("User=lp") && unit.contains("ExecStart=\(helper) --spare") && unit.contains("Restart=always"), "\(unit)")
        let spare = Process()
        spare.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        spare.arguments = ["-u", "lp", "--", "/usr/bin/env", "-i", "TMPDIR=\(cups.root)/spool/tmp", "PATH=/usr/bin:/bin", helper, "--spare"]
        spare.currentDirectoryURL = URL(fileURLWithPath: "/")
        let out = Pipe()
        spare.standardOutput = out
        spare.standardError = FileHandle.nullDevice
        try withNoSignalsBlocked { try spare.run() }
        defer { _ = try? Tool.run("pkill", ["-u", "lp", "-f", helper + " --spare"]) }
        let said = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        try #require(said.hasPrefix("ready "), "the spare said \"\(said)\"")

        let id = try cups.submit([Self.fixtures + "/page.html"], options: ["media": "A4"])
        try cups.waitForJobs()
        let report = try cups.finishedJobReport(id)
        #expect(report.contains("\(id)"), "\(report)")
        #expect(cups.savedFiles().contains("\(id)-page.html.pdf"), "\(cups.savedFiles())")
        let log = (try? String(contentsOfFile: cups.root + "/log/error_log", encoding: .utf8)) ?? ""
        #expect(log.contains("[Job \(id)] using a spare markup renderer"), "the filter did not take the spare")
        // It served that job only, and is gone.
        let end = Date().addingTimeInterval(15)
        while spare.isRunning && Date() < end { usleep(100_000) }
        #expect(!spare.isRunning, "the spare still runs after its job")
    }
}
