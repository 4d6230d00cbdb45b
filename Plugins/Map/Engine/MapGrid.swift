import Foundation
import HandlerSupport

/// Lines of latitude and longitude over the map, labelled at its left and top edges. In Web
/// Mercator they are straight: meridians vertical, parallels horizontal. The spacing is the
/// roundest one (whole degrees, or minutes below a degree) giving three to eight lines across,
/// unless given.
struct MapGrid {
    /// Degrees between lines; nil picks one from the map's span.
    var spacing: Double?

    /// Candidate spacings, in degrees: 30° … 1°, then 30′ … 1′, then 30″ … 5″.
    static let candidates: [Double] = [30, 20, 10, 5, 2, 1] + [30, 20, 15, 10, 5, 2, 1].map { $0 / 60 }
        + [30, 15, 10, 5].map { $0 / 3600 }

    /// The widest candidate that puts at least three lines across `span` degrees.
    static func spacing(forSpan span: Double) -> Double {
        candidates.first { span / $0 >= 3 } ?? candidates.last!
    }

    /// `46°30′N`, `7°05′E`, `12°E`, with seconds only where the spacing needs them.
    static func label(_ value: Double, latitude: Bool, spacing: Double) -> String {
        let hemisphere = latitude ? (value >= 0 ? "N" : "S") : (value >= 0 ? "E" : "W")
        let total = Int((abs(value) * 3600).rounded())
        let d = total / 3600, m = (total / 60) % 60, s = total % 60
        if spacing >= 1 { return "\(d)°\(hemisphere)" }
        if spacing >= 1.0 / 60 - 1e-9 { return String(format: "%d°%02d′%@", d, m, hemisphere) }
        return String(format: "%d°%02d′%02d″%@", d, m, s, hemisphere)
    }

    func draw(in context: GraphicsContext, layout: MapLayout, font: Font) {
        let map = layout.mapRect
        let northWest = layout.coordinate(at: CGPoint(x: map.minX, y: map.minY))
        let southEast = layout.coordinate(at: CGPoint(x: map.maxX, y: map.maxY))
        let west = northWest.longitude, east = southEast.longitude
        let south = max(southEast.latitude, -WebMercator.maximumLatitude), north = min(northWest.latitude, WebMercator.maximumLatitude)
        let step = spacing ?? Self.spacing(forSpan: min(east - west, north - south))
        guard step > 0, (east - west) / step < 400, (north - south) / step < 400 else { return }
        let line = Color(red: 0.1, green: 0.2, blue: 0.5, alpha: 0.7)
        context.withSavedState {
            context.setStrokeColor(line)
            context.setLineWidth(0.4)
            var lon = (west / step).rounded(.up) * step
            while lon <= east {
                let x = layout.pagePoint(GeoCoordinate(latitude: (north + south) / 2, longitude: lon)).x
                context.strokeLine(from: CGPoint(x: x, y: map.minY), to: CGPoint(x: x, y: map.maxY))
                // Not under the north arrow in the top right corner.
                if x < map.maxX - 60 { tag(Self.label(lon, latitude: false, spacing: step), at: CGPoint(x: x + 2, y: map.minY + 2), in: context, font: font) }
                lon += step
            }
            var lat = (south / step).rounded(.up) * step
            while lat <= north {
                let y = layout.pagePoint(GeoCoordinate(latitude: lat, longitude: (west + east) / 2)).y
                context.strokeLine(from: CGPoint(x: map.minX, y: y), to: CGPoint(x: map.maxX, y: y))
                tag(Self.label(lat, latitude: true, spacing: step), at: CGPoint(x: map.minX + 2, y: y - 10), in: context, font: font)
                lat += step
            }
        }
    }

    /// A label on a white backing, legible over any tile.
    private func tag(_ text: String, at point: CGPoint, in context: GraphicsContext, font: Font) {
        let s = context.size(of: text, font: font)
        context.setFillColor(Color(white: 1, alpha: 0.8))
        context.fill(CGRect(x: point.x - 1, y: point.y, width: s.width + 2, height: s.height))
        context.draw(text, at: point, font: font, color: Color(red: 0.1, green: 0.2, blue: 0.5))
    }
}
