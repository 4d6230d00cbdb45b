import CUPSCommon
import PrintModel

/// A CUPS destination, as the printer picker shows it: a queue (or a queue's instance, such as
/// `Office/duplex`), an IPP Everywhere printer CUPS found on the network, or the default.
public struct Printer: Hashable, Codable, Sendable {
    public enum State: String, Hashable, Codable, Sendable {
        case idle, processing, stopped, unknown
    }

    /// The name jobs are sent to: the queue, then `/instance` for an instance.
    public var name: String
    public var isDefault: Bool
    /// Description and location as the administrator wrote them.
    public var info: String?
    public var location: String?
    public var makeAndModel: String?
    /// Where CUPS sends jobs (`ipp://…`, `usb://…`, `swiftprint:/var/spool/swiftprint`,
    /// `swiftprint-ipp://…` for a swiftprint printer queue).
    public var deviceURI: String?
    /// The printer's own network address (`ipp://…`, `ipps://…`) when the queue sends to one,
    /// through swiftprint's relay or not.
    public var printerURI: String? {
        guard let deviceURI else { return nil }
        let address = RelayDeviceURI.printerAddress(ofDevice: deviceURI)
        return address.hasPrefix("ipp://") || address.hasPrefix("ipps://") ? address : nil
    }
    public var state: State
    /// IPP `printer-state-reasons` other than `none` (`media-empty`, `paused`, …).
    public var stateReasons: [String]
    public var isAcceptingJobs: Bool
    /// Which of swiftprint's queues this is, when it is one.
    public var swiftprintQueue: SwiftPrintQueueKind?
    /// What the printer can do; nil when it was not asked (or could not be reached).
    public var capabilities: PrinterCapabilities?
    /// Why the capabilities are missing, when they were asked for and could not be read.
    public var capabilitiesError: String?
    /// Toner, ink and waste boxes with their levels, as CUPS last heard them from the printer
    /// (its queue's `marker-*` attributes, which the backend reports during each job); empty
    /// when the printer has said none or the server did not answer the question, nil when not
    /// asked (asked with the capabilities).
    public var supplies: [PrinterSupply]?
}

/// One supply of a printer, as CUPS reports it in the parallel lists `marker-names`,
/// `marker-types`, `marker-colors`, `marker-levels`, `marker-low-levels` and
/// `marker-high-levels` (one entry per supply).
public struct PrinterSupply: Hashable, Codable, Sendable {
    /// What the printer calls it: `Black Toner`, `Cyan`.
    public let name: String
    /// IPP's kind of supply: `toner`, `ink-cartridge`, `waste-toner`, `fuser`, …
    public let type: String?
    /// `#RRGGBB`; several for a cartridge of several inks (`#00FFFF#FF00FF#FFFF00`), `none` for
    /// a supply of no colour.
    public let color: String?
    /// How full, in percent; nil when the printer does not know.
    public let level: Int?
    /// The printer does not know how full, but knows it is not empty (IPP's level -3).
    public let someRemaining: Bool
    /// At or below this a consumable is low; at or above `highLevel` a waste box is nearly full.
    public let lowLevel: Int?
    public let highLevel: Int?
    /// A box the printer fills (`waste-toner`, `waste-ink`) rather than one it uses up: its
    /// level is how full it is, and "some remaining" is room, not supply.
    public let isReceptacle: Bool
    /// What the level says by the printer's own thresholds, nil when all is well or unknown.
    /// Both are decided here once, for the listing, the JSON and the web page alike.
    public let attention: Attention?

    public enum Attention: String, Hashable, Codable, Sendable {
        /// A consumable at or below its low level.
        case low
        /// A waste box at or above its high level.
        case nearlyFull = "nearly-full"
    }

    public init(name: String, type: String? = nil, color: String? = nil, level: Int? = nil, someRemaining: Bool = false,
                lowLevel: Int? = nil, highLevel: Int? = nil) {
        self.name = name; self.type = type; self.color = color; self.level = level; self.someRemaining = someRemaining
        self.lowLevel = lowLevel; self.highLevel = highLevel
        let receptacle = type?.hasPrefix("waste") == true
        isReceptacle = receptacle
        attention = level.flatMap { level in
            receptacle ? highLevel.flatMap { level >= $0 ? .nearlyFull : nil } : (level <= (lowLevel ?? 0) ? .low : nil)
        }
    }

