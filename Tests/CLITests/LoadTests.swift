import Foundation
import Synchronization
import TestSupport
import Testing

/// Many jobs at once (issue 41): jobs of every kind `swiftprint convert` takes — text, Markdown,
/// HTML, an SVG, a photo, a map, a PDF, Apple raster in and PWG raster out (drawn by
/// swiftprint-raster) — three of each, eight at a time. Each
/// output is the same bytes as the same job run alone, and the jobs leave nothing in their
/// temporary folder. (`scripts/load-run` is the long run: 200 jobs, with their time and memory.)
@Suite(.serialized) struct LoadTests {
    static let identity = directory() + "/Identity"

    /// Name, input, options.
    static func jobs(raster: String) -> [(String, String, [String])] {
        [
            ("text", examples + "/server.log", []),
            ("markdown", examples + "/notes.md", []),
            ("html", examples + "/report.html", []),
            ("svg", examples + "/poster.svg", []),
            ("photo", identity + "/photo.jpg", ["--media", "A5"]),
            ("map", examples + "/walk.gpx", []),
            ("pdf 2-up", identity + "/pages.pdf", ["--number-up", "2"]),
            ("apple raster", raster, []),
            ("pwg raster out", identity + "/pages.pdf", ["--output-format", "pwg-raster", "--printer-resolution", "150"]),
        ]
    }

    @Test func eightAtATimeEachJobWritesWhatItWritesAlone() throws {
        let dir = try temporaryDirectory(), tmp = try temporaryDirectory()
        // An Apple raster job to read, made first.
        let raster = dir + "/job.urf"
        try #require(try swiftprint(["convert", Self.identity + "/pages.pdf", "--page-ranges", "1-2", "--printer-resolution", "100",
                                     "--output-format", "urf", "-o", raster]).status == 0)
        let env = ["SOURCE_DATE_EPOCH": "0", "TMPDIR": tmp, "SWIFTPRINT_MARKUP_SPARE": "0"]
        @Sendable func run(_ job: (String, String, [String]), to out: String) -> String? {
            guard let r = try? swiftprint(["convert", job.1, "-o", out, "--quiet"] + job.2, env: env) else { return "could not run" }
            return r.status == 0 ? nil : "exit \(r.status): \(r.stderr)"
        }
        let jobs = Self.jobs(raster: raster)
        var alone: [String: Data] = [:]
        for job in jobs {
            let out = dir + "/alone-\(job.0).pdf"
            #expect(run(job, to: out) == nil, "\(job.0) alone")
            alone[job.0] = FileManager.default.contents(atPath: out)
        }
        // Three of each, eight at a time.
        let queue = (0..<3).flatMap { round in jobs.map { (round, $0) } }
        struct Progress: Sendable { var next = 0, failures: [String] = [], outputs: [(String, String)] = [] }
        let progress = Mutex(Progress())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            while let (round, job) = progress.withLock({ p -> (Int, (String, String, [String]))? in
                guard p.next < queue.count else { return nil }
                defer { p.next += 1 }
                return queue[p.next]
            }) {
                let out = dir + "/load-\(round)-\(job.0).pdf"
                let failure = run(job, to: out)
                progress.withLock { p in
                    if let failure { p.failures.append("\(job.0): \(failure)") } else { p.outputs.append((job.0, out)) }
                }
            }
        }
        let (failures, outputs) = progress.withLock { ($0.failures, $0.outputs) }
        #expect(failures.isEmpty, "\(failures)")
        #expect(outputs.count == queue.count)
        for (name, out) in outputs {
            #expect(FileManager.default.contents(atPath: out) == alone[name], "\(name): \(out) differs from the job run alone")
        }
        // Nothing left in the temporary folder once the helpers have ended (a renderer removes
        // its folder as it exits, a moment after its swiftprint).
        var left: [String] = []
        for _ in 0..<100 {
            left = try FileManager.default.contentsOfDirectory(atPath: tmp)
            if left.isEmpty { break }
            usleep(100_000)
        }
        #expect(left.isEmpty, "left in TMPDIR: \(left)")
    }
}
