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

        init(cups: PrivateCUPS) throws {
            process.executableURL = URL(fileURLWithPath: Tool.swiftprint)
            process.arguments = ["center"]
            process.environment = ProcessInfo.processInfo.environment.merging(["CUPS_SERVER": cups.server]) { $1 }
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

        func stop() { process.terminate(); process.waitUntilExit() }

        /// curl's answer: the status, and the body.
        func request(_ path: String, method: String = "GET", headers: [String: String] = [:], withToken: Bool = true,
                     maxTime: Double = 10) throws -> (status: Int, body: String) {
            var args = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, "--max-time", String(maxTime)]
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
        let center = try WebCenter(cups: s.cups)
        defer { center.stop() }
        try FileManager.default.createDirectory(atPath: Self.screenshots, withIntermediateDirectories: true)
        let browser = try WebDriver()
        defer { browser.quit() }
        try browser.open(center.base + "/?token=" + center.token)
        try browser.wait(until: #"return ["Office", "Lobby"].every(n => document.querySelector(`[data-printer="${n}"]`))"#)
        let office = try browser.run(#"return document.querySelector('[data-printer="Office"]').innerText"#) as? String ?? ""
        #expect(office.contains("two-sided-long-edge") && office.contains("monochrome"), "\(office)")
        try browser.screenshot(to: Self.screenshots + "/web-center-1-printers.png")

        // A job sent now appears without a reload (the server's event stream).
        let id = try s.cups.submit([try threePagesPDF(s)], to: "Office", options: ["job-hold-until": "indefinite"], title: "seen in the browser")
        try browser.wait(until: "return !!document.querySelector('[data-job=\"\(id)\"][data-state=\"held\"]')")
        try browser.screenshot(to: Self.screenshots + "/web-center-2-job.png")

        // Its Cancel button, reached by keyboard as by mouse: a real button, in the tab order.
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
}
