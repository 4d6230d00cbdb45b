import Foundation
import PrintModel

/// Every limit a job is held to, in one place: its default here, its option in `LimitOptions`.
/// A job that crosses one fails with an error naming the limit and its option (`crossed`), not
/// with a killed process or a full disk. A print job (`lp -o`, a phone's job) may lower a limit,
/// never raise it; `swiftprint convert` and library callers may do both.
public struct JobLimits: Sendable, Equatable, Codable {
    /// Pixels an image may declare (width × height), checked before it is decoded.
    public var pixelsPerImage = 200_000_000
    /// Pages one document may have (a PDF's page tree, a text file's pages, a raster stream's).
    public var pagesPerDocument = 20_000
    /// Megabytes one input file may have.
    public var megabytesPerInput = 2048
    /// Points (positions) a GeoJSON or GPX file may have.
    public var pointsPerMap = 1_000_000
    /// Map tiles one job may draw, over all its sheets: what a tile server is asked for.
    public var tilesPerJob = 2000
    /// Sheets a map poster may have.
    public var sheetsPerPoster = 64
    /// How deep arrays and objects may nest in a JSON document (GeoJSON, map descriptions).
    public var nestingDepth = 256
    /// Seconds a helper (swiftprint-image, swiftprint-map) may run for one document, and
    /// swiftprint-raster for one sheet (`RasterHelperProcess`).
    public var helperSeconds: Double = 300
    /// Megabytes of memory each helper process may use (WebKit's processes included, each on
    /// its own).
    public var helperMegabytes = 4096
    /// Seconds a converter named in types.tsv may run.
    public var converterSeconds: Double = 120
    /// Seconds an HTML or Markdown document may take to load, and again to lay out.
    public var markupSeconds: Double = 60

    public init() {}

    public static let defaults = JobLimits()

    /// A helper's bounds: its clock, its memory, and processor time no more than its clock.
    public var helper: (seconds: Double, cpuSeconds: Int, memoryBytes: Int) {
        (helperSeconds, Int(helperSeconds.rounded(.up)), helperMegabytes << 20)
    }

    /// Whether every limit of `self` is at most that of `other`.
    func isWithin(_ other: JobLimits) -> Bool {
        pixelsPerImage <= other.pixelsPerImage && pagesPerDocument <= other.pagesPerDocument
            && megabytesPerInput <= other.megabytesPerInput && pointsPerMap <= other.pointsPerMap
            && tilesPerJob <= other.tilesPerJob && sheetsPerPoster <= other.sheetsPerPoster
            && nestingDepth <= other.nestingDepth && helperSeconds <= other.helperSeconds
            && helperMegabytes <= other.helperMegabytes && converterSeconds <= other.converterSeconds
            && markupSeconds <= other.markupSeconds
    }

    /// The error for crossing the limit `option` sets: `message` says what and the limit's
    /// value; each front end adds the option the way its users write it (`--max-pages`, `lp -o
    /// swiftprint-max-pages=…`).
    public static func crossed(_ option: any DeclaredOption, path: String?, _ message: String) -> PrintError {
        PrintError(.limitExceeded, path: path, message, option: option.name)
    }
}

/// The options that set `JobLimits`.
public enum LimitOptions {
    public static let maxPixels = count(
        "swiftprint-max-pixels", aliases: ["max-pixels"], help: "Refuse images declaring more pixels than this.",
        example: "1000000", default: JobLimits.defaults.pixelsPerImage) { $0.limits.pixelsPerImage = $1 }

    public static let maxPages = count(
        "swiftprint-max-pages", aliases: ["max-pages"], help: "Refuse documents of more pages than this.",
        example: "50", default: JobLimits.defaults.pagesPerDocument) { $0.limits.pagesPerDocument = $1 }

    public static let maxInputSize = count(
        "swiftprint-max-input-size", aliases: ["max-input-size"], help: "Refuse input files larger than this many megabytes.",
        valueName: "MB", example: "10", default: JobLimits.defaults.megabytesPerInput
    ) { $0.limits.megabytesPerInput = $1 }

