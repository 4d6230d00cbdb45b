import Foundation

/// A job's settings read from `name=value` pairs named after their IPP/CUPS attributes
/// (`media`, `page-ranges`, `print-color-mode`, `fit-to-page`, …) or, where IPP has none,
/// `swiftprint-…`. It is the one vocabulary that `swiftprint convert`'s flags, the CUPS filter's
/// `-o` options and library callers share, so the same option does the same thing everywhere.
///
/// Names nobody here knows are ignored (CUPS passes many, such as `job-uuid`), but a known name
/// with a bad value is an error naming the option.
public struct JobOptions: Sendable {
    public var info = PrintInfo()
    /// Margins around the printable area; nil: 36 pt, or none for photo output.
    public var margins: EdgeInsets?
    public var header: String?
    public var footer: String?
    /// Header and footer on each side of the sheet rather than on each page (`--header-on sheet`,
    /// `swiftprint-sheet-headers=true`).
    public var headerOnSheet = false
    /// Who prints, for `{user}`: the CUPS job's user; the login name when nil.
    public var user: String?
    /// What handlers read (see `HandlerOptions`): font, columns, print-scaling, password, …
    public var handlerOptions: HandlerOptions = [:]
    public var imposition = Imposition.onePerSheet
    /// The queue's default paper (a CUPS PPD's `*DefaultPageSize`): below the job's and the
    /// document's own, above the locale's.
    public var queueMedia: MediaSize?
    /// Edges the printer cannot mark (a PPD's `*ImageableArea`), added to the margins.
    public var unprintableEdges = EdgeInsets.zero
    /// Options that were understood but are not carried out yet, to be reported to the user.
    public private(set) var notSupported: [String] = []

    public init() {}

