import Foundation
import TestSupport
import Testing

/// A printer that goes away in the middle of a job and comes back (switched off, unplugged,
/// restarted by its owner): the job is sent again from its start once the printer answers, with
/// the reason in cupsd's log, and the next job prints. Without swiftprint's relay, CUPS 2.4's
/// ipp backend marks such a job completed, and the filter's broken pipe stops it, printed half
/// or not at all (PrinterRelay says how).
extension PrinterQueueTests {
    /// Waits until `printer` keeps a document of at least `bytes` bytes; its path.
    static func waitForDocument(on printer: IPPEverywherePrinter, atLeast bytes: Int, seconds: Double = 60) throws -> String {
        let end = Date().addingTimeInterval(seconds * Sanitizer.patience)
        while Date() < end {
            for path in printer.kept {
                if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size >= bytes { return path }
            }
            usleep(50_000)
        }
        throw Failure("\(printer.name) received no document of \(bytes) bytes: \(printer.kept)")
    }

    /// Waits for `queue`'s jobs; when they do not end, says where job `id` is and what cupsd
    /// logged of it.
    static func waitForJobs(_ s: Setup, on queue: String, id: Int, timeout: Double) throws {
        do {
            try s.cups.waitForJobs(on: queue, timeout: timeout)
        } catch {
            let state = (try? Tool.run("lpstat", ["-h", s.cups.server, "-l", "-o", queue]).text) ?? ""
            let log = s.log().split(separator: "\n").filter { $0.contains("[Job \(id)]") && !$0.contains("envp[") && !$0.contains("argv[") }
            throw Failure("\(error)\n\(state)\n" + log.suffix(150).joined(separator: "\n"))
        }
    }

