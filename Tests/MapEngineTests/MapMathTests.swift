import Foundation
import MapEngine
import SwiftPrint
import Testing

/// Web Mercator and the zoom rule, against figures worked by hand.
@Suite struct MapMathTests {
    @Test func theZoomForOneTo25000At300DPIAt50NorthIs16() {
        // A dot is 25,000 × 0.0254 / 300 = 2.117 m of ground; z15's pixels are 3.07 m there
        // (too coarse: papermap stretches them), z16's 1.54 m.
        #expect(WebMercator.zoom(forScale: 25_000, dpi: 300, latitude: 50) == 16)
        #expect(abs(WebMercator.metresPerPixel(latitude: 50, zoom: 15) - 3.07) < 0.01)
        // Screen-equivalent tiles at 96 dpi: 6.6 m a dot, so z14 (6.14 m).
        #expect(WebMercator.zoom(forScale: 25_000, dpi: 96, latitude: 50) == 14)
        // At the equator z16's pixels are 2.39 m, coarser than the dot: z17.
        #expect(WebMercator.zoom(forScale: 25_000, dpi: 300, latitude: 0) == 17)
    }

    @Test func worldPointsRoundTrip() {
        for (lat, lon) in [(0.0, 0.0), (50.0, 8.5), (-33.9, 151.2), (85.0, -179.9)] {
            let p = WebMercator.worldPoint(GeoCoordinate(latitude: lat, longitude: lon))
            let back = WebMercator.coordinate(atWorldPoint: p)
            #expect(abs(back.latitude - lat) < 1e-9 && abs(back.longitude - lon) < 1e-9)
        }
        // Latitudes beyond the square world are clamped to it.
        #expect(abs(WebMercator.worldPoint(GeoCoordinate(latitude: 89, longitude: 0)).y) < 1e-9)
    }

    @Test func tileElevenThreeTwoSevenSevenNineOneIsTMSRow1256() {
        // MBTiles numbers rows from the south: XYZ 11/327/791 is tile_row 2^11 − 1 − 791.
        #expect((1 << 11) - 1 - 791 == 1256)
        let p = WebMercator.worldPoint(GeoCoordinate(latitude: 40.0, longitude: -122.5))
        #expect(Int(p.x * 2048 / 256) == 327)
    }
}