    /// The supplies in CUPS's `marker-*` lists; `levels` in IPP's terms (-1 unavailable, -2
    /// unknown, -3 some remaining). A list shorter than the names leaves those supplies' value
    /// unsaid rather than guessing.
    package static func fromMarkers(names: [String], types: [String], colors: [String], levels: [Int],
                                    lowLevels: [Int], highLevels: [Int]) -> [PrinterSupply] {
        names.indices.map { n in
            func at<T>(_ list: [T]) -> T? { n < list.count ? list[n] : nil }
            let raw = at(levels)
            let percent = raw.flatMap { (0...100).contains($0) ? $0 : nil }
            return PrinterSupply(name: names[n], type: at(types), color: at(colors), level: percent, someRemaining: raw == -3,
                                 lowLevel: at(lowLevels).flatMap { (0...100).contains($0) ? $0 : nil },
                                 highLevel: at(highLevels).flatMap { (0...100).contains($0) ? $0 : nil })
        }
    }
}

/// The queues `swiftprint install` makes.
public enum SwiftPrintQueueKind: String, Hashable, Codable, Sendable {
    /// The Printer Simulator's queue: jobs saved as PDF (device `swiftprint:/folder`).
    case saveAsPDF = "save-as-pdf"
    /// A real printer's queue (`install --printer`): swiftprint's filter, then CUPS's ipp
    /// backend behind swiftprint's relay (device `swiftprint-ipp://…`).
    case printer

    /// What a destination's device URI and make and model say of it.
    static func of(deviceURI: String?, makeAndModel: String?) -> SwiftPrintQueueKind? {
        if deviceURI?.hasPrefix("swiftprint:") == true { return .saveAsPDF }
        if let deviceURI, RelayDeviceURI(deviceURI) != nil { return .printer }
        if makeAndModel?.hasSuffix(" (swiftprint)") == true { return .printer }
        return nil
    }
}

/// What a printer supports, from its IPP attributes (through CUPS's `cupsCopyDestInfo`).
public struct PrinterCapabilities: Hashable, Codable, Sendable {
    /// PWG media names the printer supports (`iso_a4_210x297mm`, `na_letter_8.5x11in`, …).
    public var media: [String]
    /// The media loaded now (`media-ready`); empty when the printer does not say.
    public var readyMedia: [String]
    public var defaultMedia: String?
    /// IPP `sides-supported`: `one-sided`, `two-sided-long-edge`, `two-sided-short-edge`.
    public var sides: [String]
    /// IPP `print-color-mode-supported`: `monochrome`, `color`, `auto`, …
    public var colorModes: [String]
    /// `printer-resolution-supported`, as `600dpi` or `300x600dpi`.
    public var resolutions: [String]
    /// MIME types the printer (or its queue's filters) accept.
    public var documentFormats: [String]
    /// The most copies one job may ask for.
    public var maximumCopies: Int?
    /// PWG raster the printer takes: `pwg-raster-document-resolution-supported` (`300dpi`) and
    /// `pwg-raster-document-type-supported` (`srgb_8`).
    public var pwgRasterResolutions: [String]
    public var pwgRasterTypes: [String]
    /// Apple raster the printer takes, as `urf-supported` says it (`RS300-600`, `W8`, `SRGB24`).
    public var urfSupported: [String]
    /// What the printer cannot print at the edges of each paper, and what it prints borderless.
    public var margins: PrinterMargins
    /// IPP `media-source-supported`: `main`, `tray-1`, `main-roll`, …
    public var mediaSources: [String]
    /// How the printer turns the backs of two-sided PWG raster sheets: IPP's
    /// `pwg-raster-document-sheet-back`, or a queue's PPD's `*cupsBackSide`; nil: it does not
    /// say. Apple raster's own is in `urfSupported` (`sheetBack(for:)` reads both).
    public var sheetBack: SheetBack?
    /// The resolution and type the printer's driver chooses for raster when the job does not:
    /// a queue's PPD says them for the job's options (`Resolution`, `ColorModel`, read as CUPS's
    /// raster filters read them); IPP lists choices instead and leaves these nil.
    public var rasterDefaultResolution: PrinterResolution?
    public var rasterDefaultType: RasterType?

