import ArgumentParser
import CUPSQueue
import Foundation
import SwiftPrint

/// Where install and uninstall work: the system's folders and cupsd unless told otherwise.
struct InstallOptions: ParsableArguments {
    @Option(help: "Installation prefix for bin/, libexec/swiftprint/ and share/swiftprint/.")
    var prefix = "/usr/local"
    @Option(name: .customLong("cups-serverbin"), help: "CUPS's ServerBin (filters and backends).")
    var cupsServerBin = "/usr/lib/cups"
    @Option(name: .customLong("cups-datadir"), help: "CUPS's DataDir (types go in its mime/ folder).")
    var cupsDataDir = "/usr/share/cups"
    @Option(name: .customLong("cups-serverroot"), help: "CUPS's ServerRoot (read for the types it already knows).")
    var cupsServerRoot = "/etc/cups"
    @Option(name: .customLong("cups-server"), help: "host:port of the cupsd to add the queue to (default: the system's, restarted when its types change).")
    var cupsServer: String?
    @Option(help: "The folder jobs are saved in, one subfolder per user.")
    var spool = SpoolFolder.default
    @Option(help: "The queue's name.")
    var queue = "swiftprint"
    @Flag(name: .customLong("dry-run"), help: "Say what would be done, and do nothing.")
    var dryRun = false
    @Option(help: ArgumentHelp("Where install keeps the list of what it added and printers' answers (default: PREFIX/share/swiftprint; a package's: /var/lib/swiftprint).",
                               valueName: "folder"))
    var state: String?
    @Option(help: ArgumentHelp("For packagers: only the files (staged under --destdir) or only the queue (the package's postinst), or everything.",
                               valueName: "part"))
    var part: InstallPart = .everything
    @Option(help: ArgumentHelp("For packagers: write the files under this folder (DESTDIR), for the paths they will have.", valueName: "folder"))
    var destdir: String?

    var layout: InstallLayout {
        var l = InstallLayout()
        l.prefix = prefix; l.cupsServerBin = cupsServerBin; l.cupsDataDir = cupsDataDir
        l.cupsServerRoot = cupsServerRoot; l.cupsServer = cupsServer; l.spool = spool; l.queue = queue
        l.stateFolder = state
        return l
    }

    func validate() throws {
        if !dryRun, destdir == nil, geteuid() != 0 { throw ValidationError("this changes CUPS and system folders: run it as root (sudo), or add --dry-run") }
        if destdir != nil, part != .files { throw ValidationError("--destdir stages the files only: add --part files") }
        if !spool.hasPrefix("/") { throw ValidationError("the spool folder must be an absolute path") }
    }

    func installer() -> Installer {
        // The other executables were built beside this one; the data is the installation's or the source tree's.
        let exe = Installation.executable ?? CommandLine.arguments[0]
        var installer = Installer(layout: layout, products: (exe as NSString).deletingLastPathComponent,
                                  config: ConfigFiles.directory ?? "Config")
        installer.dryRun = dryRun
        installer.part = part
        installer.destination = destdir.map { ($0 as NSString).standardizingPath } ?? ""
        return installer
    }
}

extension InstallPart: ExpressibleByArgument {}

