import Foundation
import TestSupport
import Testing

/// Faults around a job through a real cupsd (issue 41): cupsd restarted while the filter works
/// on a job, and the filter killed in the middle of one. Each time the job ends in a known way
/// (printed whole once, or failed saying why), nothing half-written is left in the spool folder
/// or cupsd's temporary folder, and the next job prints.
@Suite(.serialized, .enabled(if: PrivateCUPS.canRun)) struct SchedulerFaultTests {
    /// A text file of `lines` numbered lines: 60 to a page, about 1,500 pages a second for the
    /// filter, so that a job of it is still in the filter a second after it starts.
    func longText(lines: Int) throws -> String {
        let file = try temporaryDirectory() + "/long.txt"
        var text = ""
        text.reserveCapacity(lines * 90)
        for i in 0..<lines { text += String(format: "%06d  The quick brown fox jumps over the lazy dog; pack my box with five dozen jugs.\n", i) }
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o644)
        return file
    }

    /// Waits until cupsd runs a `name` process for a job, and returns its pid.
    func waitForJobProcess(_ cups: PrivateCUPS, named name: String) throws -> pid_t {
        let end = Date().addingTimeInterval(30 * Sanitizer.patience)
        while Date() < end {
            if let pid = cups.jobProcesses(named: name).first { return pid }
            usleep(20_000)
        }
        throw Failure("no \(name) ran for the job; see \(cups.root)/log/error_log")
    }

    /// What swiftprint may have left in the spool folder (anything but the saved PDFs) and in
    /// cupsd's temporary folder (anything at all).
    func leftovers(_ cups: PrivateCUPS) -> [String] {
        let fm = FileManager.default
        let saved = (fm.enumerator(atPath: cups.saved)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix(".pdf") && !((try? fm.attributesOfItem(atPath: cups.saved + "/" + $0))?[.type] as? FileAttributeType == .typeDirectory) }
        let temporary = (try? fm.contentsOfDirectory(atPath: cups.root + "/spool/tmp")) ?? []
        return saved.map { "saved/" + $0 } + temporary.filter { !$0.hasPrefix(".") && $0 != "cups-dbus-notifier-lockfile" }.map { "spool/tmp/" + $0 }
    }

    /// A package update restarts cupsd while the filter is half-way through a job: cupsd kills
    /// the job's filter and backend (SIGKILL: no handler of theirs runs) and keeps the job;
    /// started again, it runs the job from the start. The one PDF saved is whole, with every
    /// page; the partial file the killed backend left is removed by the job's next run, and
    /// another job's is removed by any later job once it is a minute old and no backend holds it.
    @Test func aJobOutlivesCupsdRestartedInItsMiddle() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let file = try longText(lines: 120_000)
        let id = try cups.submit([file], to: "swiftprint", title: "restarted")
        _ = try waitForJobProcess(cups, named: "swiftprint-filter")
        _ = try waitForJobProcess(cups, named: "swiftprint-backend")
        usleep(500_000)
        try cups.restart()
        try cups.waitForJobs(timeout: 120)
        let report = try cups.finishedJobReport(id)
        #expect(report.contains("restarted") || report.contains("\(id)"), "\(report)")
        let saved = cups.savedFiles()
        #expect(saved.count == 1 && saved.first?.hasSuffix("-restarted.pdf") == true, "one PDF, not two: \(saved)")
        if let name = saved.first {
            // Whole: its last page ends with the file's last line.
            let pdf = cups.saved + "/root/" + name
            let pages = try PDF.pageCount(pdf)
            let lastPage = try PDF.text(pdf, first: pages, last: pages)
            #expect(pages > 1000 && lastPage.filter { !$0.isWhitespace }.contains("119999Thequick"), "\(pages) pages")
        }
        #expect(leftovers(cups).isEmpty, "\(leftovers(cups))")

        // Another job's partial file, left two minutes ago, and one made a moment ago (as by a
        // backend writing now, between making the file and locking it).
        let folder = cups.saved + "/root/"
        for name in [".7-partial-abcdef", ".8-partial-ghijkl"] {
            #expect(FileManager.default.createFile(atPath: folder + name, contents: Data("%PDF-1.7\n".utf8)))
        }
        var old = [timespec(tv_sec: time(nil) - 120, tv_nsec: 0), timespec(tv_sec: time(nil) - 120, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, folder + ".7-partial-abcdef", &old, 0) == 0)
        let next = try cups.submit([try longText(lines: 60)], to: "swiftprint", title: "after")
        try cups.waitForJobs()
        let nextReport = try cups.finishedJobReport(next)
        #expect(cups.savedFiles().contains { $0.hasSuffix("-after.pdf") }, "the next job: \(nextReport)")
        #expect(!cups.savedFiles().contains(".7-partial-abcdef") && cups.savedFiles().contains(".8-partial-ghijkl"), "\(cups.savedFiles())")
    }

    /// The kernel's out-of-memory killer (or anyone) ends the filter with SIGKILL in the middle
    /// of a job: the backend, its input cut short, saves nothing; the job is stopped with its
    /// reason in `lpstat -l`, and the next job prints.
    @Test func aFilterKilledInTheMiddleOfAJobLeavesNothingHalfWritten() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let id = try cups.submit([try longText(lines: 120_000)], to: "swiftprint", title: "killed")
        let filter = try waitForJobProcess(cups, named: "swiftprint-filter")
        _ = try waitForJobProcess(cups, named: "swiftprint-backend")
        usleep(500_000)
        kill(filter, SIGKILL)
        try cups.waitForJobs(timeout: 60)
        let report = try cups.finishedJobReport(id, awaiting: "nothing saved")
        #expect(report.contains("killed: nothing saved; the filter stopped before finishing its PDF"), "the job says why: \(report)")
        #expect(cups.savedFiles().isEmpty, "\(cups.savedFiles())")
        #expect(leftovers(cups).isEmpty, "\(leftovers(cups))")

        let next = try cups.submit([try longText(lines: 60)], to: "swiftprint", title: "after")
        try cups.waitForJobs()
        let nextReport = try cups.finishedJobReport(next)
        #expect(cups.savedFiles().contains { $0.hasSuffix("-after.pdf") }, "the next job: \(nextReport)")
    }
}
