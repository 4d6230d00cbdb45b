import Foundation

/// Options for maps: GeoJSON, GPX, map descriptions and MBTiles.
public enum MapOptions {
    /// Tiles are a file, a folder or a URL: never from a print job (see `JobSettings.LocalFiles`).
    public static let tiles = JobOption<String>(
        "swiftprint-map-tiles", aliases: ["map-tiles"], sources: .commandLine,
        help: "Map tiles: an MBTiles file, a {z}/{x}/{y} folder, or an http(s) URL template such as https://tile.example.org/{z}/{x}/{y}.png.",
        valueName: "source", expects: "a file, folder or URL template", example: "tiles.mbtiles",
        default: .unset("a map description's own, else the offline world basemap")) { $0.map.tiles = $1 }

    public static let scale = ranged("scale", MapSettings.scales, help: "Print GeoJSON and GPX at scale 1:N, centred on them.",
                                       valueName: "N", example: "25000", default: .unset("fitted to the features")) { $0.map.scale = $1 }
    public static let dpi = ranged("dpi", MapSettings.resolutions, commandLine: "map-dpi", help: "The resolution a map is made for.",
                                     valueName: "dpi", example: "150", default: .unset("a map description's own, else 300")) { $0.map.dpi = $1 }
    public static let tileDPI = ranged("tile-dpi", MapSettings.resolutions, commandLine: "map-tile-dpi",
                                         help: "Tile pixels per inch on paper (96: labels at their screen size).",
                                         valueName: "dpi", example: "96", default: .unset("a map description's own, else map-dpi")
    ) { $0.map.tileDPI = $1 }

    public static let missingTiles = JobOption<MapSettings.MissingTiles>(
        "swiftprint-map-missing-tiles", aliases: ["map-missing-tiles"], help: "placeholder, blank or fail.",
        expects: "placeholder, blank or fail", example: "blank",
        default: .unset("a map description's own, else placeholder")) { $0.map.missingTiles = $1 }

    public static let attribution = JobOption<String>(
        "swiftprint-map-attribution", aliases: ["map-attribution"],
        help: "Attribution printed under the map.", valueName: "text",
        expects: "text", example: "© Tiles", default: .unset("a map description's own, else the tile source's")) { $0.map.attribution = $1 }

    public static let maxZoom = count("max-zoom", help: "A tile server's deepest zoom; deeper maps stretch its tiles.",
                                      valueName: "z", example: "12", default: .unset("a map description's own, else 19")) { $0.map.maxZoom = $1 }

    public static let userAgent = JobOption<String>(
        "swiftprint-map-user-agent", aliases: ["map-user-agent"],
        help: "User-Agent for tile servers (swiftprint and its version are added).", valueName: "text",
        expects: "text", example: "HikeApp/2",
        default: .unset("swiftprint/VERSION and the project's address")) { $0.map.userAgent = $1 }

    /// A folder: never from a print job.
    public static let tileCache = JobOption<String>(
        "swiftprint-map-tile-cache", aliases: ["map-tile-cache"], sources: .commandLine,
        help: "Folder for downloaded tiles, or none.", valueName: "folder",
        expects: "a folder or none", example: "none",
        default: .unset("$XDG_CACHE_HOME/swiftprint/tiles, else ~/.cache/swiftprint/tiles")) { $0.map.tileCache = $1 }

    public static let poster = JobOption<MapSettings.PosterGrid>(
        "swiftprint-map-poster", aliases: ["map-poster"],
        help: "Print the map over COLUMNSxROWS sheets, to trim and paste together (such as 3x2).", valueName: "CxR",
        expects: "COLUMNSxROWS, such as 3x2", example: "2x2", default: .unset("a map description's own, else one sheet")
    ) { $0.map.poster = $1 }

    public static let posterOverlap = JobOption<Points>(
        "swiftprint-map-poster-overlap", aliases: ["map-poster-overlap"],
        help: "What neighbouring poster sheets both print.", valueName: "length",
        expects: "a length such as 10mm", example: "5mm", default: .unset("a map description's own, else 10mm")
    ) { $0.map.posterOverlap = $1.value }

    public static let grid = JobOption<MapSettings.Grid>(
        "swiftprint-map-grid", aliases: ["map-grid"],
        help: "Lines of latitude and longitude: auto, off, or a spacing in degrees (0.25 = 15′).", valueName: "spacing",
        expects: "auto, off, or a spacing in degrees", example: "0.5",
        default: .unset("off, unless a map description asks for one")) { $0.map.grid = $1 }

    public static let all: [any DeclaredOption] =
        [tiles, scale, dpi, tileDPI, missingTiles, attribution, maxZoom, userAgent, tileCache,
         poster, posterOverlap, grid]

    private static func ranged(_ name: String, _ range: ClosedRange<Double>, commandLine: String? = nil, help: String, valueName: String,
                               example: String, default declaredDefault: OptionDefault,
                               set: @escaping @Sendable (inout JobSettings, Double) -> Void) -> JobOption<Double> {
        JobOption<Double>("swiftprint-map-\(name)", aliases: ["map-\(name)"], commandLine: commandLine ?? "map-\(name)",
                          help: help, valueName: valueName, expects: "a number " + MapSettings.spelled(range),
                          example: example, default: declaredDefault, valid: { range.contains($0) }, set: set)
    }

    private static func count(_ name: String, help: String, valueName: String? = nil, example: String,
                              default declaredDefault: OptionDefault, set: @escaping @Sendable (inout JobSettings, Int) -> Void) -> JobOption<Int> {
        JobOption<Int>("swiftprint-map-\(name)", aliases: ["map-\(name)"], commandLine: "map-\(name)",
                       help: help, valueName: valueName, expects: "a positive whole number", example: example, default: declaredDefault,
                       valid: { $0 > 0 }, set: set)
    }
}
