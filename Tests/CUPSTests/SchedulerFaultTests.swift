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
    /// page; the partial file the killed backend left is removed by the job's next run (any job
    /// of its owner removes a partial file no backend holds).
    @Test func aJobOutlivesCupsdRestartedInItsMiddle() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        try printThroughARestart(cups, crashing: false)

        // Another job's partial file that no backend holds, and one that a backend (this test,
        // here) holds locked as it writes it.
        let folder = cups.saved + "/root/"
        for name in [".7-partial-abcdef", ".8-partial-ghijkl"] {
            #expect(FileManager.default.createFile(atPath: folder + name, contents: Data("%PDF-1.7\n".utf8)))
        }
        let writing = open(folder + ".8-partial-ghijkl", O_RDONLY | O_CLOEXEC)
        defer { close(writing) }
        #expect(flock(writing, LOCK_EX) == 0)
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

    /// cupsd killed (a crash, the out-of-memory killer) at three moments of a job drawn from a
    /// fixed seed (0–1.5 s after its filter and backend started): nothing stops the job's
    /// filter and backend, which must not go on without it (the started-again cupsd runs the job
    /// from the start, and the job would be saved twice). One whole PDF each time, nothing left
    /// behind or running.
    @Test func aJobOutlivesCupsdKilledInItsMiddle() throws {
        let cups = try PrivateCUPS.fresh(writingStateAtOnce: true)
        defer { cups.stop() }
        var generator = SeededGenerator(seed: 4242)
        for trial in 0..<3 {
            let delay = UInt32.random(in: 0...1_500_000, using: &generator)
            let survivors = try printThroughARestart(cups, crashing: true, after: delay, title: "killed\(trial)")
            #expect(survivors.isEmpty, "cupsd killed \(delay / 1000) ms into the job: its processes \(survivors) ran on without it")
        }
    }

    /// A long job with cupsd restarted (or killed and started again) half-way: the one PDF saved
    /// is whole, with every page, and nothing is left in the spool or temporary folders. Returns
    /// the first run's filter and backend still running 5 s after the job ended (none should).
    @discardableResult
    func printThroughARestart(_ cups: PrivateCUPS, crashing: Bool, after delay: UInt32 = 500_000, title: String = "restarted") throws -> [pid_t] {
        let file = try longText(lines: 120_000)
        let id = try cups.submit([file], to: "swiftprint", title: title)
        _ = try waitForJobProcess(cups, named: "swiftprint-filter")
        _ = try waitForJobProcess(cups, named: "swiftprint-backend")
        usleep(delay)
        let firstRun = cups.jobProcesses(named: "swiftprint-filter") + cups.jobProcesses(named: "swiftprint-backend")
        try cups.restart(crashing: crashing)
        try cups.waitForJobs(timeout: 120)
        // Until the first run's processes, if any were left running, have ended.
        var survivors = firstRun
        for _ in 0..<50 where !survivors.isEmpty {
            usleep(100_000)
            // Running, not a zombie waiting for whoever adopted it to reap it.
            survivors = survivors.filter { pid in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
                return !stat[stat.index(after: close)...].hasPrefix(" Z")
            }
        }
        let state = try ippJobState(id, at: "ipp://\(cups.server)/printers/swiftprint")
        let listing = try Tool.run("lpstat", ["-h", cups.server, "-l", "-W", "all", "-o", "swiftprint"]).text
        #expect(state == "completed", "job-state \(state ?? "?"): \(listing)")
        let saved = cups.savedFiles().filter { $0.hasPrefix("\(id)-") }
        #expect(saved.count == 1 && saved.first?.hasSuffix("-\(title).pdf") == true, "one PDF, not two: \(saved)")
        if let name = saved.first {
            // Whole: its last page ends with the file's last line.
            let pdf = cups.saved + "/root/" + name
            let pages = try PDF.pageCount(pdf)
            let lastPage = try PDF.text(pdf, first: pages, last: pages)
            #expect(pages > 1000 && lastPage.filter { !$0.isWhitespace }.contains("119999Thequick"), "\(pages) pages")
        }
        #expect(leftovers(cups).isEmpty, "\(leftovers(cups))")
        return survivors
    }

    /// The filter or the backend stopped by SIGKILL or SIGTERM at a random moment of a job (six
    /// draws from a fixed seed): the job either saved its whole PDF and completed, or saved
    /// nothing and ended stopped or aborted (as CUPS ends a job whose filter or backend failed)
    /// saying why in `lpstat -l`; nothing half-written is left once the next job has run (a
    /// backend killed by SIGKILL cannot remove its own), and the next job prints.
    @Test func aJobKilledAtRandomMomentsEndsWholeOrSaysWhy() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let file = try longText(lines: 120_000)
        var generator = SeededGenerator(seed: 4141)
        for trial in 0..<6 {
            let target = ["swiftprint-filter", "swiftprint-backend"][Int.random(in: 0...1, using: &generator)]
            let signal = [SIGKILL, SIGTERM][Int.random(in: 0...1, using: &generator)]
            let delay = UInt32.random(in: 0...1_500_000, using: &generator)
            let id = try cups.submit([file], to: "swiftprint", title: "trial\(trial)")
            let pid = try waitForJobProcess(cups, named: target)
            usleep(delay)
            kill(pid, signal)
            let what = "trial \(trial): \(target) got signal \(signal) after \(delay / 1000) ms"
            // Until the job has ended one way or another (a retried job runs again first).
            var state: String?
            let end = Date().addingTimeInterval(60 * Sanitizer.patience)
            let ended = ["processing-stopped", "canceled", "aborted", "completed"]
            repeat {
                usleep(200_000)
                state = try ippJobState(id, at: "ipp://\(cups.server)/printers/swiftprint")
            } while !ended.contains(state ?? "") && Date() < end
            let saved = cups.savedFiles().filter { $0.hasPrefix("\(id)-") }
            if state == "completed" {
                let name = try #require(saved.first, "\(what): completed, and nothing saved")
                let pdf = cups.saved + "/root/" + name
                let pages = try PDF.pageCount(pdf)
                let lastPage = try PDF.text(pdf, first: pages, last: pages)
                #expect(saved.count == 1 && lastPage.filter { !$0.isWhitespace }.contains("119999Thequick"), "\(what): saved but not whole: \(saved)")
            } else {
                #expect(state == "processing-stopped" || state == "aborted", "\(what): job-state \(state ?? "?")")
                #expect(saved.isEmpty, "\(what): \(saved)")
                let listing = try Tool.run("lpstat", ["-h", cups.server, "-l", "-W", "all", "-o", "swiftprint"]).text
                var lines: [Substring] = [], inJob = false
                for line in listing.split(separator: "\n") {
                    if !line.hasPrefix("\t") && !line.hasPrefix(" ") { inJob = line.hasPrefix("swiftprint-\(id) ") }
                    if inJob { lines.append(line) }
                }
                let status = lines.first { $0.contains("Status:") }.map { $0.replacingOccurrences(of: "Status:", with: "") } ?? ""
                #expect(!status.trimmingCharacters(in: .whitespaces).isEmpty, "\(what): nothing saved and no reason: \(lines)")
                if target == "swiftprint-backend" {
                    #expect(status.contains("cannot write the output: the program reading it has stopped"), "\(what): \(status)")
                }
                // A stopped job waits for an administrator: this one cancels it.
                if state == "processing-stopped" { _ = try Tool.run("cancel", ["-h", cups.server, "\(id)"]) }
            }
            // A backend killed by SIGKILL leaves its partial file to the owner's next job.
            let left = leftovers(cups).filter { !(target == "swiftprint-backend" && signal == SIGKILL && $0.hasPrefix("saved/root/.\(id)-partial-")) }
            #expect(left.isEmpty, "\(what): \(left)")
        }
        let next = try cups.submit([try longText(lines: 60)], to: "swiftprint", title: "after")
        try cups.waitForJobs()
        let nextReport = try cups.finishedJobReport(next)
        #expect(cups.savedFiles().contains { $0.hasSuffix("-after.pdf") }, "the next job: \(nextReport)")
        #expect(leftovers(cups).isEmpty, "after the next job: \(leftovers(cups))")
    }
}