    /// The printer is switched off while the job's raster is on its way to it (a 40-page text
    /// job at 600 dpi), and on again three seconds later: the relay sees the ipp backend stop
    /// with the document unread and a printer up for less time than the job has run, and hands
    /// the job back to cupsd; it is sent again whole. The printer's half document stays with the
    /// printer (whose business it is); the last one it keeps is the whole job, as many pages as
    /// `swiftprint convert` makes of it.
    @Test func aPrinterSwitchedOffMidSendGetsTheWholeJobOnceBack() throws {
        let s = try Setup.shared()
        var printer = try IPPEverywherePrinter(name: "UnpluggedDevice", duplex: false, color: true, formats: ["image/pwg-raster"])
        let port = printer.port
        defer { printer.stop() }
        let install = try s.swiftprint(["install"] + s.cups.installArguments + ["--printer", printer.uri + "?contimeout=1", "--name", "Unplugged"])
        try #require(install.status == 0, "\(install.stderr)")
        defer { _ = try? s.swiftprint(["uninstall"] + s.cups.installArguments + ["--name", "Unplugged"]) }
        let queues = try Tool.run("lpstat", ["-h", s.cups.server, "-v", "Unplugged"]).text
        #expect(queues.contains("swiftprint-ipp://127.0.0.1:\(port)/ipp/print?contimeout=1"), "the queue sends through the relay: \(queues)")

        let dir = try temporaryDirectory()
        let file = dir + "/long.txt"
        try Data((1...2400).map { "line \($0) of a job whose printer is switched off half-way" }.joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        let id = try s.cups.submit([file], to: "Unplugged", options: ["media": "A4"])
        _ = try Self.waitForDocument(on: printer, atLeast: 200_000)
        printer.switchOff()
        sleep(3)
        printer = try IPPEverywherePrinter(name: "UnpluggedDevice", duplex: false, color: true, formats: ["image/pwg-raster"], port: port)
        try Self.waitForJobs(s, on: "Unplugged", id: id, timeout: 120)

        let report = try s.cups.finishedJobReport(id, queue: "Unplugged")
        #expect(s.log().contains("swiftprint: the printer 127.0.0.1 restarted"), "the reason is logged")
        #expect(!report.contains("cannot write the output"), "the filter's broken pipe is not the job's reason: \(report)")
        let direct = dir + "/direct.pdf", back = dir + "/back.pdf"
        let kept = try #require(printer.kept.last, "the printer got the job again")
        for args in [[file, "--media", "A4", "--margins", Self.printerA4Margins, "-o", direct], [kept, "-o", back]] {
            let c = try s.swiftprint(["convert"] + args)
            try #require(c.status == 0, "convert \(args): \(c.stderr)")
        }
        #expect(try PDF.pageCount(back) == PDF.pageCount(direct), "the printer's last document is the whole job")
        #expect(try PDF.pageCount(direct) > 20)

        // The next job prints, once.
        let before = printer.kept.count
        let note = dir + "/note.txt"
        try Data("the next job".utf8).write(to: URL(fileURLWithPath: note))
        chmod(note, 0o644)
        _ = try s.cups.submit([note], to: "Unplugged")
        try s.cups.waitForJobs(on: "Unplugged", timeout: 60)
        #expect(printer.kept.count == before + 1)
    }

    /// The printer has the whole document and is printing it (four seconds a job here) when it
    /// restarts: it no longer knows the job, which it had answered for, and it has been up for
    /// less time than the job has run. The job is printed again. A printer that was up all
    /// along keeps the ipp backend's word: the next job, printed normally, is kept once.
    @Test func aPrinterRestartedWhilePrintingGetsTheJobAgain() throws {
        let s = try Setup.shared()
        var printer = try IPPEverywherePrinter(name: "RestartingDevice", duplex: false, color: false, formats: ["application/pdf"], printSeconds: 4)
        let port = printer.port
        defer { printer.stop() }
        let install = try s.swiftprint(["install"] + s.cups.installArguments + ["--printer", printer.uri + "?contimeout=1", "--name", "Restarting"])
        try #require(install.status == 0, "\(install.stderr)")
        defer { _ = try? s.swiftprint(["uninstall"] + s.cups.installArguments + ["--name", "Restarting"]) }

        let dir = try temporaryDirectory()
        let file = dir + "/letter.txt"
        try Data("a letter the printer loses when it restarts".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        let id = try s.cups.submit([file], to: "Restarting")
        let first = try Self.waitForDocument(on: printer, atLeast: 1000)
        // The ipp backend asks after the job each second or so while it prints.
        sleep(3)
        printer.switchOff()
        printer = try IPPEverywherePrinter(name: "RestartingDevice", duplex: false, color: false, formats: ["application/pdf"], port: port,
                                           printSeconds: 4)
        try Self.waitForJobs(s, on: "Restarting", id: id, timeout: 120)
        #expect(s.log().contains("swiftprint: the printer 127.0.0.1 restarted") && s.log().contains("no longer knows the job"), "the reason is logged")
        let again = printer.kept.filter { $0 != first }
        #expect(again.count == 1, "the job was sent again, once: \(printer.kept)")
        if let again = again.first { #expect(try PDF.text(again).contains("a letter the printer loses")) }

        let before = printer.kept.count
        _ = try s.cups.submit([file], to: "Restarting")
        try s.cups.waitForJobs(on: "Restarting", timeout: 60)
        #expect(printer.kept.count == before + 1, "a job the printer finished is sent once")
    }

    /// A job cancelled while the printer prints it (`cancel`, as cupsd does it: SIGTERM to the
    /// backend) is cancelled at the printer too: the relay passes the signal to CUPS's ipp
    /// backend, which sends Cancel-Job, and no backend process is left.
    @Test func aJobCancelledOnTheQueueIsCancelledAtThePrinter() throws {
        let s = try Setup.shared()
        let printer = try IPPEverywherePrinter(name: "CancelDevice", duplex: false, color: false, formats: ["application/pdf"], printSeconds: 8)
        defer { printer.stop() }
        let install = try s.swiftprint(["install"] + s.cups.installArguments + ["--printer", printer.uri, "--name", "Cancelling"])
        try #require(install.status == 0, "\(install.stderr)")
        defer { _ = try? s.swiftprint(["uninstall"] + s.cups.installArguments + ["--name", "Cancelling"]) }
        let file = try temporaryDirectory() + "/draft.txt"
        try Data("a draft nobody wants printed".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        let id = try s.cups.submit([file], to: "Cancelling")
        _ = try Self.waitForDocument(on: printer, atLeast: 1000)
        sleep(1)
        #expect(try Tool.run("cancel", ["-h", s.cups.server, "Cancelling-\(id)"]).status == 0)
        try Self.waitForJobs(s, on: "Cancelling", id: id, timeout: 30)

        // ippeveprinter numbers its jobs from 1, and this printer had only this one.
        var state = try ippJobState(1, at: printer.uri)
        for _ in 0..<20 where state != "canceled" {
            usleep(500_000)
            state = try ippJobState(1, at: printer.uri)
        }
        #expect(state == "canceled", "the printer's job is cancelled")
        #expect(Self.processes(withArgument: "draft.txt").isEmpty, "no backend is left, under cupsd or orphaned")
    }

    /// Every process on the machine one of whose arguments is `argument`: its pid and program.
    static func processes(withArgument argument: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard Int32(entry) != nil, let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let args = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return args.contains(argument) ? "\(entry) \(args.first ?? "")" : nil
        }
    }
}
