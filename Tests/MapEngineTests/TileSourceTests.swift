import Foundation
@testable import MapEngine
import SwiftPrint
import TestSupport
import Testing

/// URL templates, the OpenStreetMap limit, print jobs and the tile cache's freshness rules,
/// without a network (the server tests are in CLITests/MapTileServerTests).
struct TileSourceTests {
    func noCache() -> HTTPTileSource.Settings {
        var s = HTTPTileSource.Settings()
        s.cacheFolder = nil
        return s
    }

    @Test func templatesAreCheckedAndFilledIn() throws {
        let source = try HTTPTileSource(template: "https://tiles.example.org/{z}/{x}/{-y}{r}.png", settings: noCache())
        #expect(source.url(for: TileID(z: 11, x: 327, y: 791)) == "https://tiles.example.org/11/327/1256.png")
        for (bad, says) in [("ftp://h/{z}/{x}/{y}.png", "http or https"), ("https://h/{z}/{y}.png", "lacks {x}"),
                            ("https://{s}.h/{z}/{x}/{y}.png", "{s}")] {
            #expect { try HTTPTileSource(template: bad, settings: noCache()) } throws: { "\($0)".contains(says) }
        }
    }

    @Test func openStreetMapsOwnServersAreNeverBulkDownloaded() throws {
        let osm = try HTTPTileSource(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", settings: noCache())
        #expect(osm.info.attribution == "© OpenStreetMap contributors")
        let ids = (0..<(HTTPTileSource.openStreetMapLimit + 1)).map { TileID(z: 12, x: 2000 + $0 % 40, y: 1300 + $0 / 40) }
        #expect { try osm.prefetch(ids) } throws: { "\($0)".contains("usage policy") }
    }

    @Test func aPrintJobCannotFetchTiles() throws {
        let dir = FileManager.default.temporaryDirectory.path + "/tiles-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let spec = dir + "/net.map.json"
        try #"{ "swiftprint-map": 1, "center": { "lat": 50, "lon": 8 }, "zoom": 10, "tiles": "https://tile.example.org/{z}/{x}/{y}.png" }"#
            .write(toFile: spec, atomically: false, encoding: .utf8)
        var settings = JobSettings()
        settings.localFiles = .none
        #expect { try MapEngine().makeFormatter(for: PrintInput(path: spec), settings: settings) }
            throws: { "\($0)".contains("cannot fetch tiles from the network") }
    }

    @Test func cachedTilesStayFreshAtLeastSevenDays() throws {
        let cache = TileCache(folder: FileManager.default.temporaryDirectory.path + "/tile-cache-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let now = Date()
        let week = 7 * 86_400.0
        func freshFor(_ url: String) -> Double? { cache.lookUp(url).map { $0.entry.freshUntil - now.timeIntervalSince1970 } }
        cache.store(Data([1]), url: "u1", etag: "\"a\"", lastModified: nil, cacheControl: "public, max-age=60", expires: nil, now: now)
        #expect(abs(freshFor("u1")! - week) < 1)
        cache.store(Data([2]), url: "u2", etag: nil, lastModified: nil, cacheControl: "max-age=2592000", expires: nil, now: now)
        #expect(abs(freshFor("u2")! - 2_592_000) < 1)
        cache.store(Data([3]), url: "u3", etag: nil, lastModified: nil, cacheControl: "no-store", expires: nil, now: now)
        #expect(cache.lookUp("u3") == nil)
        cache.store(Data([4]), url: "u4", etag: "\"d\"", lastModified: nil, cacheControl: "no-cache", expires: nil, now: now)
        #expect(cache.lookUp("u4")?.entry.freshUntil == 0)
        let inTenDays = now.addingTimeInterval(10 * 86_400)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX"); f.timeZone = TimeZone(identifier: "GMT"); f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        cache.store(Data([5]), url: "u5", etag: nil, lastModified: nil, cacheControl: nil, expires: f.string(from: inTenDays), now: now)
        #expect(abs(freshFor("u5")! - 10 * 86_400) < 2)
        #expect(cache.lookUp("u1")?.data == Data([1]) && cache.lookUp("u1")?.entry.etag == "\"a\"")
    }
}
