import Foundation
import HandlerSupport

/// A map description (`trip.map.json`): what to print, as data. Its format is in swiftprint(1) (docs/swiftprint.1.md).
///
///     { "swiftprint-map": 1, "title": "Around the lake",
///       "center": { "lat": 46.5, "lon": 7.9 }, "scale": 25000,
///       "tiles": "alps.mbtiles", "dpi": 300, "tile-dpi": 96,
///       "paper": "A4", "orientation": "landscape",
///       "markers": [ { "lat": 46.52, "lon": 7.96, "label": "Hut" } ],
///       "overlays": [ { "file": "route.gpx", "style": { "stroke": "#0050c0" } } ] }
///
/// Exactly one of `zoom` (with `center`), `scale` (with `center`) or `bbox` [west, south, east,
/// north] frames the map; with none, it is fitted to its markers and overlays. Files are found
/// relative to the description.
struct MapDescription: Decodable {
    struct Point: Decodable { var lat: Double; var lon: Double }
    struct Marker: Decodable { var lat: Double; var lon: Double; var label: String?; var color: String? }
    struct Overlay: Decodable { var file: String?; var geojson: JSONValue?; var style: MapStyle? }
    /// `{ "columns": 3, "rows": 2, "overlap": "10mm" }`; overlap a length, or a number of mm.
    struct Poster: Decodable {
        var columns: Int
        var rows: Int
        var overlap: Overlap?
        enum Overlap: Decodable {
            case millimetres(Double), written(String)
            init(from decoder: Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let v = try? c.decode(Double.self) { self = .millimetres(v) } else { self = .written(try c.decode(String.self)) }
            }
            var points: Double? {
                switch self {
                case .millimetres(let v): return v >= 0 ? v * Length.pointsPerMillimetre : nil
                case .written(let t): return Length.points(from: t)
                }
            }
        }
    }

