import Foundation
import TestSupport

/// A real IPP Everywhere printer for the tests: CUPS's `ippeveprinter` on localhost, keeping
/// each job it receives in `output` (as PDF), reporting the pages it "printed" through a small
/// print command, so that jobs complete in about a second with their page counts.
final class IPPEverywherePrinter: @unchecked Sendable {
    let name: String
    let port: Int
    let output: String
    private let process: Process
    var uri: String { "ipp://127.0.0.1:\(port)/ipp/print" }

    static var canRun: Bool {
        PrivateCUPS.canRun && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ippeveprinter")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    /// `duplex`: offers two-sided printing; `color`: prints colour (ippeveprinter's default is
    /// monochrome only); `formats`: the document formats it takes.
    /// `port`: where it listens (a free one when nil; the same again to stand in for a printer
    /// that was switched off).
    /// `printSeconds`: how long it takes to print each job once it has it all.
    /// `supplies`: `marker-*` attributes (as `name=v1,v2 …`) it reports after each job, as a
    /// printer reports its toner: CUPS's ipp backend hears them at the next job.
    convenience init(name: String, duplex: Bool, color: Bool, formats: [String] = ["application/pdf", "image/pwg-raster", "image/urf"],
                     port: Int? = nil, printSeconds: Int = 0, supplies: String? = nil) throws {
        var args = ["-f", formats.joined(separator: ","), "-M", "swiftprint-tests", "-m", name]
        if duplex { args.append("-2") }
        if color { args += ["-s", "20,10"] }
        try self.init(name: name, describedBy: args, port: port, printSeconds: printSeconds, supplies: supplies)
    }

    /// A printer described wholly by `attributes`, an ipptool-style file of `ATTR` lines
    /// (ippeveprinter's `-a`, which replaces all of its built-in description: what it prints,
    /// its media, its formats — raster only, since ippeveprinter adds those it converts).
    convenience init(name: String, attributes: String, port: Int? = nil) throws {
        let file = try temporaryDirectory() + "/\(name).conf"
        try attributes.write(toFile: file, atomically: false, encoding: .utf8)
        try self.init(name: name, describedBy: ["-a", file], port: port)
    }

    private init(name: String, describedBy description: [String], port: Int?, printSeconds: Int = 0, supplies: String? = nil) throws {
        try SystemBus.ensureRunning()
        self.name = name
        self.port = try port ?? PrivateCUPS.freePort()
        output = try temporaryDirectory()
        // ippeveprinter runs this for each job; a line `ATTR: job-impressions-completed=N` on
        // its standard error is how a printer reports pages done. The job's attributes, which
        // ippeveprinter passes as IPP_… variables, are kept beside the document.
        let command = output + "/print-command.sh"
        try """
        #!/bin/sh
        env | grep '^IPP_' | sort > "$1.attributes"
        sleep \(printSeconds)
        n=$(pdfinfo "$1" 2>/dev/null | awk '/^Pages:/{print $2}')
        echo "ATTR: job-impressions=${n:-0} job-impressions-completed=${n:-0}" >&2
        \(supplies.map { "echo 'ATTR: \($0)' >&2" } ?? "")
        exit 0

        """.write(toFile: command, atomically: false, encoding: .utf8)
        chmod(command, 0o755)
        let args = ["-n", "localhost", "-p", String(self.port), "-r", "off", "-d", output, "-k", "-c", command] + description
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ippeveprinter")
        process.arguments = args + [name]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Not with this test thread's signal mask, which blocks SIGTERM: stop() could not end it.
        try withNoSignalsBlocked { try process.run() }
        // lpadmin -m everywhere makes a queue without a PPD, silently, from a printer that does
        // not answer yet.
        for _ in 0..<100 {
            if (try? Tool.run("ipptool", ["-q", uri, "get-printer-attributes.test"]))?.status == 0 { return }
            usleep(100_000)
        }
        stop()
        throw Failure("ippeveprinter \(name) did not answer on \(uri)")
    }

    /// A receipt printer as its IPP attributes describe it: an 80 mm roll (58 to 80 mm wide,
    /// cut from 25 to 600 mm long, 3 mm side margins), 203 dpi, monochrome raster only.
    static let receiptPrinterAttributes: String = {
        // Its two sizes, as media-size collections: the 80 × 200 mm roll it loads, and the
        // lengths it cuts (58–80 mm wide, 25–600 mm long); each with 3 mm side margins.
        let loaded = "MEMBER integer x-dimension 8000 MEMBER integer y-dimension 20000"
        let cut = "MEMBER rangeOfInteger x-dimension 5800-8000 MEMBER rangeOfInteger y-dimension 2500-60000"
        func mediaCol(_ size: String) -> String {
            """
            {
                MEMBER collection media-size { \(size) }
                MEMBER integer media-left-margin 300
                MEMBER integer media-right-margin 300
                MEMBER integer media-top-margin 0
                MEMBER integer media-bottom-margin 0
                MEMBER keyword media-source main-roll
            }
            """
        }
        return """
            ATTR text printer-make-and-model "swiftprint-tests Receipt"
            ATTR keyword media-supported om_receipt_80x200mm,roll_min_58x25mm,roll_max_80x600mm
            ATTR keyword media-default om_receipt_80x200mm
            ATTR keyword media-ready om_receipt_80x200mm
            ATTR collection media-col-database \(mediaCol(loaded)),\(mediaCol(cut))
            ATTR collection media-col-default \(mediaCol(loaded))
            ATTR collection media-size-supported { \(loaded) },{ \(cut) }
            ATTR keyword media-source-supported main-roll
            ATTR integer media-left-margin-supported 300
            ATTR integer media-right-margin-supported 300
            ATTR integer media-top-margin-supported 0
            ATTR integer media-bottom-margin-supported 0
            ATTR keyword sides-supported one-sided
            ATTR keyword sides-default one-sided
            ATTR keyword print-color-mode-supported monochrome
            ATTR keyword print-color-mode-default monochrome
            ATTR resolution printer-resolution-supported 203dpi
            ATTR resolution printer-resolution-default 203dpi
            ATTR resolution pwg-raster-document-resolution-supported 203dpi
            ATTR keyword pwg-raster-document-type-supported sgray_8
            ATTR keyword urf-supported W8,RS203,CP1,DM1,IS1
            ATTR rangeOfInteger copies-supported 1-99
            ATTR integer copies-default 1
            ATTR enum orientation-requested-supported 3
            ATTR enum orientation-requested-default 3
            ATTR enum print-quality-supported 4
            ATTR enum print-quality-default 4
            ATTR keyword printer-kind receipt

            """
    }()

    /// Adds a queue called `name` for this printer to `cups`, as an administrator would.
    /// cupsd writes the queue's PPD from the printer's attributes after lpadmin returns; when
    /// it could not ask the printer, lpadmin still succeeds and no PPD ever comes. So: wait for
    /// the PPD, and add the queue again (three tries) when none comes.
    func addQueue(to cups: PrivateCUPS) throws {
        let ppd = "\(cups.root)/etc/ppd/\(name).ppd"
        var stderr = ""
        for _ in 0..<3 {
            let r = try Tool.run("lpadmin", ["-h", cups.server, "-p", name, "-E", "-v", uri, "-m", "everywhere"])
            stderr = r.stderr
            for _ in 0..<50 where r.status == 0 {
                if FileManager.default.fileExists(atPath: ppd) { return }
                usleep(200_000)
            }
            _ = try? Tool.run("lpadmin", ["-h", cups.server, "-x", name])
        }
        throw Failure("lpadmin could not make the \(name) queue (see \(cups.root)/log/error_log): \(stderr)")
    }

    /// The IPP job attributes the printer got with a received document (`COPIES` → `3`).
    func attributes(of document: String) -> [String: String] {
        let text = (try? String(contentsOfFile: document + ".attributes", encoding: .utf8)) ?? ""
        return Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard line.hasPrefix("IPP_"), let eq = line.firstIndex(of: "=") else { return nil }
            return (String(line[line.index(line.startIndex, offsetBy: 4)..<eq]), String(line[line.index(after: eq)...]))
        }, uniquingKeysWith: { $1 })
    }

    /// Every document the printer kept (PDF, PWG or Apple raster), by name.
    var kept: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? [])
            .filter { $0.hasSuffix(".pdf") || $0.hasSuffix(".pwg") || $0.hasSuffix(".urf") }.sorted().map { output + "/" + $0 }
    }

    /// The PDFs the printer kept.
    var received: [String] { kept.filter { $0.hasSuffix(".pdf") } }

    /// Ends the printer at once (SIGKILL), as a printer switched off or unplugged ends: no
    /// answer to what it was receiving.
    func switchOff() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Ends the printer: SIGTERM, then SIGKILL if it is still there after two seconds.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        for _ in 0..<20 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// ippeveprinter on Debian 12 opens an Avahi client, which needs a D-Bus system bus even with
