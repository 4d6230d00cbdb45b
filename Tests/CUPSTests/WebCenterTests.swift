import Foundation
import SwiftPrint
import TestSupport
import Testing

/// `swiftprint center` (issue 45), the Print Center as a web page, against the suite's cupsd
/// and its printers: what it serves, to whom, and the actions it takes, through curl as a
/// browser would send them (and as another site's page would try to).
extension PrinterTests {
    /// A running `swiftprint center` for this cupsd: its address and token; stopped by `stop`.
    final class WebCenter {
        let process = Process()
        let base: String
        let token: String

        init(cups: PrivateCUPS, arguments: [String] = [], environment: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: Tool.swiftprint)
            process.arguments = ["center"] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["CUPS_SERVER": cups.server].merging(environment) { $1 }) { $1 }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Its one line: "swiftprint center: http://127.0.0.1:PORT/?token=TOKEN".
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let part = out.fileHandleForReading.availableData
                if part.isEmpty { break }
                line += part
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let match = text.firstMatch(of: /swiftprint center: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([0-9a-f]{64})/) else {
                process.terminate()
                throw Failure("swiftprint center said: \(text)")
            }
            base = String(match.1)
            token = String(match.2)
        }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        /// curl's answer: the status, and the body.
        func request(_ path: String, method: String = "GET", headers: [String: String] = [:], withToken: Bool = true,
                     maxTime: Double = 10, file: String? = nil, json: String? = nil) throws -> (status: Int, body: String) {
            var args = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, "--max-time", String(maxTime)]
            if let file { args += ["--data-binary", "@" + file] }
            if let json { args += ["-H", "Content-Type: application/json", "--data-binary", json] }
            var all = headers
            if withToken { all["X-SwiftPrint-Token"] = token }
            for (name, value) in all.sorted(by: { $0.key < $1.key }) { args += ["-H", "\(name): \(value)"] }
            let r = try Tool.run("/usr/bin/curl", args + [base + path])
            let text = r.text
            let cut = text.lastIndex(of: "\n") ?? text.startIndex
            return (Int(text[text.index(after: cut)...]) ?? 0, String(text[..<cut]))
        }
    }

    /// Three pages as PDF: what the IPP Everywhere queues take from `lp` as it is.
    func threePagesPDF(_ s: Setup) throws -> String {
        let pdf = try temporaryDirectory() + "/three.pdf"
        let r = try s.swiftprint(["convert", try threePages(), "-o", pdf])
        guard r.status == 0 else { throw Failure("convert: \(r.stderr)") }
        return pdf
    }

    @Test func theWebCenterShowsPrintersAndJobsToItsTokenOnly() throws {
        let s = try Setup.shared()
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        // The page itself holds nobody's data.
        let page = try center.request("/", withToken: false)
        #expect(page.status == 200 && page.body.contains("<script src=\"/center.js\""), "\(page)")
        // Printers: every queue of this cupsd, with its capabilities, to the token only.
        #expect(try center.request("/api/printers", withToken: false).status == 403)
        #expect(try center.request("/api/printers", headers: ["X-SwiftPrint-Token": String(repeating: "0", count: 64)], withToken: false).status == 403)
        let printers = try center.request("/api/printers")
        #expect(printers.status == 200, "\(printers)")
        let listed = try JSONDecoder().decode([Printer].self, from: Data(printers.body.utf8))
        #expect(Set(listed.map(\.name)).isSuperset(of: ["Office", "Lobby"]), "\(listed.map(\.name))")
        #expect(listed.first { $0.name == "Office" }?.capabilities?.sides.contains("two-sided-long-edge") == true)
        // Another name for this address (a site rebinding its name to 127.0.0.1) reaches nothing.
        let port = center.base.split(separator: ":").last!
        #expect(try center.request("/api/printers", headers: ["Host": "attacker.example:\(port)"]).status == 403)
    }

    @Test func theWebCenterCancelsAJobOnlyFromItsOwnPage() throws {
        let s = try Setup.shared()
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        let id = try s.cups.submit([try threePagesPDF(s)], to: "Office", options: ["job-hold-until": "indefinite"], title: "held for the center")
        let jobs = try center.request("/api/jobs")
        #expect(jobs.status == 200 && jobs.body.contains("\"id\":\(id)") && jobs.body.contains("held for the center"), "\(jobs)")
        // The event stream sends the same list, the token in its address (EventSource sends no headers).
        let events = try center.request("/api/events?token=\(center.token)", withToken: false, maxTime: 1.5)
        #expect(events.body.hasPrefix("event: jobs\ndata: [") && events.body.contains("\"id\":\(id)"), "\(events)")
        #expect(try center.request("/api/events", withToken: false, maxTime: 1.5).status == 403)

        // Refused: no token (another user on this machine); a form posted from another site
        // (it can set neither the header nor its origin); a fetch another site's page makes.
        let cancel = "/api/jobs/\(id)/cancel"
        #expect(try center.request(cancel, method: "POST", withToken: false).status == 403)
        #expect(try center.request(cancel, method: "POST", headers: ["Origin": "http://attacker.example"]).status == 403)
        #expect(try center.request(cancel, method: "POST", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).first { $0.id == id }?.state == .held)

        // From its own page: cancelled.
        let done = try center.request(cancel, method: "POST", headers: ["Origin": center.base, "Sec-Fetch-Site": "same-origin"])
        #expect(done.status == 204, "\(done)")
        #expect(try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).first { $0.id == id }?.state == .cancelled)
        let again = try center.request(cancel, method: "POST")
        #expect(again.status == 409, "a finished job cannot be cancelled again: \(again)")

        // Root administers CUPS: its page may list every user's jobs and act on them as cupsd
        // allows; its own list stays its own.
        #expect(try center.request("/api/me").body == #"{"administrator":true,"user":"root"}"#)
        let ivys = try s.cups.submit([try threePagesPDF(s)], to: "Office", options: ["job-hold-until": "indefinite"], title: "ivy's", user: "ivy")
        defer { _ = try? Tool.run("cancel", ["-h", s.cups.server, String(ivys)]) }
        #expect(!(try center.request("/api/jobs").body.contains("\"id\":\(ivys)")))
        let everyone = try center.request("/api/jobs?users=all")
        #expect(everyone.status == 200 && everyone.body.contains("\"id\":\(ivys)") && everyone.body.contains("\"user\":\"ivy\""), "\(everyone)")
        #expect(try center.request("/api/jobs/\(ivys)/cancel", method: "POST").status == 204)
    }
}

