import Foundation
import PrintGraphics
import PrintModel

/// A job's settings, typed: what `swiftprint convert`'s flags, a CUPS job's `-o` options, the
/// queue's PPD defaults and library callers set, each through the option declarations
/// (`JobSettings.declaredOptions`), so that the same option does the same thing everywhere.
/// Handlers read their part (`text`, `placement`, `markup`, `map`) as it is, never parsing again.
public struct JobSettings: Sendable, Equatable, Codable {
    public var info = PrintInfo()
    /// Margins around the printable area; nil: 36 pt, or none for photo output.
    public var margins: EdgeInsets?
    public var header: String?
    public var footer: String?
    /// Header and footer on each side of the sheet rather than on each page.
    public var headerOnSheet = false
    /// `print-color-mode`, folded into `info.outputType` by `resolve()`.
    public var colorMode: ColorMode?
    public var text = TextSettings()
    /// PDF pages and images: how content with a size of its own goes onto the paper.
    public var placement = PlacementSettings()
    public var markup = MarkupSettings()
    public var map = MapSettings()
    /// Every limit the job is held to (`JobLimits`).
    public var limits = JobLimits()
    /// The ICC profile of the printer's inks, for CMYK raster output (a file).
    public var cmykProfile: String?
    /// How colours the printer cannot make are mapped: by raster output in Adobe RGB or CMYK, and
    /// by whoever converts a PDF's colours (written into it); nil: auto.
    public var renderingIntent: RenderingIntent?
    /// The documents' type as the user names it (IPP `document-format`, a MIME type), over what
    /// detection would find: standard input has no name to go by.
    public var documentFormat: String?

    // Set by the program that runs the job, never by an option:
    /// Who prints, for `{user}`: the CUPS job's user; the login name when nil.
    public var user: String?
    /// The queue's default paper (a PPD's `*DefaultPageSize`): below the job's and the
    /// document's own, above the locale's.
    public var queueMedia: MediaSize?
    /// Edges the printer cannot mark on each paper (a PPD's `*ImageableArea`, a printer's
    /// `media-col-database`), added to the margins of the paper the job is laid out on.
    public var printerMargins = PrinterMargins()
    /// What a document may read besides itself.
    public var localFiles = LocalFiles.documentFolder
    /// Whether `header` and `footer` are the queue's defaults rather than the job's own: a
    /// document's own page-margin boxes rank above the queue's, below the job's.
    public var headerIsQueueDefault = false
    public var footerIsQueueDefault = false

    public enum ColorMode: String, Sendable, Codable, CaseIterable, OptionValue {
        case color, monochrome
        /// IPP's keywords and the PPD's `ColorModel` choices.
        public init?(optionText: String) {
            switch optionText.lowercased() {
            case "color", "rgb", "cmyk", "auto": self = .color
            case "monochrome", "gray", "grey", "kgray", "bi-level", "process-monochrome": self = .monochrome
            default: return nil
            }
        }
    }

    /// Files a document may read besides itself (an HTML page's images, a map description's tiles).
    public enum LocalFiles: String, Sendable, Codable {
        /// The files in the document's own folder (a user's own job).
        case documentFolder
        /// None, and nothing from the network (a CUPS job: the filter runs as lp, which can read
        /// other users' spooled jobs under guessable names).
        case none
    }

    public init() {}

    /// Points of margin on each edge when neither the job nor the document sets them (photo
    /// output has none).
    public static let defaultMargin = 36.0

    /// Settings from options given as `name=value` pairs from `source`, in order (a later value
    /// for the same setting wins). Names no declaration answers to are ignored (CUPS passes many,
    /// such as `job-uuid`); a declared one that `source` may not set, or a bad value, throws.
    public init(parsing options: [(name: String, value: String)], from source: OptionSources) throws {
        for (name, value) in options { try apply(name: name, value: value, from: source) }
        resolve()
    }

