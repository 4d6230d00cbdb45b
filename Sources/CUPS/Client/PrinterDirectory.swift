import CCupsShim
import CUPSLibrary
import PrintModel
import PrintSupport

/// The printer picker's source: every CUPS destination the server knows (queues, their
/// instances, IPP Everywhere printers found on the network) through `cupsGetDests2`.
public enum PrinterDirectory {
    /// Every destination, the default marked; with `capabilities`, each printer is asked what it
    /// supports (one request per printer).
    public static func printers(capabilities: Bool = true) throws -> [Printer] {
        let list = try DestinationList()
        return list.indices.map { list.printer(at: $0, capabilities: capabilities) }
    }

    /// The destination called `name` (`Office` or `Office/duplex`), or the default for nil.
    public static func printer(named name: String?, capabilities: Bool = true) throws -> Printer {
        let list = try DestinationList()
        return list.printer(at: try list.index(of: name), capabilities: capabilities)
    }

    /// Every destination, as `printers(capabilities:)` lists them, asked on a thread of its own.
    public static func printers(capabilities: Bool = true) async throws -> [Printer] {
        try await BlockingCall.run { try printers(capabilities: capabilities) }
    }

    /// The destination called `name`, or the default for nil, asked on a thread of its own.
    public static func printer(named name: String?, capabilities: Bool = true) async throws -> Printer {
        try await BlockingCall.run { try printer(named: name, capabilities: capabilities) }
    }
}

/// The destinations libcups returned (`cups_dest_t` array), freed with their owner.
final class DestinationList {
    private var count: Int32 = 0
    private var dests: UnsafeMutablePointer<cups_dest_t>?

    init() throws {
        try LibCUPS.loadForRequests()
        count = spcups_cupsGetDests2(nil, &dests)
        // Zero destinations and an unreachable server look alike here: libcups says which.
        if count == 0, spcups_cupsLastError().rawValue > IPP_STATUS_OK_EVENTS_COMPLETE.rawValue {
            throw LibCUPS.lastError("cannot reach the CUPS server at \(LibCUPS.server)", code: .notAvailable)
        }
    }

    deinit { spcups_cupsFreeDests(count, dests) }

    var indices: Range<Int> { 0..<Int(count) }

    func destination(at index: Int) -> UnsafeMutablePointer<cups_dest_t> { dests! + index }

    func name(at index: Int) -> String {
        let d = destination(at: index).pointee
        let queue = String(cString: d.name)
        return d.instance.map { queue + "/" + String(cString: $0) } ?? queue
    }

    /// The index of `name`, or of the default destination for nil.
    func index(of name: String?) throws -> Int {
        if let name {
            if let i = indices.first(where: { self.name(at: $0) == name }) { return i }
            let known = indices.map { self.name(at: $0) }
            throw PrintError(.notAvailable, "no printer called \(name)" + (known.isEmpty ? " (CUPS at \(LibCUPS.server) has none)" : "; there are: \(known.joined(separator: ", "))"))
        }
        if let i = indices.first(where: { destination(at: $0).pointee.is_default != 0 }) { return i }
        throw PrintError(.notAvailable, "no default printer is set: name one with -d (swiftprint printers lists them)")
    }

    func option(_ name: String, at index: Int) -> String? {
        let d = destination(at: index).pointee
        for i in 0..<Int(d.num_options) where String(cString: d.options[i].name) == name {
            return String(cString: d.options[i].value)
        }
        return nil
    }