    /// Settings from `options`, applied in order (a later value for the same setting wins).
    public init(parsing options: [(name: String, value: String)]) throws {
        var gutter: Double?
        var photosPerSheet: Int?
        var colorMode: String?
        var wrap = true
        for (rawName, value) in options {
            let name = rawName.lowercased()
            switch name {
            case "media", "pagesize", "pageregion", "media-size-name":
                // A media list ("A4,tray-1") names the size first.
                let size = value.split(separator: ",").first.map(String.init) ?? value
                guard let media = MediaSize.named(size) else {
                    throw Self.invalid("unknown paper size \"\(value)\" (try A4, letter, A5, legal, 4x6 or a size like 210x297mm)")
                }
                info.media = media
            case "orientation-requested", "orientation":
                switch value.lowercased() {
                case "3", "portrait": info.orientation = .portrait
                case "4", "landscape": info.orientation = .landscape
                case "5", "6", "reverse-landscape", "reverse-portrait":
                    info.orientation = (value == "5" || value == "reverse-landscape") ? .landscape : .portrait
                    info.sheets.halfTurn = true
                default: throw Self.invalid("orientation must be portrait or landscape (3 or 4), not \"\(value)\"")
                }
            case "landscape":
                if Self.bool(value) ?? true { info.orientation = .landscape }
            case "page-ranges":
                guard let ranges = PageRanges(value) else {
                    throw Self.invalid("page ranges \"\(value)\" are not valid (use numbers from 1, like 1-3,7,10-)")
                }
                info.pageRanges = ranges
            case "copies":
                guard let n = Int(value), (1...999).contains(n) else { throw Self.invalid("copies must be 1 to 999, not \(value)") }
                info.copies = n
            case "swiftprint-margins", "margins":
                guard let edges = EdgeInsets(cssLengths: value) else {
                    throw Self.invalid("margins \"\(value)\" are not valid (1 to 4 lengths like 36, 12.7mm or 0.5in)")
                }
                margins = edges
            case "page-top", "page-right", "page-bottom", "page-left":
                // cups-filters' text margins, in points each.
                guard let points = Double(value), points >= 0, points < 1000 else { throw Self.invalid("\(name) must be points, not \"\(value)\"") }
                var edges = margins ?? EdgeInsets(all: 36)
                switch name {
                case "page-top": edges.top = points
                case "page-right": edges.right = points
                case "page-bottom": edges.bottom = points
                default: edges.left = points
                }
                margins = edges
            case "swiftprint-output-type", "output-type":
                guard let type = PrintInfo.OutputType(rawValue: value) else {
                    throw Self.invalid("output type must be general, grayscale, photo or photoGrayscale, not \"\(value)\"")
                }
                info.outputType = type
            case "print-color-mode", "colormodel":
                switch value.lowercased() {
                case "color", "rgb", "cmyk", "auto": colorMode = "color"
                case "monochrome", "gray", "grey", "kgray", "bi-level", "process-monochrome": colorMode = "monochrome"
                default: throw Self.invalid("print-color-mode must be color or monochrome, not \"\(value)\"")
                }
            case "swiftprint-header", "header": header = value.isEmpty ? nil : value
            case "swiftprint-footer", "footer": footer = value.isEmpty ? nil : value
            case "header-on":
                switch value.lowercased() {
                case "page": headerOnSheet = false
                case "sheet": headerOnSheet = true
                default: throw Self.invalid("header-on must be page or sheet, not \"\(value)\"")
                }
            case "swiftprint-sheet-headers":
                guard let on = Self.bool(value) else { throw Self.invalid("swiftprint-sheet-headers must be true or false, not \"\(value)\"") }
                headerOnSheet = on
            case "job-name", "title": info.jobName = value
            case "sides", "duplex":
                switch value.lowercased() {
                case "one-sided", "none": info.duplex = PrintInfo.Duplex.none
                case "two-sided-long-edge", "duplexnotumble": info.duplex = .longEdge
                case "two-sided-short-edge", "duplextumble": info.duplex = .shortEdge
                default: throw Self.invalid("sides must be one-sided, two-sided-long-edge or two-sided-short-edge, not \"\(value)\"")
                }
            case "number-up", "page-set", "output-order", "outputorder", "booklet", "page-border", "number-up-layout",
                 "mirror", "collate", "multiple-document-handling", "booklet-signature", "swiftprint-booklet-signature":
                try info.sheets.set(name, value)
            case "fit-to-page":
                if Self.bool(value) ?? true { handlerOptions["print-scaling"] = "fit" }
            case "wrap", "swiftprint-wrap":
                guard let on = Self.bool(value) else { throw Self.invalid("wrap must be true or false, not \"\(value)\"") }
                wrap = on
            case "swiftprint-photos-per-sheet", "photos-per-sheet":
                guard let n = Int(value), Imposition.grid(n) != nil else {
                    throw Self.invalid("photos per sheet must be one of \(Imposition.gridCounts.dropFirst().map(String.init).joined(separator: ", ")), not \(value)")
                }
                photosPerSheet = n
            case "swiftprint-gutter", "gutter":
                guard let g = EdgeInsets(cssLengths: value)?.top else { throw Self.invalid("gutter \"\(value)\" is not a length") }
                gutter = g
            default:
                guard let key = Self.handlerKeys[name] else { continue }
                if Self.flagKeys.contains(key) {
                    guard let on = Self.bool(value) else { throw Self.invalid("\(rawName) must be true or false, not \"\(value)\"") }
                    handlerOptions[key] = on ? "true" : nil
                } else {
                    handlerOptions[key] = value
                }
            }
        }
        if !wrap, handlerOptions["line-break"] == nil { handlerOptions["line-break"] = "clip" }
        // print-color-mode monochrome is the grey form of whatever output type is asked for.
        switch (colorMode, info.outputType) {
        case ("monochrome", .photo?), ("monochrome", .photoGrayscale?): info.outputType = .photoGrayscale
        case ("monochrome", _): info.outputType = .grayscale
        case ("color", .grayscale?), ("color", nil): info.outputType = .general
        case ("color", .photoGrayscale?): info.outputType = .photo
        default: break
        }
        if let n = photosPerSheet {
            imposition = Imposition.grid(n, gutter: gutter ?? 9) ?? .onePerSheet
            handlerOptions["photo-grid"] = "true"
        }
    }

