import CUPSCommon
import CUPSLibrary
import Foundation
import PrintModel
import PrintSupport

/// Puts swiftprint into CUPS and takes it out again: the executables, the data files, the
/// filter and backend (links into libexec), the types file, the queue and its spool folder.
/// Idempotent; a dry run says what it would do; nothing it did not add is touched.
public struct Installer {
    public let layout: InstallLayout
    /// The folder holding the built swiftprint, swiftprint-filter, swiftprint-backend,
    /// swiftprint-relay and the helpers swiftprint-image, swiftprint-markup, swiftprint-map and
    /// swiftprint-raster.
    public let products: String
    /// The source tree's Config folder.
    public let config: String
    public var dryRun = false
    /// Share the queue made (the save-as-PDF one, or the printer's) on the network as an
    /// AirPrint and IPP Everywhere printer.
    public var share = false
    /// The account that saves the jobs of senders with no account on this machine (phones
    /// on the network), or nil: such a job is held. `install --share` sets `defaultGuestAccount`
    /// unless told otherwise. The backend never writes a job's file as root.
    public var guestAccount: String?
    public static let defaultGuestAccount = "nobody"
    /// What one sender may send a shared queue, per period (CUPS's per-queue quotas); nil: no
    /// quota. `install --share` sets `ShareQuota.defaults` unless told otherwise.
    public var quota: ShareQuota?
    public var say: (String) -> Void = { print($0) }
    /// What install does: everything (a source build's `swiftprint install`), or one of the two
    /// halves a Debian package splits it into: the files, staged under `destination` when the
    /// package is built, and the queue, made by the package's postinst once dpkg has put the
    /// files in place.
    public var part = InstallPart.everything
    /// The staging root the files are written under (`DESTDIR`); links still point at the final
    /// paths. Empty: the paths themselves.
    public var destination = ""

    public init(layout: InstallLayout, products: String, config: String) {
        self.layout = layout; self.products = products; self.config = config
    }

    public func install(definition: QueueDefinition) throws {
        var manifest = Manifest(path: layout.manifest)
        let typesChanged = part == .queue ? true : try installFiles(definition: definition, &manifest)
        if part != .files { try installQueue(definition: definition, typesChanged: typesChanged, &manifest) }
    }