    var version: Int
    var title: String?
    var center: Point?
    var zoom: Int?
    var scale: Double?
    var bbox: [Double]?
    /// An MBTiles file, a tile folder or an http(s) URL template.
    var tiles: String?
    var attribution: String?
    /// The tile server's deepest zoom (URL templates; files say their own).
    var maxZoom: Int?
    var dpi: Double?
    var tileDPI: Double?
    var paper: String?
    var orientation: String?
    var missingTiles: String?
    var maxTiles: Int?
    var markers: [Marker]?
    var overlays: [Overlay]?
    var poster: Poster?
    /// `true` (spacing chosen from the map) or the spacing in degrees.
    var grid: Grid?
    enum Grid: Decodable {
        case on(Bool), degrees(Double)
        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let b = try? c.decode(Bool.self) { self = .on(b) } else { self = .degrees(try c.decode(Double.self)) }
        }
    }

    enum CodingKeys: String, CodingKey {
        case version = "swiftprint-map", title, center, zoom, scale, bbox, tiles, attribution, maxZoom = "max-zoom", dpi, tileDPI = "tile-dpi", paper,
             orientation, missingTiles = "missing-tiles", maxTiles = "max-tiles", markers, overlays, poster, grid
    }

    static func read(path: String, limits: JobLimits) throws -> MapDescription {
        guard let data = FileBytes.read(path) else {
            throw PrintError(.inputUnreadable, path: path, "cannot read the map description")
        }
        try JSONNesting.check(data, path: path, limit: limits.nestingDepth)
        let description: MapDescription
        do { description = try JSONDecoder().decode(MapDescription.self, from: data) } catch let DecodingError.keyNotFound(key, _) {
            throw PrintError(.invalidInput, path: path, "the map description lacks \"\(key.stringValue)\"")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            let at = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw PrintError(.invalidInput, path: path, "in the map description, \"\(at)\" has the wrong kind of value")
        } catch {
            throw PrintError(.invalidInput, path: path, "not a valid map description: \(error.localizedDescription)")
        }
        try description.checkValues(path: path)
        return description
    }

    /// Places on the earth, as a GeoJSON position is checked (`MapFeatures`): a latitude within
    /// ±90°, a longitude within ±540° (a line may cross the antimeridian). A marker a fuzzer put
    /// at longitude 2.4e31 reached the tile window's arithmetic and stopped the job. Zoom
    /// levels too: a negative one left a tile range with its ends reversed. Scales and
    /// resolutions within the ranges the job's own options have.
    func checkValues(path: String) throws {
        func check(_ lat: Double, _ lon: Double, _ what: String) throws {
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 540 else {
                throw PrintError(.invalidInput, path: path, "\(what) is not a place on the earth (lat within ±90, lon within ±540 degrees)")
            }
        }
        if let center { try check(center.lat, center.lon, "the center") }
        for (key, level) in [("zoom", zoom), ("max-zoom", maxZoom)] {
            if let level, !TileSetInfo.zoomLevels.contains(level) {
                throw PrintError(.invalidInput, path: path, "\(key) is a zoom level from \(TileSetInfo.zoomLevels.lowerBound) to \(TileSetInfo.zoomLevels.upperBound), not \(level)")
            }
        }
        for (key, value, range) in [("scale", scale, MapSettings.scales), ("dpi", dpi, MapSettings.resolutions),
                                    ("tile-dpi", tileDPI, MapSettings.resolutions)] {
            if let value, !range.contains(value) {
                throw PrintError(.invalidInput, path: path, "\(key) is a number \(MapSettings.spelled(range)), not \(value)")
            }
        }
        for (n, marker) in (markers ?? []).enumerated() { try check(marker.lat, marker.lon, "marker \(n + 1)") }
        if let bbox, bbox.count == 4 {
            try check(bbox[1], bbox[0], "the bbox's south-west corner")
            try check(bbox[3], bbox[2], "the bbox's north-east corner")
        }
    }

    func mapPoster(path: String) throws -> MapPoster? {
        guard let poster else { return nil }
        guard poster.columns >= 1, poster.rows >= 1 else { throw PrintError(.invalidInput, path: path, "a poster has at least one column and one row") }
        var overlap = MapPoster.defaultOverlap
        if let o = poster.overlap {
            guard let p = o.points else { throw PrintError(.invalidInput, path: path, "the poster's overlap is a length such as 10mm") }
            overlap = p
        }
        return MapPoster(columns: poster.columns, rows: poster.rows, overlap: overlap)
    }

    func framing(path: String, features: [MapFeature]) throws -> MapPrintFormatter.Framing {
        let given = [zoom != nil, scale != nil, bbox != nil].filter { $0 }.count
        guard given <= 1 else { throw PrintError(.invalidInput, path: path, "give one of zoom, scale and bbox, not several") }
        if let bbox {
            guard bbox.count == 4, bbox[0] < bbox[2], bbox[1] < bbox[3] else {
                throw PrintError(.invalidInput, path: path, "bbox is [west, south, east, north] with west < east and south < north")
            }
            return .fit(GeoBox(west: bbox[0], south: bbox[1], east: bbox[2], north: bbox[3]))
        }
        if let zoom {
            guard let center else { throw PrintError(.invalidInput, path: path, "zoom needs a center") }
            return .zoom(center: GeoCoordinate(latitude: center.lat, longitude: center.lon), zoom: zoom)
        }
        if let scale {
            guard let center else { throw PrintError(.invalidInput, path: path, "scale needs a center") }
            return .scale(center: GeoCoordinate(latitude: center.lat, longitude: center.lon), scale: scale)
        }
        guard let box = GeoBox(covering: features.flatMap(\.coordinates) + (center.map { [GeoCoordinate(latitude: $0.lat, longitude: $0.lon)] } ?? [])) else {
            throw PrintError(.invalidInput, path: path, "nothing says where the map is: give center with zoom or scale, bbox, markers or overlays")
        }
        return .fit(box)
    }
}

/// Any JSON value, kept to hand an inline GeoJSON overlay back to `GeoJSONReader`.
struct JSONValue: Decodable {
    let data: Data
    init(from decoder: Decoder) throws {
        data = try JSONSerialization.data(withJSONObject: try Self.any(decoder.singleValueContainer()), options: .fragmentsAllowed)
    }

    private static func any(_ c: SingleValueDecodingContainer) throws -> Any {
        if let v = try? c.decode([String: JSONValue].self) {
            return try v.mapValues { try JSONSerialization.jsonObject(with: $0.data, options: .fragmentsAllowed) }
        }
        if let v = try? c.decode([JSONValue].self) { return try v.map { try JSONSerialization.jsonObject(with: $0.data, options: .fragmentsAllowed) } }
        if let v = try? c.decode(Double.self) { return v }
        if let v = try? c.decode(String.self) { return v }
        if let v = try? c.decode(Bool.self) { return v }
        return NSNull()
    }
}
