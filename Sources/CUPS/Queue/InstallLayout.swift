import CUPSCommon
import CUPSLibrary
import Foundation
import PrintModel

/// Where `swiftprint install` puts things. The defaults are the system's; tests point every
/// folder and the CUPS server at a private cupsd of their own.
public struct InstallLayout: Sendable {
    /// bin/swiftprint, libexec/swiftprint/{swiftprint-filter,swiftprint-backend,swiftprint-relay,swiftprint-image,swiftprint-markup,swiftprint-map,
    /// swiftprint-raster},
    /// lib/swiftprint/{libSwiftPrintQPDF.so,libSwiftPrintPDFRepair.so,libSwiftPrintWebPrintDeflate.so},
    /// share/swiftprint/{Config,swiftprint.ppd,installed-files}.
    public var prefix = "/usr/local"
    public var cupsServerBin = "/usr/lib/cups"
    public var cupsDataDir = "/usr/share/cups"
    public var cupsServerRoot = "/etc/cups"
    /// cupsd's CacheDir, where it leaves a deleted queue's `NAME.strings` behind (CUPS 2.4
    /// removes the queue's other cache files only).
    public var cupsCacheDir = "/var/cache/cups"
    public var spool = SpoolFolder.default
    public var queue = "swiftprint"
    /// `host:port` of the cupsd to add the queue to; nil: the system's own, which install may restart.
    public var cupsServer: String?

    public init() {}

    public var libexec: String { prefix + "/" + Installation.helperFolder }
    public var engines: String { prefix + "/" + Installation.engineFolder }
    public var share: String { prefix + "/" + Installation.dataFolder }
    /// Where install keeps what it learns at run time (the manifest, printers' answers and
    /// PPDs): `share/swiftprint` for a source build; a package's own under /var/lib, since its
    /// /usr is dpkg's.
    public var stateFolder: String?
    public var state: String { stateFolder ?? share }
    /// What install added, one `kind path` line each, so that uninstall removes exactly that.
    public var manifest: String { state + "/installed-files" }
    public var typesFile: String { cupsDataDir + "/mime/swiftprint.types" }
    public var ppdFile: String { share + "/swiftprint.ppd" }
    /// A printer queue's PPD and the printer's last answer (`NAME.ppd`, `NAME.ipp`).
    public var printers: String { state + "/printers" }
}

/// What `swiftprint install` does: all of it, or one half of what a Debian package splits it
/// into (the files, staged when the package is built; the queue, made by its postinst).
public enum InstallPart: String, Sendable, CaseIterable {
    case everything
    /// The programs, data, manual, completion scripts, CUPS's links, types file and the PPD.
    case files
    /// The spool folder, cupsd told of the types, the queue (and sharing).
    case queue
}

/// A queue for a real printer, as `swiftprint install --printer URI --name NAME` asks for it.
public struct PrinterQueueRequest: Sendable {
    /// `ipp://…`, `ipps://…` or `dnssd://…`: where the printer is, and the queue's device URI.
    public var uri: String
    public var name: String
    /// The format to send; nil for the best the printer takes.
    public var format: OutputFormat?

    public init(uri: String, name: String, format: OutputFormat? = nil) {
        self.uri = uri; self.name = name; self.format = format
    }
}

public enum SpoolFolder { public static let `default` = "/var/spool/swiftprint" }

/// The installer's settings an error can name (`PrintError.option`), for each front end to word
/// its own way: the `install` command's flags, or a package's own question.
public enum InstallSetting: String, Sendable {
    /// A printer queue's name (`lp -d NAME`).
    case queueName = "queue-name"
    /// The account that saves the jobs of senders with no account on this machine.
    case guestAccount = "guest-account"
}