    /// The programs, data, manual, completion scripts, the filter's and backends' links, the
    /// types file and the queue's PPD. Returns whether the types file changed.
    private func installFiles(definition: QueueDefinition, _ manifest: inout Manifest) throws -> Bool {
        let l = layout
        for dir in [l.prefix + "/bin", l.libexec, l.engines, l.share + "/Config/cups", l.share + "/Config/basemap", l.share + "/Config/center", l.cupsServerBin + "/filter",
                    l.cupsServerBin + "/backend", l.cupsDataDir + "/mime"] {
            try makeFolder(dir, mode: 0o755, &manifest)
        }
        try copy(product("swiftprint"), to: l.prefix + "/bin/swiftprint", mode: 0o755, &manifest)
        try copy(product("swiftprint-filter"), to: l.libexec + "/swiftprint-filter", mode: 0o755, &manifest)
        // 0700: cupsd runs a backend that others cannot execute as root (it writes as the user).
        try copy(product("swiftprint-backend"), to: l.libexec + "/swiftprint-backend", mode: 0o700, &manifest)
        // 0755: the printer queues' backend runs as cupsd's user, as CUPS's ipp backend does.
        try copy(product("swiftprint-relay"), to: l.libexec + "/swiftprint-relay", mode: 0o755, &manifest)
        try copy(product("swiftprint-image"), to: l.libexec + "/swiftprint-image", mode: 0o755, &manifest)
        try copy(product("swiftprint-markup"), to: l.libexec + "/swiftprint-markup", mode: 0o755, &manifest)
        try copy(product("swiftprint-map"), to: l.libexec + "/swiftprint-map", mode: 0o755, &manifest)
        try copy(product("swiftprint-raster"), to: l.libexec + "/swiftprint-raster", mode: 0o755, &manifest)
        try copy(product("swiftprint-center"), to: l.libexec + "/swiftprint-center", mode: 0o755, &manifest)
        // The PDF assembler's engine (libqpdf), opened by the tool and the filter on first use.
        try copy(product("libSwiftPrintQPDF.so"), to: l.engines + "/libSwiftPrintQPDF.so", mode: 0o755, &manifest)
        // The damaged-PDF repair engine (poppler), opened only for a PDF qpdf cannot rebuild.
        try copy(product("libSwiftPrintPDFRepair.so"), to: l.engines + "/libSwiftPrintPDFRepair.so", mode: 0o755, &manifest)
        // Preloaded into WebKit's web process by swiftprint-markup (CWebPrintDeflateShim says why).
        try copy(product("libSwiftPrintWebPrintDeflate.so"), to: l.engines + "/libSwiftPrintWebPrintDeflate.so", mode: 0o755, &manifest)
        // The web Print Center's page: every file of Config/center.
        let page = try FileManager.default.contentsOfDirectory(atPath: config + "/center").sorted().map { "center/" + $0 }
        for name in ["papers.tsv", "types.tsv", "cups/swiftprint.types", "basemap/world.mbtiles"] + page {
            try copy(config + "/" + name, to: l.share + "/Config/" + name, mode: 0o644, &manifest)
        }
        // The spare markup renderer's services, written, not enabled (SpareRendererUnits).
        let units = SpareRendererUnits(libexec: l.libexec)
        for (folder, text) in [(l.prefix + "/lib/systemd/system", units.forFilter), (l.prefix + "/lib/systemd/user", units.forUser)] {
            try makeFolder(folder, mode: 0o755, &manifest)
            _ = try write(text, to: folder + "/" + SpareRendererUnits.name, mode: 0o644, &manifest)
        }
        try installDocumentation(&manifest)
        try link(l.cupsServerBin + "/filter/swiftprint", to: l.libexec + "/swiftprint-filter", &manifest)
        try link(l.cupsServerBin + "/backend/swiftprint", to: l.libexec + "/swiftprint-backend", &manifest)
        for scheme in RelayDeviceURI.relayedSchemes {
            try link(l.cupsServerBin + "/backend/" + RelayDeviceURI.prefix + scheme, to: l.libexec + "/swiftprint-relay", &manifest)
        }
        let typesChanged = try write(definition.typesFile, to: l.typesFile, mode: 0o644, &manifest)
        try write(definition.ppd, to: l.ppdFile, mode: 0o644, &manifest)
        return typesChanged
    }

    /// The spool folder, cupsd told of the types, the queue made (and shared).
    private func installQueue(definition: QueueDefinition, typesChanged: Bool, _ manifest: inout Manifest) throws {
        let l = layout
        try makeFolder(l.state, mode: 0o755, &manifest)
        try makeFolder(l.spool, mode: 0o755, &manifest)
        if !dryRun { try manifest.save() }
        if l.cupsServer == nil {
            try restartSystemCUPS(reason: typesChanged ? "to read \(l.typesFile)" : nil)
        } else if typesChanged {
            say("note: restart the cupsd at \(l.cupsServer!) so that it reads \(l.typesFile)")
        }
        let guest = guestAccount
        if let guest, !dryRun, getpwnam(guest) == nil {
            throw PrintError(.invalidOption, "the guest account \(guest) does not exist on this machine", option: InstallSetting.guestAccount.rawValue)
        }
        let device = SpoolDeviceURI(folder: l.spool, guestAccount: guest)
        try lpadmin(["-p", l.queue, "-E", "-v", device.uri, "-P", l.ppdFile] + keptChoices(of: l.queue, manifest) + [
                     "-D", "Save as PDF (swiftprint)", "-L", l.spool + "/USER",
                     "-o", "printer-error-policy=abort-job", "-o", "printer-is-shared=\(share && !sharingPrinterQueue)"]
                    + (share && !sharingPrinterQueue ? quota?.lpadminOptions ?? [] : []))
        manifest.add("queue", l.queue)
        if !dryRun { try manifest.save() }
        if share && !sharingPrinterQueue { try shareOnTheNetwork(&manifest) }
        say("The \(l.queue) queue prints \(definition.routedTypes.count) types; each job is saved as \(l.spool)/USER/JOB-TITLE.pdf"
            + (guest.map { ", by the account \($0) for senders with no account here" } ?? "; a sender with no account here has the job held"))
        if !definition.unroutableTypes.isEmpty {
            say("note: cupsd cannot recognise \(definition.unroutableTypes.joined(separator: ", ")); swiftprint convert prints them")
        }
    }