    func printer(at index: Int, capabilities: Bool) -> Printer {
        let state: Printer.State = switch option("printer-state", at: index) {
        case "3": .idle
        case "4": .processing
        case "5": .stopped
        default: .unknown
        }
        let reasons = (option("printer-state-reasons", at: index) ?? "").split(separator: ",").map(String.init).filter { $0 != "none" }
        var printer = Printer(
            name: name(at: index), isDefault: destination(at: index).pointee.is_default != 0,
            info: option("printer-info", at: index), location: option("printer-location", at: index),
            makeAndModel: option("printer-make-and-model", at: index), deviceURI: option("device-uri", at: index),
            state: state, stateReasons: reasons, isAcceptingJobs: option("printer-is-accepting-jobs", at: index) != "false",
            swiftprintQueue: SwiftPrintQueueKind.of(deviceURI: option("device-uri", at: index), makeAndModel: option("printer-make-and-model", at: index)))
        if capabilities {
            do { printer.capabilities = try DestinationInfo(self, index).capabilities }
            catch let e as PrintError { printer.capabilitiesError = e.message }
            catch { printer.capabilitiesError = "\(error)" }
        }
        return printer
    }
}

/// What the server says a destination supports (`cups_dinfo_t`), freed with its owner. Keeps
/// its destination list alive, since it points into it.
final class DestinationInfo {
    let list: DestinationList
    let index: Int
    let info: OpaquePointer

    init(_ list: DestinationList, _ index: Int) throws {
        self.list = list
        self.index = index
        guard let info = spcups_cupsCopyDestInfo(nil, list.destination(at: index)) else {
            throw LibCUPS.lastError("cannot ask \(list.name(at: index)) what it supports", code: .notAvailable)
        }
        self.info = info
    }

    deinit { spcups_cupsFreeDestInfo(info) }

    var destination: UnsafeMutablePointer<cups_dest_t> { list.destination(at: index) }

    func supported(_ option: String) -> [String] {
        spcups_cupsFindDestSupported(nil, destination, info, option).map { IPPAttribute($0).texts } ?? []
    }

    func ready(_ option: String) -> [String] {
        spcups_cupsFindDestReady(nil, destination, info, option).map { IPPAttribute($0).texts } ?? []
    }

    func defaultValue(_ option: String) -> String? {
        spcups_cupsFindDestDefault(nil, destination, info, option).flatMap { IPPAttribute($0).texts.first }
    }

    var capabilities: PrinterCapabilities {
        // media-ready is a list of names; some printers give only media-col-ready (collections).
        PrinterCapabilities(
            media: supported("media"), readyMedia: ready("media"), defaultMedia: defaultValue("media"),
            sides: supported("sides"), colorModes: supported("print-color-mode"),
            resolutions: supported("printer-resolution"), documentFormats: supported("document-format"),
            maximumCopies: spcups_cupsFindDestSupported(nil, destination, info, "copies").flatMap { IPPAttribute($0).range?.upperBound },
            // libcups adds "-supported" to the name it is given.
            pwgRasterResolutions: supported("pwg-raster-document-resolution"),
            pwgRasterTypes: supported("pwg-raster-document-type"), urfSupported: supported("urf"),
            margins: margins, mediaSources: supported("media-source"))
    }

    /// Each paper's margins, from libcups's media database (the printer's `media-col-database`,
    /// or the queue's PPD).
    var margins: PrinterMargins {
        var margins = PrinterMargins()
        let count = spcups_cupsGetDestMediaCount(nil, destination, info, 0)
        for n in 0..<max(0, count) {
            var size = cups_size_t()
            guard spcups_cupsGetDestMediaByIndex(nil, destination, info, n, 0, &size) != 0 else { continue }
            let name = withUnsafeBytes(of: size.media) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            // Hundredths of a millimetre, to points.
            func points(_ v: Int32) -> Double { Double(v) * 72 / 2540 }
            margins.add(media: name, edges: EdgeInsets(top: points(size.top), left: points(size.left), bottom: points(size.bottom), right: points(size.right)))
        }
        return margins
    }
}

/// The CUPS server libcups talks to.
public enum CUPSServer {
    /// `host:port` or a socket path: from CUPS_SERVER, client.conf, or the local default.
    public static var name: String { (try? LibCUPS.loadForRequests()) != nil ? LibCUPS.server : "localhost" }
}