extension PrinterTests {
    /// Hold, release and cancel-all act on the page's user's jobs, as `lp -H` and `cancel -a`
    /// would; a job another user holds stays as it is.
    @Test func theWebCenterHoldsReleasesAndCancelsAllOfItsUsersJobs() throws {
        let s = try Setup.shared()
        let center = try WebCenter(cups: s.cups, environment: ["CUPS_USER": "frank"])
        defer { center.stop() }
        let pdf = try threePagesPDF(s)
        func state(_ id: Int, of user: String = "frank") throws -> JobStatus.State? {
            let r = try Tool.run(Tool.swiftprint, ["jobs", "--all", "--json"], environment: ["CUPS_SERVER": s.cups.server, "CUPS_USER": user])
            return try Self.jobs(from: r.stdout).first { $0.id == id }?.state
        }
        let held = try s.cups.submit([pdf], to: "Office", options: ["job-hold-until": "indefinite"], title: "frank's first", user: "frank")
        let second = try s.cups.submit([pdf], to: "Office", options: ["job-hold-until": "indefinite"], title: "frank's second", user: "frank")
        let gina = try s.cups.submit([pdf], to: "Office", options: ["job-hold-until": "indefinite"], title: "gina's", user: "gina")
        defer { _ = try? Tool.run("cancel", ["-h", s.cups.server, String(gina)]) }

        // Released: it prints, and a finished job can be held no more.
        #expect(try center.request("/api/jobs/\(held)/release", method: "POST").status == 204)
        let end = Date().addingTimeInterval(60)
        while try state(held) != .completed, Date() < end { usleep(200_000) }
        #expect(try state(held) == .completed)
        let late = try center.request("/api/jobs/\(held)/hold", method: "POST")
        #expect(late.status == 409 && late.body.contains("cannot hold job \(held)"), "\(late)")
        // Another user's job: neither released nor held from this page, nor listed: frank does
        // not administer CUPS (no account here, so in no SystemGroup).
        #expect(try center.request("/api/jobs/\(gina)/release", method: "POST").status == 403)
        #expect(try center.request("/api/me").body == #"{"administrator":false,"user":"frank"}"#)
        let everyone = try center.request("/api/jobs?users=all")
        #expect(everyone.status == 403 && everyone.body.contains("administrators only"), "\(everyone)")

        // Cancel all: frank's unfinished jobs, gina's left held.
        let all = try center.request("/api/jobs/cancel-all", method: "POST")
        #expect(all.status == 200 && all.body == #"{"cancelled":[\#(second)]}"#, "\(all)")
        #expect(try state(second) == .cancelled)
        #expect(try state(gina, of: "gina") == .held)
        #expect(try center.request("/api/jobs/cancel-all", method: "POST", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
    }
}