/// `-r off` ("Unable to initialize DNS-SD" otherwise). The tests start one when none runs, and
/// stop it when they end.
enum SystemBus {
    nonisolated(unsafe) private static var started: Int32?
    private static let lock = NSLock()

    static func ensureRunning() throws {
        lock.lock(); defer { lock.unlock() }
        if started != nil || isRunning { return }
        try FileManager.default.createDirectory(atPath: "/run/dbus", withIntermediateDirectories: true)
        // A pid file left by a bus that was killed stops a new one from starting.
        try? FileManager.default.removeItem(atPath: "/run/dbus/pid")
        // Started with no signals blocked (this test thread blocks SIGTERM), so that SIGTERM
        // stops it; it writes its pid to /run/dbus/pid.
        // system(3), not Process: Foundation never saw this parent exit (it forks the daemon
        // and leaves), and waited for ever. The shell first closes every descriptor it inherited
        // beyond the standard three: tests run in parallel, and a daemon that kept another test's
        // pipe open would leave that test reading it for ever.
        // (bash: dash takes only one-digit descriptors.)
        let command = #"/bin/bash -c 'for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; "#
            + #"exec /usr/bin/dbus-daemon --system --fork </dev/null >/dev/null 2>&1'"#
        let status = withNoSignalsBlocked { system(command) }
        let pidText = (try? String(contentsOfFile: "/run/dbus/pid", encoding: .utf8)) ?? ""
        guard status == 0, let pid = Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure("cannot start a D-Bus system bus (dbus-daemon --system --fork: status \(status))")
        }
        started = pid
        atexit {
            guard let pid = SystemBus.started else { return }
            kill(pid, SIGTERM)
            usleep(100_000)
            unlink("/run/dbus/pid")
            unlink("/run/dbus/system_bus_socket")
        }
    }

    private static var isRunning: Bool {
        (try? Tool.run("dbus-send", ["--system", "--print-reply", "--dest=org.freedesktop.DBus", "/", "org.freedesktop.DBus.GetId"]))?.status == 0
    }
}
