import Foundation
import HandlerSupport

/// Maps: GeoJSON and GPX drawn over a basemap that covers them, a map description
/// (`org.swiftprint.map-description`), and an MBTiles file's overview.
///
/// Reads `settings.map` and `settings.localFiles` (`none`, which the CUPS filter sets: no file
/// but the document and the shipped basemap is read, and no tile is fetched from the network).
public struct MapEngine {

    public init() {}

    /// The offline basemap: low zooms of the world from Natural Earth (public domain), made by
    /// scripts/make-basemap.
    public static var basemapPath: String? {
        ConfigFiles.directory.map { $0 + "/basemap/world.mbtiles" }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    }

    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let path = input.path, options = settings.map
        // A CUPS job (local-files none) may name no other file: the filter runs as lp and reads
        // what lp can, which includes other users' spooled jobs.
        let confined = settings.localFiles == .none
        if confined, let t = options.tiles {
            throw PrintError(.invalidOption, path: path, Self.isURL(t)
                ? "a print job cannot fetch map tiles from the network (map-tiles); print it with swiftprint convert"
                : "map-tiles cannot name a file in a print job; the offline basemap is used")
        }
        let map = try Self.read(path, limits: settings.limits, confined: confined)
        // An MBTiles document is its own tiles; the job's tiles come before a description's.
        guard let sourcePath = map.isTileSet ? map.tiles : options.tiles ?? map.tiles ?? Self.basemapPath else {
            throw PrintError(.notAvailable, path: path, "no tiles: the offline basemap (Config/basemap/world.mbtiles) is missing; name the tiles to draw",
                             option: MapOptions.tiles.name)
        }
        let source = try Self.openSource(sourcePath, options: options, description: map.description)
        let formatter = MapPrintFormatter(source: source, sourcePath: sourcePath, features: map.features,
                                          framing: try Self.framing(map, scale: options.scale, source: source, path: path))
        // A description says its own title (none when it gives none); an MBTiles overview is named after the set.
        formatter.title = map.description != nil ? map.description?.title : (map.features.isEmpty ? source.info.name : nil)
        formatter.attribution = map.description?.attribution
        try Self.configure(formatter, options: options, limits: settings.limits, description: map.description, path: path)
        return formatter
    }

    /// What a map file holds: a description's features and tiles, a GeoJSON or GPX file's
    /// features, or, for an MBTiles file, the tiles themselves.
    struct MapFile {
        var description: MapDescription?
        var features: [MapFeature] = []
        var tiles: String?
        /// The document is an MBTiles file, printed as an overview.
        var isTileSet = false
    }

    static func read(_ path: String, limits: JobLimits, confined: Bool) throws -> MapFile {
        let type = URL(fileURLWithPath: path).pathExtension.lowercased()
        // The head is enough to tell the kinds apart; an MBTiles file may be gigabytes.
        let head = ContentDetector.head(of: path)
        if type == "mbtiles" || head.starts(with: Array("SQLite format 3".utf8)) {
            return MapFile(tiles: path, isTileSet: true)
        }
        guard String(decoding: head, as: UTF8.self).contains("\"swiftprint-map\"") else {
            let features = try Self.features(at: path, style: MapStyle(), limits: limits)
            guard !features.isEmpty else { throw PrintError(.noContent, path: path, "no features to draw") }
            return MapFile(features: features)
        }
        let d = try MapDescription.read(path: path, limits: limits)
        guard d.version == 1 else { throw PrintError(.invalidInput, path: path, "map description version \(d.version) is not known (1 is)") }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        if confined, let t = d.tiles, Self.isURL(t) {
            throw PrintError(.invalidInput, path: path, "a map description in a print job cannot fetch tiles from the network; print it with swiftprint convert")
        }
        if confined, d.tiles != nil || (d.overlays ?? []).contains(where: { $0.file != nil }) {
            throw PrintError(.invalidInput, path: path, "a map description in a print job cannot name other files (tiles, overlay files); inline GeoJSON works")
        }
        var map = MapFile(description: d)
        for overlay in d.overlays ?? [] {
            let style = overlay.style ?? MapStyle()
            if let file = overlay.file {
                let full = URL(fileURLWithPath: file, relativeTo: folder).path
                map.features += try Self.features(at: full, style: style, limits: limits)
            } else if let inline = overlay.geojson {
                map.features += try GeoJSONReader.features(from: inline.data, path: path, style: style, limits: limits)
            }
        }
        for m in d.markers ?? [] {
            var style = MapStyle()
            if let c = m.color { style.markerColor = c }
            map.features.append(MapFeature(geometry: .point(GeoCoordinate(latitude: m.lat, longitude: m.lon)), style: style, label: m.label))
        }
        map.tiles = d.tiles.map { Self.isURL($0) ? $0 : URL(fileURLWithPath: $0, relativeTo: folder).path }
        return map
    }

    /// What the map shows: as its description says, at a scale centred on its features, fitted
    /// to them, or an MBTiles overview's bounds (or the whole world).
    static func framing(_ map: MapFile, scale: Double?, source: TileSource, path: String) throws -> MapPrintFormatter.Framing {
        if let description = map.description { return try description.framing(path: path, features: map.features) }
        let box = GeoBox(covering: map.features.flatMap(\.coordinates))
        if let scale, let box { return .scale(center: box.center, scale: scale) }
        if let box { return .fit(box) }
        return .fit(source.info.bounds ?? GeoBox(west: -180, south: -85, east: 180, north: 85))
    }

    /// The job's options over the description's own settings.
    static func configure(_ formatter: MapPrintFormatter, options: MapSettings, limits: JobLimits, description: MapDescription?, path: String) throws {
        if let v = options.dpi ?? description?.dpi { formatter.dpi = v }
        formatter.tileDPI = options.tileDPI ?? description?.tileDPI
        if let policy = options.missingTiles {
            formatter.missingTiles = policy
        } else if let v = description?.missingTiles {
            guard let policy = MissingTilePolicy(rawValue: v) else {
                throw PrintError(.invalidInput, path: path, "missingTiles \"\(v)\" is not valid (placeholder, blank or fail)")
            }
            formatter.missingTiles = policy
        }
        // A description may ask for fewer tiles than the job allows, never more.
        formatter.tileLimit = min(limits.tilesPerJob, description?.maxTiles ?? .max)
        formatter.poster = try description?.mapPoster(path: path)
        if let grid = options.poster { formatter.poster = MapPoster(columns: grid.columns, rows: grid.rows) }
        if let p = options.posterOverlap {
            guard formatter.poster != nil else { throw PrintError(.invalidOption, "map-poster-overlap needs a poster (map-poster)") }
            formatter.poster?.overlap = p
        }
        formatter.sheetLimit = limits.sheetsPerPoster
        switch description?.grid {
        case .on(true)?: formatter.showGrid()
        case .degrees(let d)?:
            guard d > 0, d <= 90 else { throw PrintError(.invalidInput, path: path, "grid is true or a spacing in degrees (0 to 90)") }
            formatter.showGrid(spacing: d)
        default: break
        }
        switch options.grid {
        case .auto?: formatter.showGrid()
        case .off?: formatter.grid = nil
        case .degrees(let d)?: formatter.showGrid(spacing: d)
        case nil: break
        }
        if let d = description {
            formatter.pageSetup = try DocumentPageSetup.named(paper: d.paper, orientation: d.orientation, path: path)
        }
    }

    static func features(at path: String, style: MapStyle, limits: JobLimits) throws -> [MapFeature] {
        guard let data = FileBytes.read(path) else {
            throw PrintError(.inputUnreadable, path: path, "cannot read the file")
        }
        // The head in its own encoding: a UTF-16 track (its mark first) read as UTF-8 shows no
        // "<gpx", and a spooled CUPS job's file has no extension to tell.
        let utf16 = data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])
        let head = utf16 ? String(data: data.prefix(2048), encoding: .utf16) ?? "" : String(decoding: data.prefix(1024), as: UTF8.self)
        if head.contains("<gpx") || path.lowercased().hasSuffix(".gpx") {
            return try GPXReader.features(from: data, path: path, style: style, limits: limits)
        }
        return try GeoJSONReader.features(from: data, path: path, style: style, limits: limits)
    }

    static func isURL(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    static func openSource(_ path: String, options: MapSettings, description: MapDescription?) throws -> TileSource {
        if isURL(path) {
            var settings = HTTPTileSource.Settings()
            settings.userAgent = options.userAgent
            if let folder = options.tileCache { settings.cacheFolder = folder == "none" ? nil : folder }
            return try HTTPTileSource(template: path, settings: settings,
                                      attribution: options.attribution ?? description?.attribution,
                                      maxZoom: options.maxZoom ?? description?.maxZoom)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PrintError(.inputUnreadable, path: path, "no such tile source")
        }
        return isFolder.boolValue ? try TileFolderSource(path: path) : try MBTilesSource(path: path)
    }
}