    /// Installs swiftprint (as `install(definition:)`) and a queue for the printer `request`
    /// names. The printer is asked what it supports, and its answer kept: when it does not
    /// answer, the answer it gave before makes the queue. Jobs wait while the printer is busy
    /// or off (`printer-error-policy=retry-job`); CUPS's `ipp` backend sends them, behind
    /// swiftprint's relay (`swiftprint-ipp://…`), which sends a job again that the printer lost
    /// by restarting in its middle. A `dnssd://` name goes to CUPS's dnssd backend as it is.
    public func installPrinter(_ request: PrinterQueueRequest, definition: QueueDefinition) throws {
        try PrinterQueueDefinition.checkName(request.name)
        // CUPS's queue names ignore case.
        guard request.name.lowercased() != layout.queue.lowercased() else {
            throw PrintError(.invalidOption, "\(request.name) is the save-as-PDF queue's name (CUPS ignores case): choose another", option: InstallSetting.queueName.rawValue)
        }
        // The address first: a URI that names no printer stops before anything is installed.
        let address = try PrinterAddress(uri: request.uri)
        var base = self
        base.sharingPrinterQueue = share
        try base.install(definition: definition)
        var manifest = Manifest(path: layout.manifest)
        try makeFolder(layout.printers, mode: 0o755, &manifest)
        let saved = "\(layout.printers)/\(request.name).ipp"
        let attributes = try printerAttributes(address, saved: saved, &manifest)
        let printer = try PrinterQueueDefinition(
            name: request.name, deviceURI: request.uri, cupsPPD: try PrinterAttributes.ppd(from: attributes),
            documentFormats: attributes.attribute("document-format-supported")?.strings ?? [], asked: request.format,
            routed: definition.routedTypes)
        let ppd = "\(layout.printers)/\(request.name).ppd"
        try write(printer.ppd, to: ppd, mode: 0o644, &manifest)
        if !dryRun { try manifest.save() }
        let deviceURI = RelayDeviceURI(relaying: request.uri)?.uri ?? request.uri
        try lpadmin(["-p", request.name, "-E", "-v", deviceURI, "-P", ppd] + keptChoices(of: request.name, manifest) + ["-D", "\(printer.makeAndModel) (swiftprint)",
                     "-o", "printer-error-policy=retry-job", "-o", "printer-is-shared=\(share)"] + (share ? quota?.lpadminOptions ?? [] : []))
        manifest.add("queue", request.name)
        if !dryRun { try manifest.save() }
        if share { try shareOnTheNetwork(&manifest) }
        say("The \(request.name) queue sends \(printer.format.mimeType) to \(request.uri): lp -d \(request.name) FILE")
    }

    /// What the printer says it supports, kept in `saved`; when it does not answer, what it
    /// answered before.
    private func printerAttributes(_ address: PrinterAddress, saved: String, _ manifest: inout Manifest) throws -> IPPResponse {
        do {
            let attributes = try PrinterAttributes.ask(address)
            say("\(address.uri) answered")
            manifest.add("file", saved)
            if !dryRun { try PrinterAttributes.save(attributes, to: saved) }
            return attributes
        } catch let error as PrintError where error.code == .notAvailable || error.code == .jobFailed {
            guard FileManager.default.fileExists(atPath: saved) else {
                throw PrintError(.notAvailable, "\(error.message); swiftprint must ask the printer once what it supports: turn it on and run this again")
            }
            let when = (try? FileManager.default.attributesOfItem(atPath: saved)[.modificationDate] as? Date).map { " on \($0)" } ?? ""
            say("note: \(error.message); the queue is made from what the printer answered\(when)")
            return try PrinterAttributes.read(from: saved)
        }
    }

    /// Set by `installPrinter`: the printer queue is the one shared, not the save-as-PDF queue.
    private var sharingPrinterQueue = false

