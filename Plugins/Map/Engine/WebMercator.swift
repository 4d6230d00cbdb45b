import Foundation

/// A point on the Earth in degrees (WGS 84).
public struct GeoCoordinate: Hashable, Sendable, Codable {
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A box of coordinates: west, south, east, north, in degrees.
public struct GeoBox: Hashable, Sendable {
    public var west: Double, south: Double, east: Double, north: Double
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west; self.south = south; self.east = east; self.north = north
    }

    /// The smallest box holding `points`, or nil for none.
    public init?(covering points: some Sequence<GeoCoordinate>) {
        var it = points.makeIterator()
        guard let first = it.next() else { return nil }
        self.init(west: first.longitude, south: first.latitude, east: first.longitude, north: first.latitude)
        while let p = it.next() {
            west = min(west, p.longitude); east = max(east, p.longitude)
            south = min(south, p.latitude); north = max(north, p.latitude)
        }
    }

    /// West at or before east and south at or before north, each a place as GeoJSON positions are checked
    /// (`MapFeatures`): finite, latitudes within ±90°, longitudes within ±540° (across the
    /// antimeridian).
    public var isOnTheEarth: Bool {
        [west, south, east, north].allSatisfy(\.isFinite) && abs(south) <= 90 && abs(north) <= 90
            && abs(west) <= 540 && abs(east) <= 540 && west <= east && south <= north
    }

    public var center: GeoCoordinate {
        GeoCoordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
    }
}

/// Web Mercator (EPSG:3857), as tile servers cut it: the world is 256·2^z pixels square at
/// zoom z, x growing east from 180° W, y growing south from 85.0511° N.
public enum WebMercator {
    /// Where the square world ends north and south.
    public static let maximumLatitude = 85.051_128_779_806_59
    /// The equator's length on the WGS 84 sphere Web Mercator uses, in metres.
    public static let equator = 40_075_016.686

    /// `coordinate` with its latitude held within the square world (±85.0511°): where the map
    /// puts a place beyond it, at its edge.
    public static func clamped(_ coordinate: GeoCoordinate) -> GeoCoordinate {
        GeoCoordinate(latitude: min(max(coordinate.latitude, -maximumLatitude), maximumLatitude), longitude: coordinate.longitude)
    }

    /// `coordinate` in world pixels at zoom 0 (0…256 each way); the latitude is clamped.
    public static func worldPoint(_ coordinate: GeoCoordinate) -> CGPoint {
        let lat = clamped(coordinate).latitude * .pi / 180
        let x = (coordinate.longitude + 180) / 360 * 256
        let y = (0.5 - log(tan(.pi / 4 + lat / 2)) / (2 * .pi)) * 256
        return CGPoint(x: x, y: y)
    }

    /// The coordinate at world pixel `point` (zoom 0).
    public static func coordinate(atWorldPoint point: CGPoint) -> GeoCoordinate {
        let lon = point.x / 256 * 360 - 180
        let n = .pi - 2 * .pi * point.y / 256
        return GeoCoordinate(latitude: atan(sinh(n)) * 180 / .pi, longitude: lon)
    }

    /// Ground metres per pixel at `latitude` and zoom `zoom` (256-pixel tiles).
    public static func metresPerPixel(latitude: Double, zoom: Double) -> Double {
        equator * cos(latitude * .pi / 180) / pow(2, zoom + 8)
    }

    /// The zoom whose pixels are no coarser than the print's: the coarsest zoom at which a
    /// tile pixel covers at most the ground one printed dot covers, at scale 1:`scale` and
    /// `dpi` dots per inch. Tiles are never stretched to pretend to more detail than they have:
    /// at 1:25,000 and 300 dpi at 50° N a dot is 2.12 m of ground, z15's pixels are 3.07 m and
    /// z16's 1.54 m, so the answer is 16.
    public static func zoom(forScale scale: Double, dpi: Double, latitude: Double) -> Int {
        let groundPerDot = scale * 0.0254 / dpi
        let exact = log2(equator * cos(latitude * .pi / 180) / (256 * groundPerDot))
        // A hair of tolerance, so that a zoom that matches exactly is not passed over.
        // Within the zooms a tile set can have: a scale and resolution from their declared
        // ranges give a finite answer, but only this keeps `Int(_:)` from trapping on one that is not.
        guard exact.isFinite else { return exact > 0 ? TileSetInfo.zoomLevels.upperBound : 0 }
        return Int(min(max(0, (exact - 1e-9).rounded(.up)), Double(TileSetInfo.zoomLevels.upperBound)))
    }
}
