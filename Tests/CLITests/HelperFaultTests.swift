import Foundation
import TestSupport
import Testing

/// A helper stopped from outside its job (issue 41): an administrator's `kill`, a shutdown, the
/// out-of-memory killer. The job fails with EX_TEMPFAIL (worth trying again), saying which
/// helper was stopped and by what, not that a limit was crossed or that it crashed; no output
/// is left, and the same job then works.
@Suite struct HelperFaultTests {
    /// The image helper (a 24 MP TIFF), the map helper (the walk example) and the raster helper
    /// (a text file to PWG raster at 600 dpi, its 46 pages in the middle of their stream), each
    /// killed (SIGKILL) or asked to end (SIGTERM) at a moment drawn from a fixed seed within its
    /// first 0.3 s (the map helper's first 0.05 s: it lives about 0.1 s).
    @Test(arguments: [("swiftprint-image", "big.tif", SIGKILL), ("swiftprint-image", "big.tif", SIGTERM),
                      ("swiftprint-map", "walk.gpx", SIGKILL), ("swiftprint-map", "walk.gpx", SIGTERM),
                      ("swiftprint-raster", "multilingual.txt", SIGKILL), ("swiftprint-raster", "multilingual.txt", SIGTERM)])
    func aHelperKilledMidJobFailsTheJobSayingSo(helperName: String, inputName: String, signal: Int32) throws {
        let dir = try temporaryDirectory()
        let input: String
        let raster = helperName == "swiftprint-raster"
        let options = raster ? ["--output-format", "pwg-raster", "--printer-resolution", "600"] : []
        if inputName == "big.tif" {
            // A TIFF swiftprint-image takes a moment to decode (24 MP).
            input = dir + "/big.tif"
            _ = try Tool.run("convert", ["-size", "6000x4000", "gradient:red-blue", "-compress", "lzw", input])
        } else {
            input = directory() + "/../../Examples/" + inputName
        }
        let signalName = signal == SIGKILL ? "SIGKILL" : "SIGTERM"
        var moments = SeededGenerator(seed: UInt64(41 &* signal) &+ UInt64(helperName.count))
        let latest: UInt32 = helperName == "swiftprint-map" ? 50_000 : 300_000
        let out = dir + "/out.pdf"
        var killedOne = false
        // The helper may finish before the moment comes: tried again then, with the moment
        // halved each time, eight times at most.
        for attempt in 0..<8 where !killedOne {
            let job = Process()
            job.executableURL = URL(fileURLWithPath: Tool.swiftprint)
            job.arguments = ["convert", input, "-o", out] + options
            let errors = Pipe()
            job.standardError = errors
            try job.run()
            var helper: pid_t?
            while job.isRunning && helper == nil {
                helper = ProcessTree.descendants(of: job.processIdentifier).first { $0.name == helperName }?.pid
                if helper == nil { usleep(2_000) }
            }
            if let helper {
                usleep(UInt32.random(in: 0..<latest, using: &moments) >> attempt)
                kill(helper, signal)
            }
            job.waitUntilExit()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            guard helper != nil, job.terminationStatus != 0 else { try? FileManager.default.removeItem(atPath: out); continue }
            killedOne = true
            #expect(job.terminationStatus == 75, "\(said)")
            #expect(said.contains(inputName) && said.contains("\(helperName) was stopped by \(signalName) from outside the job"), "\(said)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        try #require(killedOne, "\(helperName) ended each time before it could be stopped")
        let again = try swiftprint(["convert", input, "-o", out] + options)
        #expect(again.status == 0 && FileManager.default.fileExists(atPath: out), "\(again.stderr)")
    }

    /// A helper that answers noise (a damaged install, a wrong program under the helper's name):
    /// each job fails saying which helper answered what, with the file's name; nothing is
    /// written. (A helper that never answers is stopped at its time: LimitTests.)
    /// (EX_SOFTWARE from a one-shot helper; EX_TEMPFAIL from the markup renderer, which a job
    /// starts again after any failure.)
    @Test(arguments: [("SWIFTPRINT_IMAGE_DECODER", "poster.svg", "swiftprint-image answered something that is not a reply", 70),
                      ("SWIFTPRINT_MAP_HELPER", "walk.gpx", "swiftprint-map answered something that is not a reply", 70),
                      ("SWIFTPRINT_MARKUP_RENDERER", "report.html", "the markup renderer answered something unreadable", 75),
                      ("SWIFTPRINT_RASTER_HELPER", "server.log", "swiftprint-raster answered something that is not a raster stream", 70)])
    func aHelperAnsweringNoiseFailsTheJobSayingSo(variable: String, example: String, says: String, status: Int32) throws {
        let dir = try temporaryDirectory()
        let noise = dir + "/noise"
        // It reads the request line, as a helper does, then answers noise.
        try "#!/bin/sh\nhead -n 1 >/dev/null\nhead -c 3000 /dev/urandom\nprintf '\\n{\"answer\": 42}\\n'\n".write(toFile: noise, atomically: false, encoding: .utf8)
        chmod(noise, 0o755)
        let out = dir + "/out.pdf"
        let raster = variable == "SWIFTPRINT_RASTER_HELPER" ? ["--output-format", "pwg-raster"] : []
        let r = try swiftprint(["convert", examples + "/" + example, "-o", out] + raster, env: [variable: noise])
        #expect(r.status == status, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains(example) && r.stderr.contains(says), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    /// The job's process killed while swiftprint-raster draws (cupsd's SIGKILL after a cancel's
    /// SIGTERM): the helper goes with it at once, not at its next write. The page here, forty
    /// thousand small squares at 1200 dpi, takes seconds to draw and is almost all white, so the
    /// helper writes almost nothing while it draws: it would go on with nobody left to read it.
    @Test func theRasterHelperEndsWithItsJob() throws {
        let dir = try temporaryDirectory()
        let squares = (0..<40_000).map { "\(6 + $0 % 200 * 3) \(6 + $0 / 200 * 3) 1 1 re f" }.joined(separator: "\n")
        let pdf = dir + "/squares.pdf"
        try HandWrittenPDF.make([
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
            "<< /Length \(squares.utf8.count) >>\nstream\n\(squares)\nendstream",
        ]).write(to: URL(fileURLWithPath: pdf))
        let job = Process()
        job.executableURL = URL(fileURLWithPath: Tool.swiftprint)
        job.arguments = ["convert", pdf, "-o", dir + "/out.pwg", "--output-format", "pwg-raster", "--printer-resolution", "1200"]
        job.standardError = FileHandle.nullDevice
        try job.run()
        var helper: pid_t?
        while job.isRunning && helper == nil {
            helper = ProcessTree.descendants(of: job.processIdentifier).first { $0.name == "swiftprint-raster" }?.pid
            if helper == nil { usleep(2_000) }
        }
        let drawing = try #require(helper, "the job ended before its helper was seen")
        kill(job.processIdentifier, SIGKILL)
        job.waitUntilExit()
        // Gone (or a zombie of init's, reaped soon): not drawing.
        var waited = 0
        while waited < 100, let state = Self.state(of: drawing), state != "Z" { usleep(10_000); waited += 1 }
        #expect(waited < 100, "swiftprint-raster (\(drawing)) still ran 1 s after its job was killed")
    }

    /// A process's state letter (R, S, Z …), nil once it is gone.
    static func state(of pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    /// A raster helper whose frames are well formed but whose sheets do not add up (a sheet
    /// reported out of order; a reply counting sheets it never sent) fails the job: what it
    /// sent is not a job's stream.
    @Test(arguments: [(#"\002\004\000\000\000\002\000\000\000"#, "reported sheet 2 after sheet 0"),
                      (#"\003\033\000\000\000{\042answer\042:3,\042warnings\042:[]}\n"#, "replied 3 sheets, having sent 0")])
    func aRasterHelperWhoseSheetsDoNotAddUpFailsTheJob(frames: String, says: String) throws {
        let dir = try temporaryDirectory()
        let helper = dir + "/helper"
        try "#!/bin/sh\nhead -n 1 >/dev/null\nprintf '\(frames)'\n".write(toFile: helper, atomically: false, encoding: .utf8)
        chmod(helper, 0o755)
        let out = dir + "/out.pwg"
        let r = try swiftprint(["convert", examples + "/server.log", "-o", out, "--output-format", "pwg-raster"],
                               env: ["SWIFTPRINT_RASTER_HELPER": helper])
        #expect(r.status == 70 && r.stderr.contains("swiftprint-raster " + says), "\(r.status) \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