struct Install: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Install swiftprint into CUPS and create the swiftprint queue (lp -d swiftprint FILE).",
        discussion: """
        Puts swiftprint in PREFIX, its CUPS filter and backend in the ServerBin, its types in the \
        DataDir, and creates the queue, whose jobs are saved as PDF in SPOOL/USER/. Run it again \
        at any time: unchanged files are left alone. swiftprint uninstall removes what it added.

        With --printer and --name, it also makes a queue for a real printer: swiftprint's filter \
        turns every job into what the printer takes (PDF, PWG raster or Apple raster) and CUPS's \
        ipp backend sends it. Its papers, printable areas, sides, colour and resolutions are the \
        printer's own; jobs wait while it is busy or off.

        Examples:
          sudo swiftprint install
          swiftprint install --dry-run
          lp -d swiftprint notes.txt photo.jpg report.pdf
          sudo swiftprint install --printer ipp://office.local/ipp/print --name Office
          sudo swiftprint install --share          # an AirPrint printer for iPhones
          sudo swiftprint uninstall --name Office
        """
    )

    @OptionGroup var where_: InstallOptions
    @Option(help: ArgumentHelp("Also make a queue for this printer: ipp://host/ipp/print, ipps://…, or a dnssd:// name from lpinfo -v.", valueName: "uri"))
    var printer: String?
    @Option(help: "The printer queue's name (lp -d NAME); with --printer.")
    var name: String?
    @Option(name: .customLong("output-format"), help: ArgumentHelp("What the printer queue sends: pdf, pwg-raster or urf (default: PDF if the printer takes it, else PWG raster, else Apple raster).", valueName: "format"),
            transform: { text in
                guard let format = OutputFormat(name: text) else { throw ValidationError("--output-format \(text): pdf, pwg-raster or urf") }
                return format
            })
    var outputFormat: OutputFormat?
    @Flag(help: "Share the queue on the network as an AirPrint printer (iPhones, iPads, Macs) and an IPP Everywhere one: cupsd shares and announces it (cupsctl --share-printers), avahi-daemon must run.")
    var share = false
    @Option(name: .customLong("guest-account"), help: ArgumentHelp("The account that saves the jobs of senders with no account on this machine, such as phones on the network; none: their jobs are held (default: nobody with --share, else none).", valueName: "name"))
    var guestAccount: String?
    @Option(name: .customLong("quota-mb"), help: ArgumentHelp("With --share: megabytes one sender may send the queue per quota period; 0: no limit (default 200).", valueName: "MB"))
    var quotaMegabytes = ShareQuota.defaults.megabytes
    @Option(name: .customLong("quota-pages"), help: ArgumentHelp("With --share: pages one sender may print per quota period; 0: no limit (default 500).", valueName: "n"))
    var quotaPages = ShareQuota.defaults.pages
    @Option(name: .customLong("quota-period"), help: ArgumentHelp("With --share: the quota period in seconds (default 3600).", valueName: "seconds"))
    var quotaPeriod = ShareQuota.defaults.seconds

    func validate() throws {
        if printer != nil, name == nil { throw ValidationError("--printer needs --name, the queue's name") }
        if printer == nil, name != nil || outputFormat != nil { throw ValidationError("--name and --output-format go with --printer") }
        if quotaMegabytes < 0 || quotaPages < 0 || quotaPeriod <= 0 {
            throw ValidationError("--quota-mb and --quota-pages are 0 or more, --quota-period more than 0")
        }
    }

    func run() throws {
        let dispatcher = Dispatcher.standard
        let catalogue = dispatcher.detector.catalogue
        let printable = dispatcher.printableUTIs.map { (uti: $0, mimeTypes: catalogue.type($0)?.mimeTypes ?? []) }
        let layout = where_.layout
        let rules = (try? String(contentsOfFile: (ConfigFiles.directory ?? "Config") + "/cups/swiftprint.types", encoding: .utf8)) ?? ""
        let definition = QueueDefinition(
            printable: printable,
            cupsTypes: QueueDefinition.cupsTypes(in: [layout.cupsDataDir + "/mime", layout.cupsServerRoot]),
            rules: rules, defaultMedia: PaperDefaults.media(for: .general))
        var installer = where_.installer()
        installer.share = share
        installer.guestAccount = guestAccount == "none" ? nil : (guestAccount ?? (share ? Installer.defaultGuestAccount : nil))
        installer.quota = ShareQuota(megabytes: quotaMegabytes, pages: quotaPages, seconds: quotaPeriod)
        do {
            if let printer, let name {
                try installer.installPrinter(PrinterQueueRequest(uri: printer, name: name, format: outputFormat), definition: definition)
            } else {
                try installer.install(definition: definition)
            }
        } catch let e as PrintError { throw fail(e, flag: Self.flag) }
    }

    /// The flag for an installer setting an error names.
    static func flag(_ setting: String) -> String? {
        switch InstallSetting(rawValue: setting) {
        case .queueName?: "--name"
        case .guestAccount?: "--guest-account"
        case nil: nil
        }
    }
}

struct Uninstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove what swiftprint install added (saved jobs stay).")

    @OptionGroup var where_: InstallOptions
    @Option(help: "Remove only this printer queue (one install --printer made).")
    var name: String?

    func run() throws {
        do {
            if let name { try where_.installer().uninstallPrinter(name: name) } else { try where_.installer().uninstall() }
        } catch let e as PrintError { throw fail(e, flag: Install.flag) }
    }
}
