import Foundation
import Testing
import TestSupport

@Suite(.serialized, .enabled(if: PrivateCUPS.canRun, "install needs root, as cupsd does"))
struct InstallTests {
    @Test func installIsIdempotentAndUninstallRemovesExactlyWhatItAdded() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        // Another queue, which must survive uninstall.
        let other = try Tool.run("lpadmin", ["-h", cups.server, "-p", "other", "-E", "-v", "swiftprint:\(cups.root)/other", "-m", "raw"])
        #expect(other.status == 0, "\(other.stderr)")

        // The manual and the completion scripts, where man and the shells look under the prefix.
        let share = cups.root + "/prefix/share"
        for made in ["/man/man1/swiftprint.1", "/man/man1/swiftprint-convert.1", "/man/man7/swiftprint-queue.7",
                     "/bash-completion/completions/swiftprint", "/zsh/site-functions/_swiftprint", "/fish/vendor_completions.d/swiftprint.fish"] {
            #expect(FileManager.default.fileExists(atPath: share + made), "\(made) was not installed")
        }
        let page = try Tool.run("man", ["-M", share + "/man", "swiftprint-convert"], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
        #expect(page.status == 0 && page.text.contains("--number-up"), "\(page.stderr)")

        let again = try Tool.run(Tool.swiftprint, ["install"] + cups.installArguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.text.contains("write "), "a second install rewrote files:\n\(again.text)")

        let dry = try Tool.run(Tool.swiftprint, ["uninstall", "--dry-run"] + cups.installArguments)
        #expect(dry.status == 0)
        #expect(dry.text.contains("lpadmin -h \(cups.server) -x swiftprint"))
        #expect(dry.text.contains("remove \(cups.root)/lib/filter/swiftprint"))
        #expect(FileManager.default.fileExists(atPath: cups.root + "/lib/filter/swiftprint"), "a dry run removed something")

        // A saved job must outlive uninstall.
        let id = try cups.submit([directory() + "/../../Examples/multilingual.txt"])
        try cups.waitForJobs()

        let un = try Tool.run(Tool.swiftprint, ["uninstall"] + cups.installArguments)
        #expect(un.status == 0, "\(un.stderr)")
        let fm = FileManager.default
        for gone in ["/lib/filter/swiftprint", "/lib/backend/swiftprint", "/data/mime/swiftprint.types", "/prefix/bin", "/prefix/libexec", "/prefix/lib",
                     "/prefix/share"] {
            #expect(!fm.fileExists(atPath: cups.root + gone), "\(gone) is still there")
        }
        #expect(fm.fileExists(atPath: cups.saved + "/root/\(id)-multilingual.txt.pdf"), "uninstall removed a saved job")
        #expect(fm.fileExists(atPath: cups.root + "/lib/daemon/cups-exec"), "uninstall removed something it did not add")
        let queues = try Tool.run("lpstat", ["-h", cups.server, "-p"]).text
        #expect(queues.contains("printer other"))
        #expect(!queues.contains("printer swiftprint"))
    }

    /// The installed program installs again: its helpers are in PREFIX/libexec/swiftprint and
    /// its engines in PREFIX/lib/swiftprint, not beside it as in the build folder.
    @Test func theInstalledProgramInstallsAgain() throws {
        let cups = try PrivateCUPS.fresh()
        defer { cups.stop() }
        let installed = cups.root + "/prefix/bin/swiftprint"
        for extra in [["--dry-run"], ["--dry-run", "--share"], []] {
            let r = try Tool.run(installed, ["install"] + cups.installArguments + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            #expect(!r.text.contains("write "), "\(extra): the same files, so nothing to write:\n\(r.text)")
        }
        // And what it installed prints: the installed filter finds its installed helpers.
        let id = try cups.submit([directory() + "/../../Examples/report.html"], title: "installed")
        try cups.waitForJobs()
        #expect(FileManager.default.fileExists(atPath: cups.saved + "/root/\(id)-installed.pdf"), "\((try? cups.finishedJobReport(id)) ?? "")")
        let converted = try temporaryDirectory() + "/photo.pdf"
        let photo = try Tool.run(installed, ["convert", directory() + "/../../Examples/poster.svg", "-o", converted])
        #expect(photo.status == 0, "the installed convert finds its image helper: \(photo.stderr)")
    }

    @Test func withoutRootInstallSaysSo() throws {
        let r = try Tool.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Tool.swiftprint, "install"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("run it as root"), "\(r.stderr)")
    }
}

/// The machine's own CUPS, where the README's set-up command installed the queue (CI runs it as root).
enum SystemCUPS {
    /// Named, not inherited: tests of the library in this process point CUPS_SERVER at their
    /// private cupsd while other suites run.
    static let environment = ["CUPS_SERVER": "localhost:631"]

    static var hasSwiftprintQueue: Bool {
        geteuid() == 0 && ((try? Tool.run("lpstat", ["-p", "swiftprint"], environment: environment))?.status == 0)
    }
}

@Suite(.enabled(if: SystemCUPS.hasSwiftprintQueue, "the swiftprint queue is not installed on this machine's CUPS (scripts/setup installs it)"))
struct SystemQueue {
    @Test func lpToTheSystemQueueSavesAPDF() throws {
        let r = try Tool.run("lp", ["-d", "swiftprint", "-t", "system-check", directory() + "/../../Examples/multilingual.txt"],
                             environment: SystemCUPS.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let id = r.text.split(separator: " ").compactMap { $0.split(separator: "-").last.flatMap { Int($0) } }.first ?? -1
        let path = "/var/spool/swiftprint/root/\(id)-system-check.pdf"
        let end = Date().addingTimeInterval(60)
        while Date() < end, !FileManager.default.fileExists(atPath: path) { usleep(200_000) }
        #expect(FileManager.default.fileExists(atPath: path), "no \(path); lpstat: \((try? Tool.run("lpstat", ["-l", "-W", "all", "-o", "swiftprint"], environment: SystemCUPS.environment))?.text ?? "")")
        #expect(try PDF.text(path).contains("французских"))
        try? FileManager.default.removeItem(atPath: path)
    }
}