extension PrinterTests {
    /// The swiftprint queue's saved PDFs of this user's: listed, opened, downloaded, drawn,
    /// deleted, by id only.
    @Test func theWebCenterListsOpensAndDeletesSavedPDFs() throws {
        let s = try Setup.shared()
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        let id = try s.cups.submit([try threePagesPDF(s)], to: "swiftprint", title: "center-saved")
        let path = s.cups.saved + "/root/\(id)-center-saved.pdf"
        let end = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: path), Date() < end { usleep(200_000) }
        try s.cups.waitForJobs()

        let listed = try center.request("/api/saved")
        #expect(listed.status == 200, "\(listed)")
        struct Saved: Decodable { var id, queue, name: String; var bytes: Int }
        let saved = try #require(try JSONDecoder().decode([Saved].self, from: Data(listed.body.utf8)).first { $0.name == "\(id)-center-saved.pdf" })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved.queue == "swiftprint" && saved.bytes == bytes.count && !listed.body.contains(s.cups.saved), "\(listed.body)")

        // Opened and downloaded whole; its first page drawn as PNG.
        let open = try Tool.run("/usr/bin/curl", ["-s", "-D", "-", "-o", "/dev/null", center.base + "/api/saved/\(saved.id)?token=\(center.token)&download=1"])
        let head = open.text.lowercased()
        #expect(head.contains("content-type: application/pdf") && head.contains("content-disposition: attachment; filename*=utf-8''\(id)-center-saved.pdf"), "\(open.text)")
        let whole = try Tool.run("/usr/bin/curl", ["-s", center.base + "/api/saved/\(saved.id)?token=\(center.token)"])
        #expect(whole.stdout == bytes)
        let thumbnail = try Tool.run("/usr/bin/curl", ["-s", center.base + "/api/saved/\(saved.id)/thumbnail?token=\(center.token)"])
        #expect(thumbnail.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(thumbnail.text.prefix(200))")

        // Only listed files answer: an id spelling a path, no token, another site: refused.
        let forged = Array("swiftprint\u{0}../../../etc/passwd".utf8).map { String(format: "%02x", $0) }.joined()
        #expect(try center.request("/api/saved/\(forged)").status == 404)
        #expect(try center.request("/api/saved/\(saved.id)", withToken: false).status == 403)
        #expect(try center.request("/api/saved/\(saved.id)", method: "DELETE", headers: ["Origin": "http://attacker.example"]).status == 403)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try center.request("/api/saved/\(saved.id)", method: "DELETE").status == 204)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try center.request("/api/saved/\(saved.id)").status == 404)
    }
}

/// Files printed from the page: kept privately, typed, previewed and printed by `swiftprint`,
/// with the form's options; and what the page must refuse.
extension PrinterTests {
    struct Uploaded: Decodable {
        var id, name, mime, handler: String
        var preview: Preview
    }
    struct Preview: Decodable { var sides: [String]; var total: Int }

