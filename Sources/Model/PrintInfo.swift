import Foundation

/// What a job asks for, like UIKit's UIPrintInfo. Every option may be left unset (nil); the one
/// precedence rule in `OptionPrecedence` then decides, the same in the CLI, the library and CUPS.
public struct PrintInfo: Hashable, Codable, Sendable {
    public enum Orientation: String, Codable, Sendable, CaseIterable { case portrait, landscape }
    public enum Duplex: String, Codable, Sendable, CaseIterable {
        case none, longEdge, shortEdge
        /// Printed on both sides of the sheet.
        public var isTwoSided: Bool { self != .none }
        /// The IPP `sides` keyword.
        public var ippSides: String {
            switch self {
            case .none: "one-sided"
            case .longEdge: "two-sided-long-edge"
            case .shortEdge: "two-sided-short-edge"
            }
        }
    }
    /// UIPrintInfo.OutputType; decides the default paper and colour.
    public enum OutputType: String, Codable, Sendable, CaseIterable { case general, grayscale, photo, photoGrayscale }

    /// The job's name (IPP `job-name`); the input's file name when unset.
    public var jobName: String?
    /// IPP `orientation-requested`.
    public var orientation: Orientation?
    /// IPP `sides`.
    public var duplex: Duplex?
    /// Decides the default paper (photo → 4×6 in or A6) and `print-color-mode`.
    public var outputType: OutputType?
    /// IPP `copies`; collated.
    public var copies: Int?
    /// IPP `page-ranges`: the pages of the document to print.
    public var pageRanges: PageRanges?
    /// IPP `media`.
    public var media: MediaSize?
    /// The printer's CUPS name, when printing to one.
    public var printerID: String?
    /// n-up, booklets, page sets, output order, mirroring, collation.
    @EmptyWhenMissing public var sheets = SheetOptions()
    /// PDF (nil too), PWG raster or Apple raster.
    public var outputFormat: OutputFormat?
    /// Raster output's dots per inch; nil: 300.
    public var printerResolution: PrinterResolution?
    /// Raster output's colour and depth; nil: from the output type (grey or sRGB, 8 bits).
    public var rasterType: RasterType?
    /// How raster output turns the backs of two-sided sheets; nil: normal.
    public var sheetBack: SheetBack?

    public init(jobName: String? = nil, orientation: Orientation? = nil, duplex: Duplex? = nil,
                outputType: OutputType? = nil, copies: Int? = nil, pageRanges: PageRanges? = nil,
                media: MediaSize? = nil, printerID: String? = nil) {
        self.jobName = jobName; self.orientation = orientation; self.duplex = duplex
        self.outputType = outputType; self.copies = copies; self.pageRanges = pageRanges
        self.media = media; self.printerID = printerID
    }

    /// A print info with nothing set.
    public static let unset = PrintInfo()
}

/// The one rule that decides every option: the job's own setting, then what the document says
/// about itself (a PDF's page box, HTML's @page, an image's size), then the queue's default,
/// then the locale (see `PaperDefaults`).
public enum OptionPrecedence {
    public static func resolve<T>(job: T?, document: T? = nil, queue: T? = nil, locale: @autoclosure () -> T) -> T {
        job ?? document ?? queue ?? locale()
    }
}