    /// Sets the option `name` from `value`, as given by `source`.
    public mutating func apply(name: String, value: String, from source: OptionSources) throws {
        // An option may name a paper: without the catalogue the error is the installation's.
        try Installation.checkData()
        guard let option = Self.option(named: name) else { return }
        guard !option.sources.isDisjoint(with: source) else {
            throw PrintError(.invalidOption, "\(option.name) cannot be set by \(Self.describe(source)): it \(Self.why(option))")
        }
        let before = limits
        try option.apply(text: value, to: &self)
        if source.contains(.printJob), !limits.isWithin(before) {
            limits = before
            throw PrintError(.invalidOption, "\(option.name)=\(value): a print job may lower a limit, not raise it", option: option.name)
        }
    }

    /// Folds the settings that depend on each other: `print-color-mode` into the output type.
    public mutating func resolve() {
        switch (colorMode, info.outputType) {
        case (.monochrome?, .photo?), (.monochrome?, .photoGrayscale?): info.outputType = .photoGrayscale
        case (.monochrome?, _): info.outputType = .grayscale
        case (.color?, .grayscale?), (.color?, nil): info.outputType = .general
        case (.color?, .photoGrayscale?): info.outputType = .photo
        default: break
        }
    }

    /// The paper drawn content is laid out on: the job's media, else the document's own page
    /// setup (`document`: HTML's @page), else the queue's, else the locale's; margins likewise.
    /// (A PDF page's own size is decided by its handler, page by page.)
    public func paper(document: DocumentPageSetup? = nil,
                      environment: [String: String] = ProcessInfo.processInfo.environment) -> PrintPaper {
        let type = info.outputType ?? .general
        let isPhoto = type == .photo || type == .photoGrayscale
        let media = OptionPrecedence.resolve(job: info.media, document: document?.size.map(MediaSize.matching(points:)),
                                             queue: isPhoto ? nil : queueMedia,
                                             locale: PaperDefaults.media(for: type, environment: environment))
        let documentOrientation = document?.size.map { $0.width > $0.height ? PrintInfo.Orientation.landscape : .portrait }
            ?? document?.orientation
        let orientation = OptionPrecedence.resolve(job: info.orientation, document: documentOrientation, locale: .portrait)
        let defaultMargins = EdgeInsets(all: isPhoto ? 0 : Self.defaultMargin)
        let m = margins ?? document?.margins(over: defaultMargins) ?? defaultMargins
        let u = printerMargins.edges(for: media.pwgName, borderless: isPhoto)
        return PrintPaper(media: media, orientation: orientation,
                          margins: EdgeInsets(top: m.top + u.top, left: m.left + u.left, bottom: m.bottom + u.bottom, right: m.right + u.right))
    }

    /// The declaration that answers to `name`, or nil.
    public static func option(named name: String) -> (any DeclaredOption)? {
        declaredOptions.first { $0.answers(to: name) }
    }

    private static func describe(_ source: OptionSources) -> String {
        source.contains(.printJob) ? "a print job" : source.contains(.queueDefaults) ? "the queue's defaults" : "the command line"
    }

    private static func why(_ option: any DeclaredOption) -> String {
        option.sources == [.commandLine] ? "names a file or URL, which only swiftprint convert may read" : "is not one of its options"
    }
}

/// Plain text: how it is set.
public struct TextSettings: Sendable, Equatable, Codable {
    public var font: Font?
    public var color: Color?
    public var alignment: TextAlignment?
    public var lineBreak: LineBreakMode?
    /// `--no-wrap`: lines are cut at the margin (line-break clip) unless a line break is given.
    public var wrap: Bool?
    public var columns: Int?
    public var charactersPerInch: Double?
    public var linesPerInch: Double?
    public var tabWidth: Int?
    public var lineNumbers: Bool?
    /// An iconv name that overrides detection.
    public var encoding: String?
    public init() {}

