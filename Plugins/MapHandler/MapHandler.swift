import Foundation
import SwiftPrintCore

/// Maps: GeoJSON and GPX drawn over a basemap that covers them, a map description
/// (`org.swiftprint.map-description`), and an MBTiles file's overview.
///
/// Options read, by name: `map-tiles` (an MBTiles file or a `{z}/{x}/{y}` folder; the offline
/// world basemap shipped in Config/basemap when unset), `map-scale` (N of 1:N), `map-dpi`
/// (default 300), `map-tile-dpi` (tile pixels per inch on paper when not map-dpi: 96 keeps
/// labels their screen size), `map-missing-tiles` (placeholder, blank or fail), `map-max-tiles`
/// (default 2000), `map-max-points` (points per file, default 1,000,000), `local-files` (`none`,
/// which the CUPS filter sets: no file but the document and the shipped basemap is read, and no
/// tile is fetched from the network). With an http(s) URL template as `map-tiles`:
/// `map-attribution`, `map-max-zoom` (default 19), `map-user-agent`, `map-tile-cache` (a folder,
/// or `none`; default ~/.cache/swiftprint/tiles). Posters: `map-poster` (`3x2`: columns × rows),
/// `map-poster-overlap` (default 10mm), `map-max-sheets` (default 64). `map-grid`: `auto`, `off`
/// or a spacing in degrees for lines of latitude and longitude.
public struct MapHandler: ContentHandler {
    public let name = "map"
    public let contentTypes = ["public.geojson", "com.topografix.gpx", "org.swiftprint.map-description", "org.mapbox.mbtiles"]

    public init() {}

    /// The offline basemap: low zooms of the world from Natural Earth (public domain), made by
    /// scripts/make-basemap.
    public static var basemapPath: String? {
        ConfigFiles.directory.map { $0 + "/basemap/world.mbtiles" }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    }

    public func makeFormatter(for input: PrintInput, options: HandlerOptions, info: PrintInfo) throws -> PrintFormatter {
        let path = input.path
        let pointLimit = try Self.integer(options, "map-max-points") ?? 1_000_000
        let type = URL(fileURLWithPath: path).pathExtension.lowercased()
        // The head is enough to tell the kinds apart; an MBTiles file may be gigabytes.
        let head = ContentDetector.head(of: path)
        var description: MapDescription?
        var features: [MapFeature] = []
        var tilesPath = options["map-tiles"]
        // A CUPS job (local-files none) may name no other file: the filter runs as lp and reads
        // what lp can, which includes other users' spooled jobs.
        let confined = options["local-files"] == "none"
        if confined, let t = tilesPath {
            throw PrintError(.invalidOption, path: path, Self.isURL(t)
                ? "a print job cannot fetch map tiles from the network (map-tiles); print it with swiftprint convert"
                : "map-tiles cannot name a file in a print job; the offline basemap is used")
        }
        if type == "mbtiles" || head.starts(with: Array("SQLite format 3".utf8)) {
            tilesPath = path
        } else if String(decoding: head, as: UTF8.self).contains("\"swiftprint-map\"") {
            let d = try MapDescription.read(path: path)
            guard d.version == 1 else { throw PrintError(.invalidInput, path: path, "map description version \(d.version) is not known (1 is)") }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            if confined, let t = d.tiles, Self.isURL(t) {
                throw PrintError(.invalidInput, path: path, "a map description in a print job cannot fetch tiles from the network; print it with swiftprint convert")
            }
            if confined, d.tiles != nil || (d.overlays ?? []).contains(where: { $0.file != nil }) {
                throw PrintError(.invalidInput, path: path, "a map description in a print job cannot name other files (tiles, overlay files); inline GeoJSON works")
            }
            for overlay in d.overlays ?? [] {
                let style = overlay.style ?? MapStyle()
                if let file = overlay.file {
                    let full = URL(fileURLWithPath: file, relativeTo: folder).path
                    features += try Self.features(at: full, style: style, pointLimit: pointLimit)
                } else if let inline = overlay.geojson {
                    features += try GeoJSONReader.features(from: inline.data, path: path, style: style, pointLimit: pointLimit)
                }
            }
            for m in d.markers ?? [] {
                var style = MapStyle()
                if let c = m.color { style.markerColor = c }
                features.append(MapFeature(geometry: .point(GeoCoordinate(latitude: m.lat, longitude: m.lon)), style: style, label: m.label))
            }
            if let t = d.tiles, tilesPath == nil { tilesPath = Self.isURL(t) ? t : URL(fileURLWithPath: t, relativeTo: folder).path }
            description = d
        } else {
            features = try Self.features(at: path, style: MapStyle(), pointLimit: pointLimit)
            guard !features.isEmpty else { throw PrintError(.noContent, path: path, "no features to draw") }
        }

        guard let sourcePath = tilesPath ?? Self.basemapPath else {
            throw PrintError(.notAvailable, path: path, "no tiles: the offline basemap (Config/basemap/world.mbtiles) is missing; give --map-tiles")
        }
        let source = try Self.openSource(sourcePath, options: options, description: description)
        let framing: MapPrintFormatter.Framing
        if let description {
            framing = try description.framing(path: path, features: features)
        } else if let scale = try Self.number(options, "map-scale"), let box = GeoBox(covering: features.flatMap(\.coordinates)) {
            framing = .scale(center: box.center, scale: scale)
        } else if let box = GeoBox(covering: features.flatMap(\.coordinates)) {
            framing = .fit(box)
        } else {
            // An MBTiles overview: its bounds, or the whole world.
            framing = .fit(source.info.bounds ?? GeoBox(west: -180, south: -85, east: 180, north: 85))
        }
        let formatter = MapPrintFormatter(source: source, sourcePath: sourcePath, features: features, framing: framing)
        // A description says its own title (none when it gives none); an MBTiles overview is named after the set.
        formatter.title = description != nil ? description?.title : (features.isEmpty ? source.info.name : nil)
        formatter.attribution = description?.attribution
        if let v = try Self.number(options, "map-dpi") ?? description?.dpi { formatter.dpi = v }
        formatter.tileDPI = try Self.number(options, "map-tile-dpi") ?? description?.tileDPI
        if let v = options["map-missing-tiles"] ?? description?.missingTiles {
            guard let policy = MissingTilePolicy(rawValue: v) else {
                throw PrintError(.invalidOption, "map-missing-tiles \"\(v)\" is not valid (placeholder, blank or fail)")
            }
            formatter.missingTiles = policy
        }
        if let v = try Self.integer(options, "map-max-tiles") ?? description?.maxTiles { formatter.tileLimit = v }
        formatter.poster = try description?.mapPoster(path: path)
        if let v = options["map-poster"] {
            guard let p = MapPoster(v) else { throw PrintError(.invalidOption, "map-poster \"\(v)\" is not COLUMNSxROWS (such as 3x2)") }
            formatter.poster = p
        }
        if let v = options["map-poster-overlap"] {
            guard let p = Length.points(from: v) else { throw PrintError(.invalidOption, "map-poster-overlap \"\(v)\" is not a length (such as 10mm)") }
            guard formatter.poster != nil else { throw PrintError(.invalidOption, "map-poster-overlap needs a poster (map-poster)") }
            formatter.poster?.overlap = p
        }
        if let v = try Self.integer(options, "map-max-sheets") { formatter.sheetLimit = v }
        switch description?.grid {
        case .on(true)?: formatter.showGrid()
        case .degrees(let d)?:
            guard d > 0, d <= 90 else { throw PrintError(.invalidInput, path: path, "grid is true or a spacing in degrees (0 to 90)") }
            formatter.showGrid(spacing: d)
        default: break
        }
        if let v = options["map-grid"] {
            switch v.lowercased() {
            case "auto", "on", "yes", "true": formatter.showGrid()
            case "off", "none", "no", "false": formatter.grid = nil
            default:
                guard let d = Double(v), d > 0, d <= 90 else { throw PrintError(.invalidOption, "map-grid \"\(v)\" is auto, off, or a spacing in degrees") }
                formatter.showGrid(spacing: d)
            }
        }
        if let d = description {
            formatter.pageSetup = try DocumentPageSetup.named(paper: d.paper, orientation: d.orientation, path: path)
        }
        return formatter
    }

