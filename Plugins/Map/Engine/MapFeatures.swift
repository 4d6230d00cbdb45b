import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HandlerSupport

/// What is drawn over the tiles: lines, areas and points, with a style.
public struct MapFeature: Sendable {
    public enum Geometry: Sendable {
        case point(GeoCoordinate)
        case line([GeoCoordinate])
        /// An outer ring and its holes.
        case polygon([[GeoCoordinate]])
    }

    public var geometry: Geometry
    public var style: MapStyle
    /// A label drawn beside a point (a GPX waypoint's or a GeoJSON feature's `name`).
    public var label: String?

    public init(geometry: Geometry, style: MapStyle = MapStyle(), label: String? = nil) {
        self.geometry = geometry; self.style = style; self.label = label
    }

    var coordinates: [GeoCoordinate] {
        switch geometry {
        case .point(let p): [p]
        case .line(let l): l
        case .polygon(let rings): rings.flatMap { $0 }
        }
    }
}

/// How a feature is drawn; the names are those of Mapbox's simplestyle-spec, which GeoJSON
/// files from geojson.io and many tools carry in their properties.
public struct MapStyle: Sendable, Codable, Equatable {
    public var stroke: String = "#d0202a"
    public var strokeWidth: Double = 2.5
    public var strokeOpacity: Double = 0.9
    public var fill: String = "#d0202a"
    public var fillOpacity: Double = 0.2
    public var markerColor: String = "#d0202a"

    public init() {}

    enum CodingKeys: String, CodingKey {
        case stroke, strokeWidth = "stroke-width", strokeOpacity = "stroke-opacity", fill, fillOpacity = "fill-opacity",
             markerColor = "marker-color"
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = MapStyle()
        stroke = try c.decodeIfPresent(String.self, forKey: .stroke) ?? d.stroke
        strokeWidth = try c.decodeIfPresent(Double.self, forKey: .strokeWidth) ?? d.strokeWidth
        strokeOpacity = try c.decodeIfPresent(Double.self, forKey: .strokeOpacity) ?? d.strokeOpacity
        fill = try c.decodeIfPresent(String.self, forKey: .fill) ?? d.fill
        fillOpacity = try c.decodeIfPresent(Double.self, forKey: .fillOpacity) ?? d.fillOpacity
        markerColor = try c.decodeIfPresent(String.self, forKey: .markerColor) ?? d.markerColor
    }

    /// This style with the simplestyle properties in `properties` applied over it.
    func applying(_ properties: [String: Any]) -> MapStyle {
        var s = self
        if let v = properties["stroke"] as? String { s.stroke = v }
        if let v = properties["stroke-width"] as? Double { s.strokeWidth = v }
        if let v = properties["stroke-opacity"] as? Double { s.strokeOpacity = v }
        if let v = properties["fill"] as? String { s.fill = v }
        if let v = properties["fill-opacity"] as? Double { s.fillOpacity = v }
        if let v = properties["marker-color"] as? String { s.markerColor = v }
        return s
    }
}

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry.
public struct GeoJSONReader {
    public static func features(from data: Data, path: String, style: MapStyle = MapStyle(), limits: JobLimits) throws -> [MapFeature] {
        try JSONNesting.check(data, path: path, limit: limits.nestingDepth)
        let pointLimit = limits.pointsPerMap
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw PrintError(.invalidInput, path: path, "not valid JSON: \(error.localizedDescription)")
        }
        guard let root = object as? [String: Any], let type = root["type"] as? String else {
            throw PrintError(.invalidInput, path: path, "not GeoJSON: no \"type\" at the top level")
        }
        var reader = GeoJSONReader(path: path, style: style, pointLimit: pointLimit)
        switch type {
        case "FeatureCollection":
            for f in (root["features"] as? [[String: Any]]) ?? [] { try reader.add(feature: f) }
        case "Feature":
            try reader.add(feature: root)
        default:
            try reader.add(geometry: root, style: style, label: nil)
        }
        return reader.features
    }

    private let path: String
    private let style: MapStyle
    private let pointLimit: Int
    private var points = 0
    private var features: [MapFeature] = []

    private init(path: String, style: MapStyle, pointLimit: Int) {
        self.path = path; self.style = style; self.pointLimit = pointLimit
    }

    private mutating func coordinate(_ any: Any) throws -> GeoCoordinate {
        guard let a = any as? [Any], a.count >= 2, let lon = (a[0] as? NSNumber)?.doubleValue, let lat = (a[1] as? NSNumber)?.doubleValue,
              lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 540 else {
            throw PrintError(.invalidInput, path: path, "a position is not [longitude, latitude] in degrees")
        }
        points += 1
        if points > pointLimit {
            throw JobLimits.crossed(LimitOptions.maxPoints, path: path, "more than \(pointLimit) points")
        }
        return GeoCoordinate(latitude: lat, longitude: lon)
    }

    private mutating func coordinates(_ any: Any?) throws -> [GeoCoordinate] {
        var result: [GeoCoordinate] = []
        for position in try list(any) { result.append(try coordinate(position)) }
        return result
    }

    private func list(_ any: Any?) throws -> [Any] {
        guard let a = any as? [Any] else { throw PrintError(.invalidInput, path: path, "a geometry has no coordinates array") }
        return a
    }

    private mutating func rings(_ any: Any?) throws -> [[GeoCoordinate]] {
        var result: [[GeoCoordinate]] = []
        for ring in try list(any) { result.append(try coordinates(ring)) }
        return result
    }

    private mutating func add(geometry: [String: Any], style: MapStyle, label: String?) throws {
        let type = geometry["type"] as? String ?? ""
        let positions = geometry["coordinates"]
        switch type {
        case "Point":
            features.append(MapFeature(geometry: .point(try coordinate(positions as Any)), style: style, label: label))
        case "MultiPoint":
            for p in try list(positions) { features.append(MapFeature(geometry: .point(try coordinate(p)), style: style, label: label)) }
        case "LineString":
            features.append(MapFeature(geometry: .line(try coordinates(positions)), style: style))
        case "MultiLineString":
            for l in try list(positions) { features.append(MapFeature(geometry: .line(try coordinates(l)), style: style)) }
        case "Polygon":
            features.append(MapFeature(geometry: .polygon(try rings(positions)), style: style))
        case "MultiPolygon":
            for p in try list(positions) { features.append(MapFeature(geometry: .polygon(try rings(p)), style: style)) }
        case "GeometryCollection":
            for g in (geometry["geometries"] as? [[String: Any]]) ?? [] { try add(geometry: g, style: style, label: label) }
        default:
            throw PrintError(.invalidInput, path: path, "unknown GeoJSON geometry type \"\(type)\"")
        }
    }

    private mutating func add(feature: [String: Any]) throws {
        let properties = feature["properties"] as? [String: Any] ?? [:]
        guard let geometry = feature["geometry"] as? [String: Any] else { return } // null geometry: nothing to draw
        try add(geometry: geometry, style: style.applying(properties), label: properties["name"] as? String)
    }
}

