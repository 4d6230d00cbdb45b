import Foundation
import TestSupport
import Testing

/// A disk that fills (issue 41): under the output, or under the temporary folder a job works
/// in. Each time the job fails naming the file and the reason, with its documented exit code,
/// and leaves nothing behind, half-written or not; the next job, with room, works.
@Suite(.serialized, .enabled(if: geteuid() == 0, "mounts a small tmpfs: needs root"))
struct DiskFaultTests {
    /// A tmpfs of `size` mounted on a new folder, unmounted when `body` ends.
    func withSmallDisk(_ size: String, _ body: (String) throws -> Void) throws {
        let disk = try temporaryDirectory() + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = try Tool.run("mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", disk])
        try #require(mount.status == 0, "\(mount.stderr)")
        defer { _ = try? Tool.run("umount", ["-l", disk]) }
        try body(disk)
    }

    /// What is left in `folder` once the job's helpers have ended too (a renderer removes its
    /// folder as it exits, a moment after swiftprint): waited for up to 10 s.
    func leftovers(in folder: String) throws -> [String] {
        for _ in 0..<100 {
            if try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty { return [] }
            usleep(100_000)
        }
        return try FileManager.default.subpathsOfDirectory(atPath: folder)
    }

    /// 40 copies of a log (about 300 KB of PDF) onto 64 KB: exit 74 (EX_IOERR), the output's
    /// path and the system's reason, and no file, not even a temporary one.
    @Test func anOutputOnAFullDiskFailsAndLeavesNothing() throws {
        try withSmallDisk("64k") { disk in
            let out = disk + "/report.pdf"
            let r = try swiftprint(["convert", examples + "/server.log", "--copies", "40", "-o", out])
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stderr.contains(out) && r.stderr.contains("No space left on device"), "\(r.stderr)")
            #expect(try leftovers(in: disk) == [])
            // One copy fits.
            let next = try swiftprint(["convert", examples + "/server.log", "--page-ranges", "1", "-o", out])
            #expect(next.status == 0 && FileManager.default.fileExists(atPath: out), "\(next.stderr)")
        }
    }

    /// An image job whose temporary folder is full: a decoded image's compressed samples wait
    /// there until the PDF is written. Exit 75, the document's name and the reason, no output,
    /// nothing left in the temporary folder (the spool has no name there from the start).
    @Test func aFullTemporaryFolderFailsAnImageJobAndLeavesNothing() throws {
        try withSmallDisk("64k") { tmp in
            let dir = try temporaryDirectory()
            let photo = dir + "/noise.png"
            _ = try Tool.run("convert", ["-size", "400x300", "xc:", "+noise", "Random", "-depth", "8", photo])
            let out = try temporaryDirectory() + "/out.pdf"
            let r = try swiftprint(["convert", photo, "-o", out], env: ["TMPDIR": tmp])
            #expect(r.status == 75, "\(r.stderr)")
            #expect(r.stderr.contains("noise.png") && r.stderr.contains("temporary file in \(tmp)") && r.stderr.contains("No space left on device"),
                    "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try leftovers(in: tmp) == [])
            let next = try swiftprint(["convert", photo, "-o", out])
            #expect(next.status == 0, "\(next.stderr)")
        }
    }

    /// Raster output whose temporary folder fills while a photo is scaled to its size on the
    /// sheet before the page's bands (a 12 MP photo across a Letter sheet at 300 dpi: 13 MB of
    /// scaled samples, onto 4 MB). Exit 75, the document's name, the page and the reason, no
    /// raster, nothing left in the temporary folder.
    @Test func aFullTemporaryFolderFailsARasterJobAndLeavesNothing() throws {
        try withSmallDisk("4m") { tmp in
            let dir = try temporaryDirectory()
            let photo = dir + "/gradient.jpg"
            _ = try Tool.run("convert", ["-size", "4000x3000", "gradient:red-blue", "-quality", "85", photo])
            let out = dir + "/out.pwg"
            let r = try swiftprint(["convert", photo, "--media", "letter", "--output-format", "pwg-raster", "--printer-resolution", "300", "-o", out],
                                   env: ["TMPDIR": tmp])
            #expect(r.status == 75, "\(r.stderr)")
            #expect(r.stderr.contains("gradient.jpg: page 1") && r.stderr.contains("temporary file in \(tmp)")
                    && r.stderr.contains("No space left on device"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(try leftovers(in: tmp) == [])
            let next = try swiftprint(["convert", photo, "--media", "letter", "--output-format", "pwg-raster", "--printer-resolution", "300", "-o", out])
            #expect(next.status == 0, "\(next.stderr)")
        }
    }

    /// An HTML job whose temporary folder is full: WebKit's print cannot be written there. Exit
    /// 75 (EX_TEMPFAIL: worth trying again), the document's name and the reason, no output,
    /// and the temporary folder empty once the renderer has gone.
    @Test func aFullTemporaryFolderFailsAndLeavesNothing() throws {
        try withSmallDisk("64k") { tmp in
            let dir = try temporaryDirectory()
            let r = try swiftprint(["convert", examples + "/report.html", "-o", dir + "/out.pdf"], env: ["TMPDIR": tmp, "SWIFTPRINT_MARKUP_SPARE": "0"])
            #expect(r.status == 75, "\(r.stderr)")
            #expect(r.stderr.contains("report.html") && r.stderr.contains("No space left on device"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.pdf"))
            #expect(try leftovers(in: tmp) == [])
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
            // With room, the same job works.
            let next = try swiftprint(["convert", examples + "/report.html", "-o", dir + "/out.pdf"])
            #expect(next.status == 0, "\(next.stderr)")
        }
    }
}