    public static let maxPoints = count(
        "swiftprint-map-max-points", aliases: ["map-max-points"], commandLine: "map-max-points",
        help: "Refuse map files of more points than this.", example: "5000",
        default: JobLimits.defaults.pointsPerMap) { $0.limits.pointsPerMap = $1 }

    public static let maxTiles = count(
        "swiftprint-map-max-tiles", aliases: ["map-max-tiles"], commandLine: "map-max-tiles",
        help: "Refuse maps needing more tiles than this, over all their sheets.", example: "100",
        default: JobLimits.defaults.tilesPerJob) { $0.limits.tilesPerJob = $1 }

    public static let maxSheets = count(
        "swiftprint-map-max-sheets", aliases: ["map-max-sheets"], commandLine: "map-max-sheets",
        help: "Refuse posters of more sheets than this.", example: "4",
        default: JobLimits.defaults.sheetsPerPoster) { $0.limits.sheetsPerPoster = $1 }

    public static let maxNesting = count(
        "swiftprint-max-nesting", aliases: ["max-nesting"],
        help: "Refuse JSON documents (GeoJSON, map descriptions) nested deeper than this.", example: "32",
        default: JobLimits.defaults.nestingDepth) { $0.limits.nestingDepth = $1 }

    public static let helperTimeout = seconds(
        "swiftprint-helper-timeout", aliases: ["helper-timeout"],
        help: "Seconds a helper (images, maps) may take for one document, and raster output for one sheet.", example: "30",
        default: JobLimits.defaults.helperSeconds) { $0.limits.helperSeconds = $1 }

    public static let helperMemory = count(
        "swiftprint-helper-memory", aliases: ["helper-memory"],
        help: "Megabytes of memory each helper process may use, WebKit's included.",
        valueName: "MB", example: "1024", default: JobLimits.defaults.helperMegabytes) { $0.limits.helperMegabytes = $1 }

    public static let converterTimeout = seconds(
        "swiftprint-converter-timeout", aliases: ["converter-timeout"],
        help: "Seconds a converter named in types.tsv may run.", example: "30",
        default: JobLimits.defaults.converterSeconds) { $0.limits.converterSeconds = $1 }

    public static let markupTimeout = seconds(
        "swiftprint-markup-timeout", aliases: ["markup-timeout"],
        help: "Seconds an HTML or Markdown document may take to load, and to lay out.", example: "30",
        default: JobLimits.defaults.markupSeconds, atMost: 3600) { $0.limits.markupSeconds = $1 }

    public static let all: [any DeclaredOption] =
        [maxPixels, maxPages, maxInputSize, maxPoints, maxTiles, maxSheets, maxNesting, helperTimeout, helperMemory,
         converterTimeout, markupTimeout]

    /// A limit's option: its default is the limit's value in fresh settings.
    private static func count(_ name: String, aliases: [String], commandLine: String? = nil, help: String, valueName: String = "n",
                              example: String, default limit: Int, set: @escaping @Sendable (inout JobSettings, Int) -> Void) -> JobOption<Int> {
        JobOption<Int>(name, aliases: aliases, commandLine: commandLine, help: help, valueName: valueName,
                       expects: "a whole number above 0", example: example, default: .value(String(limit)), valid: { $0 > 0 }, set: set)
    }

    private static func seconds(_ name: String, aliases: [String], help: String, example: String, default limit: Double,
                                atMost: Double = 86_400, set: @escaping @Sendable (inout JobSettings, Double) -> Void) -> JobOption<Double> {
        JobOption<Double>(name, aliases: aliases, help: help, valueName: "seconds",
                          expects: "seconds, more than 0, at most \(Int(atMost))", example: example, default: .value(limit.writtenAsOption),
                          valid: { $0 > 0 && $0 <= atMost }, set: set)
    }
}