/// Reads GPX 1.0/1.1: tracks and routes become lines, waypoints labelled points.
public final class GPXReader: NSObject, XMLParserDelegate {
    private var features: [MapFeature] = []
    private var current: [GeoCoordinate] = []
    private var waypoint: GeoCoordinate?
    private var text = ""
    private var name: String?
    private var points = 0
    private let pointLimit: Int
    private let style: MapStyle
    private var failure: String?
    private var crossed: PrintError?

    private init(style: MapStyle, pointLimit: Int) {
        self.style = style
        self.pointLimit = pointLimit
    }

    public static func features(from data: Data, path: String, style: MapStyle = MapStyle(), limits: JobLimits) throws -> [MapFeature] {
        let data = try utf8Document(data, path: path)
        let reader = GPXReader(style: style, pointLimit: limits.pointsPerMap)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        if !parser.parse() {
            if var crossed = reader.crossed { crossed.path = path; throw crossed }
            throw PrintError(.invalidInput, path: path, reader.failure ?? "not valid GPX: \(parser.parserError?.localizedDescription ?? "XML error")")
        }
        return reader.features
    }

    /// The document as UTF-8 with no encoding declared, for XMLParser. Foundation's XMLParser
    /// stops the process on a name, processing instruction or entity that is not UTF-8, which
    /// libxml2 passes on from bytes that are not what the document declares (found by fuzzing:
    /// a declared UTF-16 over 8-bit bytes was enough). So swiftprint decodes the document
    /// itself: UTF-8, UTF-16 with its mark, or the Latin encodings; others are refused.
    static func utf8Document(_ data: Data, path: String) throws -> Data {
        let text: String?
        let head = String(decoding: data.prefix(200), as: UTF8.self)
        let declared = head.firstMatch(of: /^\s*<\?xml [^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/).map { String($0.1).lowercased() }
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            text = String(data: data, encoding: .utf16)
        } else {
            switch declared {
            case nil, "utf-8", "utf8", "us-ascii", "ascii": text = String(validating: data, as: UTF8.self)
            case "iso-8859-1", "latin1", "iso_8859-1", "l1": text = String(data: data, encoding: .isoLatin1)
            case "windows-1252", "cp1252": text = String(data: data, encoding: .windowsCP1252)
            case let other?:
                throw PrintError(.invalidInput, path: path, "not readable GPX: it is in \(other); save it as UTF-8")
            }
        }
        guard var text else {
            throw PrintError(.invalidInput, path: path, "not valid GPX: the file is not \(declared ?? "UTF-8") text")
        }
        // The declaration goes: what it says of the encoding is no longer true.
        if let declaration = text.firstMatch(of: /^\s*<\?xml[^>]*\?>/) { text.removeSubrange(declaration.range) }
        return Data(text.utf8)
    }

    public func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                       attributes: [String: String] = [:]) {
        text = ""
        switch element {
        case "trkseg", "rte": current = []
        case "trkpt", "rtept", "wpt":
            guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init),
                  abs(lat) <= 90, abs(lon) <= 180 else {
                failure = "a \(element) without a valid lat and lon"; parser.abortParsing(); return
            }
            points += 1
            if points > pointLimit { crossed = JobLimits.crossed(LimitOptions.maxPoints, path: nil, "more than \(pointLimit) points"); parser.abortParsing(); return }
            let p = GeoCoordinate(latitude: lat, longitude: lon)
            if element == "wpt" { waypoint = p; name = nil } else { current.append(p) }
        default: break
        }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    public func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "trkseg", "rte":
            if current.count >= 2 { features.append(MapFeature(geometry: .line(current), style: style)) }
            current = []
        case "name": name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        case "wpt":
            if let waypoint { features.append(MapFeature(geometry: .point(waypoint), style: style, label: name)) }
            waypoint = nil
        default: break
        }
    }
}
