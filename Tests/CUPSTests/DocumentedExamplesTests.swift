import Foundation
import Testing
import TestSupport

/// Every command the README and the man pages show (the `sh` blocks of README.md and of the
/// pages' prose, docs/swiftprint-queue.7.md and docs/swiftprint.1.md; the pages' per-command
/// EXAMPLES are `--help`'s) and every example in `swiftprint … --help`,
/// run as written, in order, by bash, in a folder holding the files they name. What stands in
/// for the machine: a private cupsd (CUPS_SERVER, LPDEST), an ippeveprinter for the printer they
/// call office.local, `sudo` as the root the tests are, and `swiftprint install`/`uninstall`
/// pointed at the private cupsd's folders. An example that cannot run here is listed with the
/// reason; one that ends otherwise than it should fails, and so does a job it queued that did
/// not complete.
@Suite(.serialized, .enabled(if: IPPEverywherePrinter.canRun, "needs root, cupsd, ippeveprinter and dbus-daemon"))
struct DocumentedExamplesTests {
    static let root = directory() + "/../.."

    /// Examples not run here, and why.
    static let notRunHere: [String: String] = [
        "./scripts/setup": "CI runs it (.ci/run) before the tests",
        "./scripts/test": "CI runs it; this test is part of it",
        "lpinfo --include-schemes dnssd -v": "lists printers announced on the network; AirPrintTests announces one in a network namespace and finds it",
        "sudo apt-get install avahi-daemon && sudo systemctl enable --now avahi-daemon": "installs and starts a system service",
        "swiftprint print --pick --sides two-sided-long-edge report.pdf": "asks at a terminal; PrinterPickerTests answers it there",
        "swiftprint center --open": "serves its page until stopped; WebCenterTests runs it and drives it in a browser",
    ]

    /// Examples that end with another status, and why.
    static let expectedStatus: [String: Int32] = [
        // No job 42 in this cupsd: "no such job" (69), never the printer-aborted 75.
        "swiftprint cancel 42": 69,
    ]