    static func features(at path: String, style: MapStyle, pointLimit: Int) throws -> [MapFeature] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PrintError(.inputUnreadable, path: path, "cannot read the file")
        }
        let head = String(decoding: data.prefix(1024), as: UTF8.self)
        if head.contains("<gpx") || path.lowercased().hasSuffix(".gpx") {
            return try GPXReader.features(from: data, path: path, style: style, pointLimit: pointLimit)
        }
        return try GeoJSONReader.features(from: data, path: path, style: style, pointLimit: pointLimit)
    }

    static func isURL(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    static func openSource(_ path: String, options: HandlerOptions, description: MapDescription?) throws -> TileSource {
        if isURL(path) {
            var settings = HTTPTileSource.Settings()
            settings.userAgent = options["map-user-agent"]
            if let folder = options["map-tile-cache"] { settings.cacheFolder = folder == "none" ? nil : folder }
            return try HTTPTileSource(template: path, settings: settings,
                                      attribution: options["map-attribution"] ?? description?.attribution,
                                      maxZoom: try integer(options, "map-max-zoom") ?? description?.maxZoom)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw PrintError(.inputUnreadable, path: path, "no such tile source")
        }
        return isFolder.boolValue ? try TileFolderSource(path: path) : try MBTilesSource(path: path)
    }

    static func number(_ options: HandlerOptions, _ key: String) throws -> Double? {
        guard let v = options[key] else { return nil }
        guard let d = Double(v), d > 0, d.isFinite else { throw PrintError(.invalidOption, "\(key) \"\(v)\" is not a positive number") }
        return d
    }

    static func integer(_ options: HandlerOptions, _ key: String) throws -> Int? {
        guard let v = options[key] else { return nil }
        guard let i = Int(v), i > 0 else { throw PrintError(.invalidOption, "\(key) \"\(v)\" is not a positive whole number") }
        return i
    }
}
