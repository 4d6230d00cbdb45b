/// The device URI of a swiftprint printer queue: the printer's own `ipp://` or `ipps://`
/// address behind `swiftprint-`, so that cupsd starts swiftprint's relay backend, which runs
/// CUPS's own `ipp` backend on the printer's address and watches what becomes of the job
/// (PrinterRelay says why).
///
///     swiftprint-ipp://192.168.1.20:631/ipp/print?contimeout=30
///       → CUPS's ipp backend with ipp://192.168.1.20:631/ipp/print?contimeout=30
public struct RelayDeviceURI: Equatable, Sendable {
    /// The schemes relayed, each the name of the CUPS backend that sends to it.
    public static let relayedSchemes = ["ipp", "ipps"]
    public static let prefix = "swiftprint-"

    /// The printer's address, as CUPS's backend takes it (its options included).
    public let printerURI: String
    /// `ipp` or `ipps`: the CUPS backend that sends the job.
    public let backend: String

    /// Nil unless `uri` is `swiftprint-ipp://…` or `swiftprint-ipps://…` with a host, and no
    /// control character or space (it reaches another program's arguments and environment).
    public init?(_ uri: String) {
        guard uri.hasPrefix(Self.prefix) else { return nil }
        let printer = String(uri.dropFirst(Self.prefix.count))
        guard let scheme = Self.relayedSchemes.first(where: { printer.hasPrefix($0 + "://") }),
              printer.count > scheme.count + 3,
              !printer.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return nil }
        printerURI = printer
        backend = scheme
    }

    /// The relay's URI for the printer at `printerURI`; nil for an address it does not relay
    /// (a `dnssd://` name goes to CUPS's dnssd backend as it is).
    public init?(relaying printerURI: String) {
        self.init(Self.prefix + printerURI)
    }

    /// The device URI cupsd keeps: `swiftprint-` and the printer's address.
    public var uri: String { Self.prefix + printerURI }

    /// The printer's own address for a queue's device URI, relayed or not.
    public static func printerAddress(ofDevice deviceURI: String) -> String {
        RelayDeviceURI(deviceURI)?.printerURI ?? deviceURI
    }
}
