import Foundation
import HandlerSupport

/// Where the world falls on the page: the map's centre and scale, the tile zoom, the pixel
/// window of tiles under the map, and the projection from coordinates to page points.
struct MapLayout {
    /// The map's frame in the formatter's rect.
    let mapRect: CGRect
    let center: GeoCoordinate
    /// The scale denominator (25000 for 1:25,000), true at the centre's latitude.
    let scale: Double
    let zoom: Int
    /// The centre in world pixels at zoom 0.
    private let centerWorld: CGPoint
    /// World pixels (zoom 0) per page point.
    private let worldPerPoint: Double

    init(framing: MapPrintFormatter.Framing, mapSize: CGSize, dpi: Double, info: TileSetInfo, origin: CGPoint, path: String) throws {
        mapRect = CGRect(origin: origin, size: mapSize)
        let paperMetresPerPoint = 0.0254 / 72
        switch framing {
        case .fit(let box):
            let a = WebMercator.worldPoint(GeoCoordinate(latitude: box.north, longitude: box.west))
            let b = WebMercator.worldPoint(GeoCoordinate(latitude: box.south, longitude: box.east))
            centerWorld = CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            center = WebMercator.coordinate(atWorldPoint: centerWorld)
            let groundPerWorld = WebMercator.equator * cos(center.latitude * .pi / 180) / 256
            // A tenth of a margin around the features; a single point gets about 1:10,000.
            let dx = max(b.x - a.x, 1e-9), dy = max(b.y - a.y, 1e-9)
            var points = min(mapSize.width / dx, mapSize.height / dy) / 1.1
            points = min(points, groundPerWorld / (10_000 * paperMetresPerPoint))
            scale = Self.roundedUp(groundPerWorld / points / paperMetresPerPoint)
        case .scale(let c, let s):
            guard MapSettings.scales.contains(s) else {
                throw PrintError(.invalidOption, path: path, "the scale is 1:N with N \(MapSettings.spelled(MapSettings.scales))")
            }
            // Centred at a pole, the map is centred where the square world ends, and its
            // scale is true there: at 90° the ground per pixel came out as 6e-17 of the
            // equator's, and the tile window of a poster's sheet past the whole numbers.
            center = WebMercator.clamped(c)
            centerWorld = WebMercator.worldPoint(c)
            scale = s
        case .zoom(let c, let z):
            center = WebMercator.clamped(c)
            centerWorld = WebMercator.worldPoint(c)
            scale = WebMercator.metresPerPixel(latitude: center.latitude, zoom: Double(z)) * dpi / 0.0254
        }
        let groundPerWorld = WebMercator.equator * cos(center.latitude * .pi / 180) / 256
        worldPerPoint = scale * paperMetresPerPoint / groundPerWorld
        var z = WebMercator.zoom(forScale: scale, dpi: dpi, latitude: center.latitude)
        if case .zoom(_, let asked) = framing { z = asked }
        zoom = min(max(z, info.minZoom), info.maxZoom, 22)
    }

    /// 23,456 → 24,000: a scale people can read off, never larger than the one that fits.
    static func roundedUp(_ value: Double) -> Double {
        guard value > 100 else { return max(1, value.rounded(.up)) }
        let magnitude = pow(10, floor(log10(value)) - 1)
        return (value / magnitude).rounded(.up) * magnitude
    }

    /// `coordinate` on the page.
    func pagePoint(_ coordinate: GeoCoordinate) -> CGPoint {
        var w = WebMercator.worldPoint(coordinate)
        // The copy of the world nearest the centre, for maps across the antimeridian.
        while w.x - centerWorld.x > 128 { w.x -= 256 }
        while centerWorld.x - w.x > 128 { w.x += 256 }
        return CGPoint(x: mapRect.midX + (w.x - centerWorld.x) / worldPerPoint,
                       y: mapRect.midY + (w.y - centerWorld.y) / worldPerPoint)
    }

    /// The coordinate under page point `p` (the inverse of `pagePoint`).
    func coordinate(at p: CGPoint) -> GeoCoordinate {
        WebMercator.coordinate(atWorldPoint: CGPoint(x: centerWorld.x + (p.x - mapRect.midX) * worldPerPoint,
                                                     y: centerWorld.y + (p.y - mapRect.midY) * worldPerPoint))
    }

    /// The integer pixel window at `zoom` that covers `part` of the map (all of it by default).
    func mosaicWindow(covering part: CGRect? = nil) -> (x0: Int, y0: Int, width: Int, height: Int) {
        let f = pow(2, Double(zoom))
        let r = part ?? mapRect
        let left = (centerWorld.x + (r.minX - mapRect.midX) * worldPerPoint) * f
        let right = (centerWorld.x + (r.maxX - mapRect.midX) * worldPerPoint) * f
        // Rows exist only within the world (0…256·f); a sheet's window beyond it keeps one row.
        let top = min(max(0, (centerWorld.y + (r.minY - mapRect.midY) * worldPerPoint) * f), 256 * f)
        let bottom = max(min(256 * f, (centerWorld.y + (r.maxY - mapRect.midY) * worldPerPoint) * f), 0)
        // A map at a small scale may span the world many times over (a billion to one on a
        // poster); held within 1024 worlds either way, its pixels stay whole numbers and its
        // tiles countable, for the tile limit to judge, instead of stopping the job.
        let reach = 1024 * 256 * f
        let x0 = Int(floor(min(max(left, -reach), reach))), y0 = Int(floor(top))
        return (x0, y0, max(1, Int(ceil(min(max(right, -reach), reach))) - x0), max(1, Int(ceil(bottom)) - y0))
    }

    /// Where the mosaic's pixels land on the page.
    func rect(ofMosaic mosaic: TileMosaic) -> CGRect {
        let f = pow(2, Double(zoom))
        let x = mapRect.midX + (Double(mosaic.origin.x) / f - centerWorld.x) / worldPerPoint
        let y = mapRect.midY + (Double(mosaic.origin.y) / f - centerWorld.y) / worldPerPoint
        return CGRect(x: x, y: y, width: Double(mosaic.width) / f / worldPerPoint, height: Double(mosaic.height) / f / worldPerPoint)
    }
}