    /// The line break asked for, `--no-wrap` included.
    public var effectiveLineBreak: LineBreakMode? {
        lineBreak ?? (wrap == false ? .clip : nil)
    }
}

/// PDF pages and images: how content with a size of its own goes onto the paper.
public struct PlacementSettings: Sendable, Equatable, Codable {
    public var scaling: PrintScaling?
    /// CUPS's `scaling`: percent of the printable area.
    public var percentOfArea: Double?
    public var position: ContentPosition?
    /// Image pixels per inch for natural size.
    public var ppi: Double?
    /// Percent of natural size.
    public var naturalScaling: Double?
    public var gifFrames: GIFFrames?
    /// An encrypted PDF's password.
    public var password: String?
    public init() {}

    public enum GIFFrames: String, Sendable, Codable, CaseIterable, OptionValue { case first, all }
}

/// HTML and Markdown.
public struct MarkupSettings: Sendable, Equatable, Codable {
    /// The page's own scripts run.
    public var scripts = false
    /// The folder whose files a page may read, instead of its own (command line only).
    public var allowedFolder: String?
    public init() {}
}

/// Maps: tiles, scale, resolution, posters, the grid.
public struct MapSettings: Sendable, Equatable, Codable {
    /// An MBTiles file, a `{z}/{x}/{y}` folder or an http(s) URL template.
    public var tiles: String?
    /// N of 1:N.
    public var scale: Double?
    public var dpi: Double?
    public var tileDPI: Double?
    public var missingTiles: MissingTiles?
    public var attribution: String?
    public var maxZoom: Int?
    public var userAgent: String?
    /// A folder for downloaded tiles, or `none`.
    public var tileCache: String?
    public var poster: PosterGrid?
    /// Points both neighbouring poster sheets print.
    public var posterOverlap: Double?
    public var grid: Grid?
    public init() {}

    /// The scales a map may be printed at: N of 1:N from 1 to a billion (the whole world a few
    /// centimetres wide). Past that, the arithmetic from scale to tile pixels leaves the range of
    /// whole numbers: `-o map-scale=1e300` stopped the job.
    public static let scales: ClosedRange<Double> = 1...1_000_000_000
    /// The resolutions a map may be made for, dots (or tile pixels) per inch: from 10 to
    /// 10,000. At 1e-300 dpi the tile zoom came out as minus infinity.
    public static let resolutions: ClosedRange<Double> = 10...10_000

    /// `from 10 to 10000`: one of these ranges as the options' help and every refusal say it.
    public static func spelled(_ range: ClosedRange<Double>) -> String {
        "from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
    }

    /// What a tile that cannot be had becomes.
    public enum MissingTiles: String, Sendable, Codable, CaseIterable, OptionValue {
        /// A grey hatched square, so the gap is plain on paper (the default).
        case placeholder
        /// White.
        case blank
        /// The job fails, naming the tile.
        case fail
    }

    /// A poster's sheets: `3x2` is three columns, two rows.
    public struct PosterGrid: Sendable, Equatable, Codable, OptionValue {
        public var columns: Int
        public var rows: Int
        public init(columns: Int, rows: Int) { self.columns = columns; self.rows = rows }
        public init?(optionText: String) {
            let parts = optionText.lowercased().split(separator: "x").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let c = parts[0], let r = parts[1], c >= 1, r >= 1 else { return nil }
            self.init(columns: c, rows: r)
        }
    }

    /// Lines of latitude and longitude.
    public enum Grid: Sendable, Equatable, Codable, OptionValue {
        case auto, off
        public static var keywords: [String] { ["auto", "off"] }
        case degrees(Double)
        public init?(optionText: String) {
            switch optionText.lowercased() {
            case "auto", "on", "yes", "true": self = .auto
            case "off", "none", "no", "false": self = .off
            default:
                guard let d = Double(optionText), d > 0, d <= 90 else { return nil }
                self = .degrees(d)
            }
        }
    }
}
