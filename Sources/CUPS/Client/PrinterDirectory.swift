import CUPSLibrary
import PrintModel
import PrintSupport

/// The printer picker's source: every CUPS destination the server knows (queues, their
/// instances, IPP Everywhere printers found on the network) through `cupsGetDests2`.
public enum PrinterDirectory {
    /// Every destination, the default marked; with `capabilities`, each printer is asked what it
    /// supports (one request per printer).
    public static func printers(capabilities: Bool = true) throws -> [Printer] {
        let list = try CUPSDestinations()
        return list.indices.map { list.printer(at: $0, capabilities: capabilities) }
    }

    /// The destination called `name` (`Office` or `Office/duplex`), or the default for nil.
    public static func printer(named name: String?, capabilities: Bool = true) throws -> Printer {
        let list = try CUPSDestinations()
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

extension CUPSDestinations {
    func printer(at index: Int, capabilities: Bool) -> Printer {
        let state: Printer.State = switch option("printer-state", at: index) {
        case "3": .idle
        case "4": .processing
        case "5": .stopped
        default: .unknown
        }
        let reasons = (option("printer-state-reasons", at: index) ?? "").split(separator: ",").map(String.init).filter { $0 != "none" }
        var printer = Printer(
            name: name(at: index), isDefault: isDefault(at: index),
            info: option("printer-info", at: index), location: option("printer-location", at: index),
            makeAndModel: option("printer-make-and-model", at: index), deviceURI: option("device-uri", at: index),
            state: state, stateReasons: reasons, isAcceptingJobs: option("printer-is-accepting-jobs", at: index) != "false",
            swiftprintQueue: SwiftPrintQueueKind.of(deviceURI: option("device-uri", at: index), makeAndModel: option("printer-make-and-model", at: index)))
        if capabilities {
            do { printer.capabilities = try CUPSDestinationInfo(self, index).capabilities }
            catch let e as PrintError { printer.capabilitiesError = e.message }
            catch { printer.capabilitiesError = "\(error)" }
            printer.supplies = supplies(at: index)
        }
        return printer
    }

    /// The queue's `marker-*` lists as supplies; empty when the server says none or cannot be asked.
    func supplies(at index: Int) -> [PrinterSupply] {
        let names = ["marker-names", "marker-types", "marker-colors", "marker-levels", "marker-low-levels", "marker-high-levels"]
        guard let answer = printerAttributes(names, at: index) else { return [] }
        func texts(_ name: String) -> [String] { answer.attribute(name)?.texts ?? [] }
        // Through the text of each value, so that one that is not a number is unknown (-2), in its place.
        func integers(_ name: String) -> [Int] { texts(name).map { Int($0) ?? -2 } }
        return PrinterSupply.fromMarkers(names: texts("marker-names"), types: texts("marker-types"), colors: texts("marker-colors"),
                                         levels: integers("marker-levels"), lowLevels: integers("marker-low-levels"),
                                         highLevels: integers("marker-high-levels"))
    }
}

extension CUPSDestinationInfo {
    var capabilities: PrinterCapabilities {
        // media-ready is a list of names; some printers give only media-col-ready (collections).
        var margins = PrinterMargins()
        for (media, edges) in mediaMargins { margins.add(media: media, edges: edges) }
        let pwgRasterTypes = supported("pwg-raster-document-type")
        // How the backs of PWG raster sheets are turned: asked only of a printer that takes PWG raster.
        let sheetBack = pwgRasterTypes.isEmpty ? nil : printerAttribute("pwg-raster-document-sheet-back").first.flatMap(SheetBack.init(rawValue:))
        return PrinterCapabilities(
            media: supported("media"), readyMedia: ready("media"), defaultMedia: defaultValue("media"),
            sides: supported("sides"), colorModes: supported("print-color-mode"),
            resolutions: supported("printer-resolution"), documentFormats: supported("document-format"),
            maximumCopies: maximumCopies,
            pwgRasterResolutions: supported("pwg-raster-document-resolution"),
            pwgRasterTypes: pwgRasterTypes, urfSupported: supported("urf"),
            margins: margins, mediaSources: supported("media-source"), sheetBack: sheetBack)
    }
}

/// The CUPS server libcups talks to.
public enum CUPSServer {
    /// `host:port` or a socket path: from CUPS_SERVER, client.conf, or the local default.
    public static var name: String { (try? LibCUPS.loadForRequests()) != nil ? LibCUPS.server : "localhost" }
}
