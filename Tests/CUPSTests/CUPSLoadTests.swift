import Foundation
import Synchronization
import TestSupport
import Testing

/// Many jobs through a real cupsd at once (issue 41): jobs of every kind — text, Markdown, HTML,
/// an SVG, a photo, a map, a PDF two-up and Apple raster — sent with `lp` to eight swiftprint
/// queues, so that cupsd runs eight at a time. Each saved PDF is the same bytes as the same job
/// printed alone; afterwards cupsd runs no process for a job, holds no more descriptors than
/// before, and nothing is left in its temporary folder or the spool folder. Two of each kind
/// here; `SWIFTPRINT_CUPS_LOAD_JOBS=200` is the long run, and `SWIFTPRINT_LOAD_REPORT=FILE`
/// writes its figures (time, jobs per second per core, each program's peak memory) there
/// (`scripts/load-run --cups`).
@Suite(.serialized, .enabled(if: PrivateCUPS.canRun)) struct CUPSLoadTests {
    static let examples = directory() + "/../../Examples"
    static let identity = directory() + "/../CLITests/Identity"
    static let queues = (1...8).map { "load\($0)" }

    /// Name, input, `lp -o` options.
    static func kinds(raster: String) -> [(String, String, [String: String])] {
        [
            ("text", Self.examples + "/server.log", [:]),
            ("markdown", Self.examples + "/notes.md", [:]),
            ("html", Self.examples + "/report.html", [:]),
            ("svg", Self.examples + "/poster.svg", [:]),
            ("photo", identity + "/photo.jpg", ["media": "A5"]),
            ("map", Self.examples + "/walk.gpx", [:]),
            ("pdf-2-up", identity + "/pages.pdf", ["number-up": "2"]),
            ("apple-raster", raster, [:]),
        ]
    }

    @Test func eightQueuesAtOnceEachJobSavesWhatItSavesAlone() throws {
        let jobCount = Int(ProcessInfo.processInfo.environment["SWIFTPRINT_CUPS_LOAD_JOBS"] ?? "") ?? 16
        let cups = try PrivateCUPS.fresh(environment: ["SOURCE_DATE_EPOCH": "0"])
        defer { cups.stop() }
        let dir = try temporaryDirectory()
        chmod(dir, 0o755)
        let raster = dir + "/job.urf"
        try #require(try Tool.run(Tool.swiftprint, ["convert", Self.identity + "/pages.pdf", "--page-ranges", "1-2", "--printer-resolution", "100",
                                                    "--output-format", "urf", "-o", raster]).status == 0)
        chmod(raster, 0o644)
        // Eight queues like the swiftprint queue: its device and its PPD.
        let device = try Tool.run("lpstat", ["-h", cups.server, "-v", "swiftprint"]).text
        let uri = try #require(device.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        for queue in Self.queues {
            let r = try Tool.run("lpadmin", ["-h", cups.server, "-p", queue, "-E", "-v", uri, "-P", cups.root + "/etc/ppd/swiftprint.ppd"])
            try #require(r.status == 0, "\(r.stderr)")
        }
        let kinds = Self.kinds(raster: raster)
        func submit(_ kind: (String, String, [String: String]), to queue: String) throws -> Int {
            try cups.submit([kind.1], to: queue, options: kind.2, title: kind.0)
        }
        func saved(_ id: Int, _ kind: String) -> String { cups.saved + "/root/\(id)-\(kind).pdf" }

        // Each kind alone first.
        var alone: [String: Data] = [:]
        for kind in kinds {
            let id = try submit(kind, to: Self.queues[0])
            try cups.waitForJobs(on: Self.queues[0])
            let report = try cups.finishedJobReport(id, queue: Self.queues[0])
            alone[kind.0] = try #require(FileManager.default.contents(atPath: saved(id, kind.0)), "\(kind.0) alone: \(report)")
        }
        try cups.waitUntilIdle(Self.queues)
        let cupsd = cups.pid
        let descriptorsBefore = Self.descriptors(of: cupsd)

        // Then all at once, shuffled with a fixed seed, to the eight queues in turn.
        var generator = SeededGenerator(seed: 41)
        let order = (0..<jobCount).map { kinds[$0 % kinds.count] }.shuffled(using: &generator)
        let sampler = MemorySampler(under: cupsd)
        let start = Date()
        var submitted: [(Int, String, String)] = []
        for (i, kind) in order.enumerated() {
            let queue = Self.queues[i % Self.queues.count]
            submitted.append((try submit(kind, to: queue), kind.0, queue))
        }
        for queue in Self.queues { try cups.waitForJobs(on: queue, timeout: 60 + Double(jobCount) * 3) }
        let seconds = Date().timeIntervalSince(start)
        let peaks = sampler.stop()

        var failures: [String] = []
        for (id, kind, queue) in submitted {
            let data = FileManager.default.contents(atPath: saved(id, kind))
            if data == nil { failures.append("\(kind) job \(id): nothing saved: \(try cups.finishedJobReport(id, queue: queue))") }
            else if data != alone[kind] { failures.append("\(kind) job \(id): not the bytes it saves alone") }
        }
        #expect(failures.isEmpty, "\(failures)")

        // Afterwards: no process of a job (a moment for the last backends to end), no more
        // descriptors than before, nothing in cupsd's temporary folder or beside the PDFs.
        try cups.waitUntilIdle(Self.queues)
        var running: [String] = []
        for _ in 0..<100 {
            running = ProcessTree.descendants(of: cupsd).map(\.name)
            if running.isEmpty { break }
            usleep(100_000)
        }
        #expect(running.isEmpty, "still running for jobs: \(running)")
        // A client's connection (the last lpstat's) may still be open for a moment: a descriptor
        // leaked stays, one in use goes.
        var descriptorsAfter = Self.descriptors(of: cupsd)
        for _ in 0..<20 where descriptorsAfter > descriptorsBefore {
            usleep(100_000)
            descriptorsAfter = Self.descriptors(of: cupsd)
        }
        #expect(descriptorsAfter <= descriptorsBefore, "cupsd held \(descriptorsBefore) descriptors before, \(descriptorsAfter) after")
        let temporary = ((try? FileManager.default.contentsOfDirectory(atPath: cups.root + "/spool/tmp")) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "cups-dbus-notifier-lockfile" }
        let spool = cups.savedFiles().filter { !$0.hasSuffix(".pdf") }
        #expect(temporary.isEmpty && spool.isEmpty, "left: \(temporary) \(spool)")

        if let report = ProcessInfo.processInfo.environment["SWIFTPRINT_LOAD_REPORT"] {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            var lines = [
                "jobs\t\(jobCount)", "queues\t\(Self.queues.count)", "seconds\t\(String(format: "%.1f", seconds))",
                "jobs per second\t\(String(format: "%.2f", Double(jobCount) / seconds))",
                "jobs per second per core\t\(String(format: "%.2f", Double(jobCount) / seconds / Double(cores)))",
                "failures\t\(failures.count)", "left running\t\(running.count)", "left in folders\t\(temporary.count + spool.count)",
                "cupsd descriptors before, after\t\(descriptorsBefore), \(descriptorsAfter)",
            ]
            lines += peaks.sorted { $0.value > $1.value }.map { "peak MB \($0.key)\t\(String(format: "%.1f", Double($0.value) / 1024))" }
            try (lines.joined(separator: "\n") + "\n").write(toFile: report, atomically: true, encoding: .utf8)
        }
    }

    static func descriptors(of pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }
}

/// The largest VmHWM (peak resident memory, kB) of each program among a process's descendants,
/// looked at every 20 ms until stopped: the filters, backends and helpers cupsd runs for jobs.
/// A process that lives less than 20 ms may be missed.
final class MemorySampler: @unchecked Sendable {
    private let peaks = Mutex<[String: Int]>([:])
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(under root: pid_t) {
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .relaxed) {
                for process in ProcessTree.descendants(of: root) {
                    guard let status = try? String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8),
                          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                          let kB = Int(line.split(separator: " ").dropFirst().first ?? "") else { continue }
                    peaks.withLock { $0[process.name] = max($0[process.name] ?? 0, kB) }
                }
                usleep(20_000)
            }
            done.signal()
        }
    }

    /// Stops looking; each program's peak in kB.
    func stop() -> [String: Int] {
        stopped.store(true, ordering: .relaxed)
        done.wait()
        return peaks.withLock { $0 }
    }
}