    /// The sides a preview of `id` with `options` shows.
    func previewSides(_ center: WebCenter, _ id: String, _ options: String) throws -> Int {
        let r = try center.request("/api/files/\(id)/preview", method: "POST", json: #"{"options": \#(options)}"#)
        guard r.status == 200 else { throw Failure("preview \(options): \(r)") }
        let preview = try JSONDecoder().decode(Preview.self, from: Data(r.body.utf8))
        guard preview.sides.count == min(preview.total, 24) else { throw Failure("preview \(options): \(preview.sides.count) of \(preview.total) sides drawn") }
        return preview.total
    }

    @Test func theWebCenterTypesPreviewsAndPrintsAFileKeptPrivately() throws {
        let s = try Setup.shared()
        // Its own temporary folder, to see what it keeps; and a user of its own (libcups's
        // CUPS_USER), so that "this user's jobs" is not root's, whom CUPS lets do anything.
        let temporary = try temporaryDirectory()
        let center = try WebCenter(cups: s.cups, arguments: ["--max-upload", "1"], environment: ["TMPDIR": temporary, "CUPS_USER": "carol"])
        defer { center.stop() }
        let pdf = try threePagesPDF(s)
        func kept() -> [String] { (FileManager.default.subpaths(atPath: temporary) ?? []).filter { $0.hasSuffix(".pdf") }.sorted() }

        // A name with a path in it: shown as its last part, kept under a name of the server's.
        let sent = try center.request("/api/files", method: "POST", headers: ["X-SwiftPrint-File-Name": "..%2F..%2F..%2Fetc%2Fthree.pdf"], file: pdf)
        #expect(sent.status == 201, "\(sent)")
        let file = try JSONDecoder().decode(Uploaded.self, from: Data(sent.body.utf8))
        #expect(file.name == "three.pdf" && file.mime == "application/pdf" && file.handler == "pdf", "\(file.name) \(file.mime)")
        #expect(file.preview.sides.count == 3 && file.preview.sides.allSatisfy { $0.hasPrefix("data:image/png;base64,") })
        #expect(!FileManager.default.fileExists(atPath: "/etc/three.pdf"))
        let stored = kept()
        #expect(stored.count == 1 && stored[0].hasSuffix("/document.pdf") && !sent.body.contains(temporary), "\(stored)")
        let folder = temporary + "/" + stored[0].split(separator: "/")[0]
        #expect((try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int) == 0o700)

        // The preview follows the options, as `swiftprint preview` draws them.
        #expect(try previewSides(center, file.id, #"{"number-up": "2"}"#) == 2)
        #expect(try previewSides(center, file.id, #"{"number-up": "4"}"#) == 1)
        #expect(try previewSides(center, file.id, #"{"booklet": "on"}"#) == 2)
        #expect(try previewSides(center, file.id, #"{"page-ranges": "2-3", "sides": "two-sided-long-edge"}"#) == 2)
        // A long document: the first 24 sides drawn, and how many the job has.
        let long = try temporaryDirectory() + "/thirty.txt"
        try (1...30).map { "page \($0)" }.joined(separator: "\u{0C}").write(toFile: long, atomically: false, encoding: .utf8)
        let thirty = try center.request("/api/files", method: "POST", headers: ["X-SwiftPrint-File-Name": "thirty.txt"], file: long)
        let longFile = try JSONDecoder().decode(Uploaded.self, from: Data(thirty.body.utf8))
        #expect(longFile.handler == "text" && longFile.preview.total == 30 && longFile.preview.sides.count == 24, "\(longFile.preview.total)")
        #expect(try previewSides(center, longFile.id, #"{"number-up": "2"}"#) == 15)
        #expect(try center.request("/api/files/\(longFile.id)", method: "DELETE").status == 204)

        // Options the form does not have, values an option does not take, files by name: refused.
        for (options, says) in [(#"{"bogus": "1"}"#, "--bogus: not an option"), (#"{"number-up": "zero"}"#, "number-up"),
                                (#"{"booklet": "maybe"}"#, "on or off"), (#"{"allow-files": "/etc"}"#, "--allow-files: not an option"),
                                (#"{"page-ranges": "9"}"#, "three.pdf")] {
            let r = try center.request("/api/files/\(file.id)/preview", method: "POST", json: #"{"options": \#(options)}"#)
            #expect((r.status == 400 || r.status == 422) && r.body.contains(says) && !r.body.contains(temporary), "\(options): \(r)")
        }
        #expect(try center.request("/api/files/\(file.id)/preview", method: "POST", withToken: false, json: #"{"options": {}}"#).status == 403)
        #expect(try center.request("/api/files", method: "POST", headers: ["Origin": "http://attacker.example"], file: pdf).status == 403)

        // Larger than --max-upload (1 MB): refused as it arrives, nothing of it kept.
        let big = try temporaryDirectory() + "/big.pdf"
        try Data(repeating: 0x20, count: 3 << 20).write(to: URL(fileURLWithPath: big))
        let tooBig = try center.request("/api/files", method: "POST", headers: ["X-SwiftPrint-File-Name": "big.pdf"], file: big)
        #expect(tooBig.status == 413 && tooBig.body.contains("big.pdf"), "\(tooBig)")
        // A type swiftprint does not print: refused, naming the file, and not kept.
        let noise = try temporaryDirectory() + "/noise.bin"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }).write(to: URL(fileURLWithPath: noise))
        let unknown = try center.request("/api/files", method: "POST", headers: ["X-SwiftPrint-File-Name": "noise.bin"], file: noise)
        #expect(unknown.status == 415 && unknown.body.contains("noise.bin"), "\(unknown)")
        #expect(kept() == stored)

        // Printed two-sided on Office: the job is carol's, titled by the file's name, and CUPS
        // holds it now, so the upload is gone.
        let printed = try center.request("/api/files/\(file.id)/print", method: "POST",
                                         json: #"{"printer": "Office", "options": {"sides": "two-sided-long-edge", "number-up": "2"}}"#)
        #expect(printed.status == 200, "\(printed)")
        let job = try #require(try JSONSerialization.jsonObject(with: Data(printed.body.utf8)) as? [String: Int])["job"]
        #expect(kept().isEmpty)
        let mine = try center.request("/api/jobs?all=1")
        #expect(mine.body.contains("\"id\":\(job ?? -1)") && mine.body.contains("three.pdf"), "\(mine)")
        #expect(try center.request("/api/files/\(file.id)/preview", method: "POST", json: #"{"options": {}}"#).status == 404)

        // A second user's job: not listed, and not cancelled from carol's page.
        let theirs = try s.cups.submit([pdf], to: "Office", options: ["job-hold-until": "indefinite"], title: "dave's", user: "dave")
        defer { _ = try? Tool.run("cancel", ["-h", s.cups.server, String(theirs)]) }
        #expect(!(try center.request("/api/jobs").body.contains("\"id\":\(theirs)")))
        // (This cupsd's policy would let anyone cancel anything: the page itself refuses.)
        let cancel = try center.request("/api/jobs/\(theirs)/cancel", method: "POST")
        #expect(cancel.status == 403 && cancel.body.contains("not one of yours"), "\(cancel)")
        let daves = try Tool.run(Tool.swiftprint, ["jobs", "--all", "--json"], environment: ["CUPS_SERVER": s.cups.server, "CUPS_USER": "dave"])
        #expect(try Self.jobs(from: daves.stdout).first { $0.id == theirs }?.state == .held)

        // Stopped: nothing of carol's files stays.
        center.stop()
        #expect((try FileManager.default.contentsOfDirectory(atPath: temporary)).filter { $0.hasPrefix("swiftprint-center-") }.isEmpty)
    }
}

/// The Print Center in a real browser (Debian's Chromium, headless, through chromedriver):
/// the printers of the suite's cupsd, a job appearing live, cancelled from the page. A
/// screenshot of each step is left in .build/screenshots/ to be looked at.
extension PrinterTests {
    static let screenshots = directory() + "/../../.build/screenshots"

    @Test(.enabled(if: WebDriver.canRun, "needs chromium and chromium-driver"))
    func theWebCenterInABrowserShowsAJobLiveAndCancelsIt() throws {
        let s = try Setup.shared()
        _ = try s.lobbyReportedSupplies()
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let browser = try WebDriver()
        defer { browser.quit() }
        try browser.open(center.base + "/?token=" + center.token)
        try browser.wait(until: #"return ["Office", "Lobby"].every(n => document.querySelector(`[data-printer="${n}"]`))"#)
        let office = try browser.run(#"return document.querySelector('[data-printer="Office"]').innerText"#) as? String ?? ""
        #expect(office.contains("two-sided-long-edge") && office.contains("monochrome"), "\(office)")
        // Lobby's inks: a meter each where the level is known, the low one marked, in words too.
        let supplies = try browser.run(#"""
            return [...document.querySelectorAll('[data-printer="Lobby"] [data-supply]')].map(s =>
              [s.dataset.supply, s.querySelector("meter")?.value ?? null, s.classList.contains("attention"), s.querySelector(".level").textContent].join("|"))
            """#) as? [Any] ?? []
        #expect(supplies.map { "\($0)" } == ["Cyan|80|false|80 %", "Magenta|45|false|45 %", "Yellow|8|true|8 % (low)",
                                              "Black||false|some left", "Waste|91|true|91 % (nearly full)"], "\(supplies)")
        // Root administers CUPS: the page offers every user's jobs.
        try browser.wait(until: "return !document.getElementById('all-users-choice').hidden")
        try browser.screenshot(to: Self.screenshots + "/web-center-1-printers.png")

        // A job sent now appears without a reload (the server's event stream).
        let id = try s.cups.submit([try threePagesPDF(s)], to: "Office", options: ["job-hold-until": "indefinite"], title: "seen in the browser")
        try browser.wait(until: "return !!document.querySelector('[data-job=\"\(id)\"][data-state=\"held\"]')")
        try browser.screenshot(to: Self.screenshots + "/web-center-2-job.png")

        // Held: it offers Release (and no Hold); its Cancel button, reached by keyboard as by
        // mouse: a real button, in the tab order.
        #expect(try browser.run("return !!document.querySelector('[data-release=\"\(id)\"]') && !document.querySelector('[data-hold=\"\(id)\"]')") as? Bool == true)
        let focusable = try browser.run("const b = document.querySelector('[data-cancel=\"\(id)\"]'); b.focus(); return document.activeElement === b && b.tagName === 'BUTTON'")
        #expect(focusable as? Bool == true)
        try browser.run("document.querySelector('[data-cancel=\"\(id)\"]').click()")
        try browser.wait(until: "return !document.querySelector('[data-job=\"\(id)\"]') && document.getElementById('status').textContent === 'Job \(id) cancelled.'")
        #expect(try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).first { $0.id == id }?.state == .cancelled)
        try browser.run("document.getElementById('show-finished').click()")
        try browser.wait(until: "return !!document.querySelector('[data-job=\"\(id)\"][data-state=\"cancelled\"]')")
        try browser.screenshot(to: Self.screenshots + "/web-center-3-cancelled.png")
        #expect(try browser.consoleErrors().isEmpty)
    }

    /// Drop a PDF and a photo, change n-up and see the PDF's preview change, print it, watch the
    /// job reach "completed"; remove the photo.
    @Test(.enabled(if: WebDriver.canRun, "needs chromium and chromium-driver"))
    func theWebCenterInABrowserPreviewsAndPrintsAFile() throws {
        let s = try Setup.shared()
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let browser = try WebDriver(width: 1100, height: 1400)
        defer { browser.quit() }
        try browser.open(center.base + "/?token=" + center.token)
        try browser.wait(until: #"return !!document.querySelector('[data-printer="Office"]')"#)
        let photo = URL(fileURLWithPath: directory() + "/../CLITests/Identity/photo.jpg").standardized.path
        try browser.choose(files: [try threePagesPDF(s), photo], in: "#files")
        try browser.wait(seconds: 30, until: "return [...document.querySelectorAll('.upload .sides')].filter(x => x.querySelector('img')).length === 2")
        let facts = try browser.run("return [...document.querySelectorAll('.upload')].map(u => u.querySelector('h3').textContent + ': ' + u.querySelector('.facts').textContent)") as? [String]
        #expect(facts == ["three.pdf: application/pdf · 3 sides", "photo.jpg: image/jpeg · 1 side"], "\(facts ?? [])")
        try browser.screenshot(to: Self.screenshots + "/web-center-4-files.png")

        // The PDF's form, opened by keyboard as by mouse: 2-up on Office, then the preview.
        let pdfCard = #"document.querySelectorAll('.upload')[0]"#
        try browser.run("\(pdfCard).querySelector('details').open = true")
        try browser.run("""
            const printer = \(pdfCard).querySelector('[data-printer-choice]'); printer.value = 'Office'; printer.dispatchEvent(new Event('change'));
            const up = \(pdfCard).querySelector('[data-flag="number-up"]'); up.focus(); up.value = '2'; up.dispatchEvent(new Event('input', {bubbles: true}));
            """)
        try browser.wait(seconds: 15, until: "return \(pdfCard).querySelector('.sides').dataset.sides === '2' && !\(pdfCard).querySelector('.sides[aria-busy]')")
        // Office's own choices of sides, not every keyword: the form follows the printer.
        let sides = try browser.run("return [...\(pdfCard).querySelectorAll('[data-flag=\"sides\"] option')].map(o => o.value).filter(Boolean)") as? [String]
        #expect(sides?.contains("two-sided-long-edge") == true, "\(sides ?? [])")
        try browser.screenshot(to: Self.screenshots + "/web-center-5-preview-2up.png")
        // At 200 % zoom (the same page in half the width) nothing runs off the side: the form's
        // fields and the sides wrap, the jobs table scrolls on its own.
        try browser.resize(width: 550, height: 1400)
        let overflow = try browser.run("return document.documentElement.scrollWidth - document.documentElement.clientWidth") as? Int
        #expect(overflow == 0, "the page is \(overflow ?? -1) px wider than the window at 200 %")
        try browser.screenshot(to: Self.screenshots + "/web-center-5b-200-percent.png")
        try browser.resize(width: 1100, height: 1400)

        try browser.run("\(pdfCard).querySelector('[data-print]').click()")
        try browser.wait(seconds: 30, until: "return /job \\d+ sent to Office/.test(document.getElementById('status').textContent)")
        let status = try browser.run("return document.getElementById('status').textContent") as? String ?? ""
        let job = Int(status.firstMatch(of: /job (\d+)/)?.1 ?? "") ?? -1
        try browser.run("document.getElementById('show-finished').click()")
        try browser.wait(seconds: 60, until: "return !!document.querySelector('[data-job=\"\(job)\"][data-state=\"completed\"]')")
        let listed = try Self.jobs(from: try s.swiftprint(["jobs", "--all", "--json"]).stdout).first { $0.id == job }
        #expect(listed?.state == .completed && listed?.title == "three.pdf", "\(String(describing: listed))")
        try browser.screenshot(to: Self.screenshots + "/web-center-6-printed.png")

        // The photo, printed to the swiftprint queue (save as PDF): it appears among the saved
        // PDFs with its first page drawn, and is deleted from there.
        try browser.run("""
            const card = document.querySelector('.upload'), printer = card.querySelector('[data-printer-choice]');
            printer.value = 'swiftprint'; printer.dispatchEvent(new Event('change')); card.querySelector('[data-print]').click();
            """)
        // Printed while the preview the printer change asked for may still be drawn: its late
        // answer must not overwrite the status line.
        try browser.wait(seconds: 30, until: "return /sent to|: /.test(document.getElementById('status').textContent)")
        usleep(1_500_000)
        let sentPhoto = try browser.run("return document.getElementById('status').textContent") as? String ?? ""
        #expect(sentPhoto.contains("sent to swiftprint"), "\(sentPhoto)")
        let photoJob = Int((try browser.run("return document.getElementById('status').textContent") as? String ?? "").firstMatch(of: /job (\d+)/)?.1 ?? "") ?? -1
        let card = "document.querySelector('[data-saved]')"
        try browser.wait(seconds: 60, until: "return [...document.querySelectorAll('[data-saved] h3')].some(h => h.textContent === '\(photoJob)-photo.jpg.pdf') && \(card).querySelector('img').complete && \(card).querySelector('img').naturalWidth > 0")
        try browser.screenshot(to: Self.screenshots + "/web-center-7-saved.png")
        let savedPath = s.cups.saved + "/root/\(photoJob)-photo.jpg.pdf"
        #expect(FileManager.default.fileExists(atPath: savedPath))
        try browser.run("[...document.querySelectorAll('[data-saved]')].find(c => c.querySelector('h3').textContent === '\(photoJob)-photo.jpg.pdf').querySelector('[data-delete-saved]').click()")
        try browser.wait(until: "return ![...document.querySelectorAll('[data-saved] h3')].some(h => h.textContent === '\(photoJob)-photo.jpg.pdf')")
        #expect(!FileManager.default.fileExists(atPath: savedPath))
        let errors = try browser.consoleErrors()
        #expect(errors.isEmpty, "\(errors)")
    }

    /// The page by keyboard alone, past choosing the file (the system's file dialog): Tab
    /// reaches every control in the page's order, each showing where focus is; Enter opens the
    /// options, typing 2 in number-up gives the 2-up preview, Enter on Print prints.
    @Test(.enabled(if: WebDriver.canRun, "needs chromium and chromium-driver"))
    func theWebCenterIsUsableByKeyboardAlone() throws {
        let s = try Setup.shared()
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        let browser = try WebDriver(width: 1100, height: 1400)
        defer { browser.quit() }
        try browser.open(center.base + "/?token=" + center.token)
        try browser.wait(until: #"return !!document.querySelector('[data-printer="Office"]')"#)
        try browser.choose(files: [try threePagesPDF(s)], in: "#files")
        try browser.wait(seconds: 30, until: "return !!document.querySelector('.upload .sides img')")
        // What has focus: a name for it, and whether it shows (its outline is not none).
        let focused = """
            const e = document.activeElement;
            if (!e || e === document.body) return "";
            const name = e.id ? "#" + e.id : e.tagName.toLowerCase() + [...e.attributes].filter(a => a.name.startsWith("data-")).map(a => "[" + a.name + "]").join("");
            return name + (getComputedStyle(e).outlineStyle === "none" ? " (no outline)" : "");
            """
        // From the file input, the page's first control, Tab until `wanted` has focus; each
        // stop on the way. (Focus is put there: after blur() Chromium goes on from where it was.)
        func tabUntil(_ wanted: String, presses: Int = 80) throws -> [String] {
            try browser.run("document.getElementById('files').focus()")
            var seen = [try browser.run(focused) as? String ?? ""]
            for _ in 0..<presses {
                try browser.press(.tab)
                let now = try browser.run(focused) as? String ?? ""
                seen.append(now)
                if now.hasPrefix(wanted) { return seen }
            }
            throw Failure("Tab never reached \(wanted): \(seen)")
        }
        // Through the whole page once: in order, and every stop visible.
        let order = try tabUntil("#cancel-all")
        #expect(!order.contains { $0.hasSuffix("(no outline)") }, "\(order)")
        let stops = ["#files", "#printer-", "button[data-print]", "button[data-remove]", "summary", "#show-finished", "#cancel-all"]
        let places = stops.map { stop in order.firstIndex { $0.hasPrefix(stop) } }
        #expect(places.allSatisfy { $0 != nil } && places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "\(order)")

        // Enter on the options' summary opens them; 2 typed in number-up.
        _ = try tabUntil("summary")
        try browser.press(.enter)
        #expect(try browser.run("return document.querySelector('.upload details').open") as? Bool == true)
        // On from the summary, through the form's fields in their order, to number-up.
        for _ in 0..<60 where try browser.run("return document.activeElement.dataset.flag") as? String != "number-up" { try browser.press(.tab) }
        #expect(try browser.run("return document.activeElement.dataset.flag") as? String == "number-up")
        try browser.type("2")
        #expect(try browser.run("return document.activeElement.value") as? String == "2")
        try browser.wait(seconds: 15, until: "return document.querySelector('.upload .sides').dataset.sides === '2' && !document.querySelector('.upload .sides[aria-busy]')")

        // Print, by Enter on its button.
        _ = try tabUntil("button[data-print]")
        try browser.press(.enter)
        try browser.wait(seconds: 30, until: "return /job \\d+ sent to /.test(document.getElementById('status').textContent)")
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        try browser.screenshot(to: Self.screenshots + "/web-center-8-keyboard.png")
        #expect(try browser.consoleErrors().isEmpty)
    }
}