    /// The commands of a Markdown file's `sh` blocks (`README.md`, `docs/swiftprint.1.md`).
    static func markdownExamples(_ file: String) throws -> [String] {
        var examples: [String] = [], inBlock = false
        for line in try String(contentsOfFile: root + "/" + file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock = line == "```sh"; continue }
            if inBlock, !line.trimmingCharacters(in: .whitespaces).isEmpty { examples.append(String(line)) }
        }
        return examples
    }

    /// The examples of each subcommand's `--help`.
    static func helpExamples() throws -> [String] {
        let commands = ["convert", "preview", "print", "printers", "jobs", "cancel", "detect", "types", "install", "uninstall"]
        return try commands.flatMap { command -> [String] in
            let help = try Tool.run(Tool.swiftprint, [command, "--help"]).text
            var examples: [String] = [], inExamples = false
            for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.trimmingCharacters(in: .whitespaces) == "Examples:" { inExamples = true; continue }
                if inExamples, line.trimmingCharacters(in: .whitespaces).isEmpty { inExamples = false }
                if inExamples { examples.append(line.trimmingCharacters(in: .whitespaces)) }
            }
            return examples
        }
    }

    /// Without a comment, as the lists above name them.
    static func command(_ line: String) -> String {
        (line.range(of: "  #").map { String(line[..<$0.lowerBound]) } ?? line).trimmingCharacters(in: .whitespaces)
    }

    /// The files the examples name.
    static func makeFixtures(in dir: String) throws {
        let fm = FileManager.default
        let examples = root + "/Examples"
        func swiftprint(_ args: [String]) throws {
            let r = try Tool.run(Tool.swiftprint, ["convert", "--quiet"] + args)
            guard r.status == 0 else { throw Failure("fixture \(args): \(r.stderr)") }
        }
        for name in ["notes.txt", "report.txt", "app.log", "log.txt", "b.txt"] { try fm.copyItem(atPath: examples + "/server.log", toPath: "\(dir)/\(name)") }
        try fm.copyItem(atPath: examples + "/shift_jis.txt", toPath: dir + "/legacy.txt")
        try fm.copyItem(atPath: examples + "/notes.md", toPath: dir + "/notes.md")
        try fm.copyItem(atPath: examples + "/report.html", toPath: dir + "/page.html")
        try fm.copyItem(atPath: examples + "/report.html", toPath: dir + "/invoice.html")
        try swiftprint([examples + "/server.log", "-o", dir + "/report.pdf"])
        try swiftprint([examples + "/server.log", "-o", dir + "/a.pdf", "--page-ranges", "1-3"])
        try swiftprint([examples + "/multilingual.txt", "-o", dir + "/slides.pdf", "--orientation", "landscape"])
        try swiftprint([examples + "/server.log", "-o", dir + "/zine.pdf", "--page-ranges", "1-6", "--media", "A5"])
        try swiftprint([examples + "/server.log", "-o", dir + "/plain.pdf", "--page-ranges", "1"])
        guard try Tool.run("qpdf", ["--encrypt", "secret", "owner-secret", "256", "--", dir + "/plain.pdf", dir + "/locked.pdf"]).status == 0 else {
            throw Failure("cannot encrypt the fixture")
        }
        try fm.createDirectory(atPath: dir + "/holiday", withIntermediateDirectories: false)
        for (name, colour) in [("photo.jpg", "gradient:red-blue"), ("holiday/beach.jpg", "gradient:yellow-blue"), ("holiday/hill.jpg", "gradient:green-white"),
                               ("holiday/town.jpg", "gradient:gray-orange")] {
            guard try Tool.run("convert", ["-size", "640x480", colour, dir + "/" + name]).status == 0 else { throw Failure("cannot make \(name)") }
        }
        guard try Tool.run("convert", ["-size", "300x400", "xc:white", "-fill", "black", "-draw", "rectangle 20,20 280,60", dir + "/scan.png"]).status == 0 else {
            throw Failure("cannot make scan.png")
        }
        // cupsd's filters (as lp) read the files the examples print.
        _ = try Tool.run("chmod", ["-R", "a+rX", dir])
    }

    @Test func everyDocumentedExampleDoesWhatItSays() throws {
        let cups = try PrivateCUPS.withStockFilters()
        defer { cups.stop() }
        let office = try IPPEverywherePrinter(name: "Office", duplex: true, color: true)
        defer { office.stop() }
        // sudo, and swiftprint as the user has it: the installed copy (the build tree's after an
        // uninstall removed it), with install and uninstall pointed at the private cupsd's folders.
        let bin = try temporaryDirectory()
        let install = cups.installArguments.map { "'\($0)'" }.joined(separator: " ")
        try """
            #!/bin/sh
            program='\(cups.root)/prefix/bin/swiftprint'
            [ -x "$program" ] || program='\(Tool.swiftprint)'
            case "$1" in install|uninstall) exec "$program" "$@" \(install) ;; esac
            exec "$program" "$@"
            """.write(toFile: bin + "/swiftprint", atomically: false, encoding: .utf8)
        try "#!/bin/sh\nexec \"$@\"\n".write(toFile: bin + "/sudo", atomically: false, encoding: .utf8)
        for name in ["swiftprint", "sudo"] { chmod(bin + "/" + name, 0o755) }
        let environment = [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "CUPS_SERVER": cups.server, "LPDEST": "swiftprint",
        ]
        // The README's examples in one folder, the man pages' prose's in another (the queue's
        // page first: it installs the queues the user's page prints on), then --help's in a
        // third (each has a `swiftprint convert notes.txt` that writes notes.pdf beside it,
        // which the next would refuse to replace); the preset swiftprint(1) saves is the one
        // --help's example reads.
        let readme = try temporaryDirectory(), pages = try temporaryDirectory(), help = try temporaryDirectory()
        let examples = try Self.markdownExamples("README.md").map { ($0, readme) }
            + Self.markdownExamples("docs/swiftprint-queue.7.md").map { ($0, pages) } + Self.markdownExamples("docs/swiftprint.1.md").map { ($0, pages) }
            + Self.helpExamples().map { ($0, help) }
        #expect(examples.count > 60, "\(examples.count) examples found")
        for dir in [readme, pages, help] {
            chmod(dir, 0o755)
            try Self.makeFixtures(in: dir)
        }
        var ran = 0
        for (line, dir) in examples {
            if dir == help, !FileManager.default.fileExists(atPath: help + "/office.json") {
                try? FileManager.default.copyItem(atPath: pages + "/office.json", toPath: help + "/office.json")
            }
            let command = Self.command(line)
            if Self.notRunHere[command] != nil { continue }
            let script = command.replacingOccurrences(of: "ipp://office.local/ipp/print", with: office.uri)
            let r = try Tool.run("/bin/bash", ["-o", "pipefail", "-c", script], environment: environment, in: dir)
            let expected = Self.expectedStatus[command] ?? 0
            #expect(r.status == expected, "\(command)\n\(r.stderr)\(r.text.suffix(500))")
            ran += 1
            if command.hasPrefix("lp ") || command.contains("| lp") {
                try cups.waitForJobs(on: command.contains("-d Office") ? "Office" : "swiftprint")
            }
        }
        #expect(ran + Self.notRunHere.count >= examples.count)
        // Every job an example queued printed (the wrong password, an option lp split, a type
        // cupsd cannot tell would each have aborted one).
        for queue in ["swiftprint", "Office"] { try cups.waitForJobs(on: queue) }
        let jobs = try Tool.run(Tool.swiftprint, ["jobs", "--all", "--json"], environment: ["CUPS_SERVER": cups.server])
        let list = try JSONSerialization.jsonObject(with: Data(jobs.text.utf8)) as? [[String: Any]] ?? []
        #expect(!list.isEmpty)
        for job in list {
            let state = job["state"] as? String ?? ""
            #expect(state == "completed" || state == "canceled", "job \(job["id"] ?? "?") \(job["title"] ?? ""): \(state) \(job["stateReasons"] ?? "")")
        }
        // What the examples say they make.
        for (made, dir) in ["notes.pdf", "job.pdf", "page.pdf", "handout.pdf", "side2.png", "log.pdf"].map({ ($0, readme) })
            + ["notes.pdf", "job.pdf", "a4.pdf", "log.pdf", "out.pdf", "page.pdf", "handout.pdf", "side2.png", "zine-print.pdf", "office.json"].map({ ($0, pages) })
            + ["notes.pdf", "job.pdf", "sheet.pdf", "sheet2.png", "front.png"].map({ ($0, help) }) {
            #expect(FileManager.default.fileExists(atPath: dir + "/" + made), "\(made) was not made")
        }
    }
}