    /// What a shared queue needs of the system: cupsd sharing its printers and announcing them
    /// by DNS-SD (`cupsctl --share-printers`, undone by uninstall when install did it), and
    /// avahi-daemon running, without which no iPhone finds the printer (checked and reported).
    /// cupsd then announces the queue as `_ipp._tcp` with the `_universal` subtype, AirPrint's,
    /// and builds its `URF=` key from the queue's PPD.
    private func shareOnTheNetwork(_ manifest: inout Manifest) throws {
        let current = dryRun ? "" : String(decoding: try ChildProcess.run("/usr/sbin/cupsctl", serverArguments, timeout: 30).output, as: UTF8.self)
        if !current.split(separator: "\n").contains("_share_printers=1") {
            say("cupsctl \((serverArguments + ["--share-printers"]).joined(separator: " "))")
            if !dryRun {
                let result = try ChildProcess.run("/usr/sbin/cupsctl", serverArguments + ["--share-printers"], timeout: 60)
                guard result.status == 0 else { throw PrintError(.notAvailable, "cupsctl --share-printers failed: \(result.lastErrorLine)") }
                manifest.add("setting", "share-printers")
                try manifest.save()
            }
        }
        let avahi = try? ChildProcess.run("/usr/sbin/avahi-daemon", ["--check"], timeout: 10)
        if avahi?.status != 0 {
            say("note: avahi-daemon is not running, so no iPhone or Mac will find the printer: install and start it (apt-get install avahi-daemon; systemctl enable --now avahi-daemon)")
        }
    }

    /// Removes the printer queue `name` that `installPrinter` made, and its files.
    public func uninstallPrinter(name: String) throws {
        var manifest = Manifest(path: layout.manifest)
        guard manifest.entries.contains(where: { $0.kind == "queue" && $0.path == name }), name != layout.queue else {
            throw PrintError(.notAvailable, "\(name): swiftprint made no printer queue of that name (swiftprint printers lists them)", option: InstallSetting.queueName.rawValue)
        }
        try removeQueue(name)
        for path in ["\(layout.printers)/\(name).ppd", "\(layout.printers)/\(name).ipp"] where manifest.contains(path) {
            say("remove \(path)")
            if !dryRun { try? FileManager.default.removeItem(atPath: path) }
            manifest.remove(path)
        }
        manifest.remove(name)
        if !dryRun { try manifest.save() }
    }