    public init(media: [String] = [], readyMedia: [String] = [], defaultMedia: String? = nil, sides: [String] = [],
                colorModes: [String] = [], resolutions: [String] = [], documentFormats: [String] = [], maximumCopies: Int? = nil,
                pwgRasterResolutions: [String] = [], pwgRasterTypes: [String] = [], urfSupported: [String] = [],
                margins: PrinterMargins = PrinterMargins(), mediaSources: [String] = [], sheetBack: SheetBack? = nil,
                rasterDefaultResolution: PrinterResolution? = nil, rasterDefaultType: RasterType? = nil) {
        self.media = media; self.readyMedia = readyMedia; self.defaultMedia = defaultMedia; self.sides = sides
        self.colorModes = colorModes; self.resolutions = resolutions; self.documentFormats = documentFormats
        self.maximumCopies = maximumCopies
        self.pwgRasterResolutions = pwgRasterResolutions; self.pwgRasterTypes = pwgRasterTypes; self.urfSupported = urfSupported
        self.margins = margins; self.mediaSources = mediaSources; self.sheetBack = sheetBack
        self.rasterDefaultResolution = rasterDefaultResolution; self.rasterDefaultType = rasterDefaultType
    }

    private enum CodingKeys: String, CodingKey {
        case media, readyMedia, defaultMedia, sides, colorModes, resolutions, documentFormats, maximumCopies
        case pwgRasterResolutions, pwgRasterTypes, urfSupported, margins, mediaSources, sheetBack
        case rasterDefaultResolution, rasterDefaultType
    }

    /// Every key may be missing (capabilities saved before a key existed).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func list(_ key: CodingKeys) throws -> [String] { try c.decodeIfPresent([String].self, forKey: key) ?? [] }
        self.init(media: try list(.media), readyMedia: try list(.readyMedia), defaultMedia: try c.decodeIfPresent(String.self, forKey: .defaultMedia),
                  sides: try list(.sides), colorModes: try list(.colorModes), resolutions: try list(.resolutions),
                  documentFormats: try list(.documentFormats), maximumCopies: try c.decodeIfPresent(Int.self, forKey: .maximumCopies),
                  pwgRasterResolutions: try list(.pwgRasterResolutions), pwgRasterTypes: try list(.pwgRasterTypes),
                  urfSupported: try list(.urfSupported),
                  margins: try c.decodeIfPresent(PrinterMargins.self, forKey: .margins) ?? PrinterMargins(),
                  mediaSources: try list(.mediaSources), sheetBack: try c.decodeIfPresent(SheetBack.self, forKey: .sheetBack),
                  rasterDefaultResolution: try c.decodeIfPresent(PrinterResolution.self, forKey: .rasterDefaultResolution),
                  rasterDefaultType: try c.decodeIfPresent(RasterType.self, forKey: .rasterDefaultType))
    }

    public var printsTwoSided: Bool { sides.contains { $0.hasPrefix("two-sided") } }

    /// The sizes the printer takes beyond its named ones: the lengths it cuts from a roll
    /// (`roll_min_`/`roll_max_`), else its custom sizes (`custom_min_`/`custom_max_`; a CUPS
    /// queue made from a roll printer's attributes gives its roll as these).
    public var customSizes: MediaSizeRange? {
        MediaSizeRange(mediaNames: media, prefix: "roll") ?? MediaSizeRange(mediaNames: media, prefix: "custom")
    }

    /// Whether the printer feeds paper from a roll and cuts it (a receipt or label printer):
    /// it lists roll sizes, or a roll among its sources (`main-roll`, `roll-1`, …).
    public var isRollFed: Bool {
        media.contains { $0.hasPrefix("roll_") } || mediaSources.contains { $0.contains("roll") }
    }
    public var printsColor: Bool { colorModes.contains { $0 == "color" || $0 == "auto" } || colorModes.isEmpty }
}