    /// Settings from a dictionary (order does not matter when names do not overlap).
    public init(parsing options: [String: String]) throws {
        try self.init(parsing: options.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
    }

    /// The paper drawn content is laid out on: the job's media, else the document's own page
    /// setup (`document`: HTML's @page), else the queue's, else the locale's; margins likewise.
    /// (A PDF page's own size is decided by its handler, page by page.)
    public func paper(document: DocumentPageSetup? = nil,
                      environment: [String: String] = ProcessInfo.processInfo.environment) -> PrintPaper {
        let type = info.outputType ?? .general
        let isPhoto = type == .photo || type == .photoGrayscale
        let media = OptionPrecedence.resolve(job: info.media, document: document?.size.map(MediaSize.custom(points:)),
                                             queue: isPhoto ? nil : queueMedia,
                                             locale: PaperDefaults.media(for: type, environment: environment))
        let documentOrientation = document?.size.map { $0.width > $0.height ? PrintInfo.Orientation.landscape : .portrait }
            ?? document?.orientation
        let orientation = OptionPrecedence.resolve(job: info.orientation, document: documentOrientation, locale: .portrait)
        let defaultMargins = EdgeInsets(all: isPhoto ? 0 : 36)
        let m = margins ?? document?.margins(over: defaultMargins) ?? defaultMargins, u = unprintableEdges
        return PrintPaper(media: media, orientation: orientation,
                          margins: EdgeInsets(top: m.top + u.top, left: m.left + u.left, bottom: m.bottom + u.bottom, right: m.right + u.right))
    }

    /// Option names handlers read, by their outside name → the handler's key.
    static let handlerKeys: [String: String] = [
        "swiftprint-font": "font", "font": "font",
        "swiftprint-text-color": "color", "text-color": "color",
        "swiftprint-alignment": "alignment", "alignment": "alignment",
        "swiftprint-line-break": "line-break", "line-break": "line-break",
        "columns": "columns", "swiftprint-columns": "columns", "cpi": "cpi", "lpi": "lpi",
        "swiftprint-line-numbers": "line-numbers", "line-numbers": "line-numbers",
        "swiftprint-encoding": "encoding", "encoding": "encoding",
        "print-scaling": "print-scaling", "position": "position", "ppi": "ppi",
        "natural-scaling": "natural-scaling", "scaling": "scaling",
        "swiftprint-password": "password", "password": "password",
        "swiftprint-gif-frames": "gif-frames", "gif-frames": "gif-frames",
        "swiftprint-max-pixels": "max-pixels", "max-pixels": "max-pixels",
        "swiftprint-converter-timeout": "converter-timeout", "converter-timeout": "converter-timeout",
        "swiftprint-scripts": "scripts", "scripts": "scripts",
        "swiftprint-markup-timeout": "markup-timeout", "markup-timeout": "markup-timeout",
        "swiftprint-map-tiles": "map-tiles", "map-tiles": "map-tiles",
        "swiftprint-map-scale": "map-scale", "map-scale": "map-scale",
        "swiftprint-map-dpi": "map-dpi", "map-dpi": "map-dpi",
        "swiftprint-map-tile-dpi": "map-tile-dpi", "map-tile-dpi": "map-tile-dpi",
        "swiftprint-map-missing-tiles": "map-missing-tiles", "map-missing-tiles": "map-missing-tiles",
        "swiftprint-map-max-tiles": "map-max-tiles", "map-max-tiles": "map-max-tiles",
        "swiftprint-map-max-points": "map-max-points", "map-max-points": "map-max-points",
        "swiftprint-map-attribution": "map-attribution", "map-attribution": "map-attribution",
        "swiftprint-map-max-zoom": "map-max-zoom", "map-max-zoom": "map-max-zoom",
        "swiftprint-map-user-agent": "map-user-agent", "map-user-agent": "map-user-agent",
        "swiftprint-map-tile-cache": "map-tile-cache", "map-tile-cache": "map-tile-cache",
        "swiftprint-map-poster": "map-poster", "map-poster": "map-poster",
        "swiftprint-map-poster-overlap": "map-poster-overlap", "map-poster-overlap": "map-poster-overlap",
        "swiftprint-map-max-sheets": "map-max-sheets", "map-max-sheets": "map-max-sheets",
        "swiftprint-map-grid": "map-grid", "map-grid": "map-grid",
    ]
    /// Handler keys that are on/off switches (absent means off).
    static let flagKeys: Set<String> = ["line-numbers", "scripts"]

    static func bool(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "", "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: return nil
        }
    }

    static func invalid(_ message: String) -> PrintError { PrintError(.invalidOption, message) }
}