    /// Removes what the manifest lists: the queue, the files and links, and the spool folder
    /// when it is empty (saved jobs are the users', and stay).
    public func uninstall() throws {
        let manifest = Manifest(path: layout.manifest)
        guard !manifest.entries.isEmpty else {
            say("nothing to remove: \(layout.manifest) lists nothing (swiftprint is not installed there)")
            return
        }
        for (kind, path) in manifest.entries where kind == "queue" { try removeQueue(path) }
        if manifest.entries.contains(where: { $0.kind == "setting" && $0.path == "share-printers" }) {
            say("cupsctl \((serverArguments + ["--no-share-printers"]).joined(separator: " "))")
            if !dryRun { _ = try? ChildProcess.run("/usr/sbin/cupsctl", serverArguments + ["--no-share-printers"], timeout: 60) }
        }
        var typesRemoved = false
        for (kind, path) in manifest.entries.reversed() where kind == "file" || kind == "link" {
            guard FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else { continue }
            say("remove \(path)")
            if !dryRun { try FileManager.default.removeItem(atPath: path) }
            if path == layout.typesFile { typesRemoved = true }
        }
        say("remove \(layout.manifest)")
        if !dryRun { try? FileManager.default.removeItem(atPath: layout.manifest) }
        // Folders install made, deepest first, when nothing else lives in them; saved jobs are
        // the users' and stay.
        for (kind, path) in manifest.entries.reversed() where kind == "folder" {
            if dryRun { say("remove \(path)/ if nothing else is in it"); continue }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            let inside = path == layout.spool
                ? contents.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: path + "/" + $0)) ?? [] }
                : contents
            guard inside.isEmpty else {
                say("keep \(path): it holds \(inside.count) \(path == layout.spool ? "saved jobs" : "other files")")
                continue
            }
            say("remove \(path)/")
            try FileManager.default.removeItem(atPath: path)
        }
        if typesRemoved, layout.cupsServer == nil { try restartSystemCUPS(reason: "to forget swiftprint's types") }
    }

    /// Restarts (or starts) the system's cupsd so that it reads new types: systemd where it
    /// runs, else the init script (containers).
    private func restartSystemCUPS(reason: String?) throws {
        func answers() -> Bool {
            guard let r = try? ChildProcess.run("/usr/bin/lpstat", ["-r"], timeout: 10) else { return false }
            return String(decoding: r.output, as: UTF8.self).contains("is running")
        }
        let running = answers()
        if running, reason == nil { return }
        let command: [String] = FileManager.default.fileExists(atPath: "/run/systemd/system")
            ? ["/usr/bin/systemctl", "restart", "cups.service"] : ["/etc/init.d/cups", "restart"]
        say("\(running ? "restart" : "start") cupsd\(reason.map { " " + $0 } ?? ""): \(command.joined(separator: " "))")
        guard !dryRun else { return }
        // From `/`: cupsd's filters, running as lp, start in the folder cupsd started in.
        let result = try ChildProcess.run(command[0], Array(command.dropFirst()), timeout: 60, workingDirectory: "/")
        guard result.status == 0 else {
            throw PrintError(.notAvailable, "cannot restart cupsd (\(command.joined(separator: " "))): \(result.lastErrorLine)")
        }
        // Wait until it answers.
        for _ in 0..<100 {
            if answers() { return }
            usleep(100_000)
        }
        throw PrintError(.notAvailable, "cupsd did not come up after \(command.joined(separator: " "))")
    }

    /// Deletes the queue `name`, and, on the system's cupsd, the strings file it leaves in its cache.
    private func removeQueue(_ name: String) throws {
        try lpadmin(["-x", name], allowFailure: true)
        let strings = layout.cupsCacheDir + "/" + name + ".strings"
        if layout.cupsServer == nil, !dryRun, FileManager.default.fileExists(atPath: strings) {
            say("remove \(strings)")
            try? FileManager.default.removeItem(atPath: strings)
        }
    }

    /// The choices an administrator set on an existing queue (`lpadmin -p QUEUE -o name=value`,
    /// marked in `lpoptions -l`), as `-o` arguments, so that installing again (a package's
    /// upgrade) gives the new PPD the same defaults; none for a queue install has not made
    /// before (`lpoptions` also answers for printers found on the network).
    private func keptChoices(of queue: String, _ manifest: Manifest) -> [String] {
        guard !dryRun, manifest.entries.contains(where: { $0.kind == "queue" && $0.path == queue }),
              let listed = try? ChildProcess.run("/usr/bin/lpoptions", serverArguments + ["-p", queue, "-l"], timeout: 60),
              listed.status == 0 else { return [] }
        // `swiftprint-line-numbers/Line numbers (text): False *True`
        return String(decoding: listed.output, as: UTF8.self).split(separator: "\n").flatMap { line -> [String] in
            guard let slash = line.firstIndex(of: "/"), let chosen = line.split(separator: " ").first(where: { $0.hasPrefix("*") }) else { return [] }
            return ["-o", "\(line[..<slash])=\(chosen.dropFirst())"]
        }
    }

    /// `-h host:port` for CUPS's tools, when install works on a cupsd other than the system's.
    private var serverArguments: [String] { layout.cupsServer.map { ["-h", $0] } ?? [] }

    private func lpadmin(_ arguments: [String], allowFailure: Bool = false) throws {
        let args = serverArguments + arguments
        say("lpadmin \(args.joined(separator: " "))")
        guard !dryRun else { return }
        let result = try ChildProcess.run("/usr/sbin/lpadmin", args, timeout: 60)
        if result.status != 0, !allowFailure {
            throw PrintError(.notAvailable, "lpadmin failed: \(result.lastErrorLine)")
        }
    }
}

/// The list of what install added.
struct Manifest {
    let path: String
    private(set) var entries: [(kind: String, path: String)] = []

    init(path: String) {
        self.path = path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { entries.append((String(parts[0]), String(parts[1]))) }
        }
    }

    func contains(_ p: String) -> Bool { entries.contains { $0.path == p } }

    mutating func remove(_ p: String) { entries.removeAll { $0.path == p } }

    mutating func add(_ kind: String, _ p: String) {
        if !entries.contains(where: { $0.kind == kind && $0.path == p }) { entries.append((kind, p)) }
    }

    func save() throws {
        let text = entries.map { "\($0.kind) \($0.path)" }.joined(separator: "\n") + "\n"
        try OutputFile.save(Data(text.utf8), to: path)
    }
}
