// swiftprint-make-basemap: draws the offline world basemap (Config/basemap/world.mbtiles) from
// Natural Earth's public-domain country polygons, as Debian's qgis-common ships them
// (world_map.gpkg, Natural Earth 1:10m admin-0, generalised). scripts/make-basemap runs it.
//
//   swiftprint-make-basemap WORLD_MAP.GPKG OUT.mbtiles [MAXZOOM]
//
// Each 256-pixel PNG tile of zooms 0…MAXZOOM (default 5) shows sea, land and country borders
// in quiet colours that print well in grey too. Tiles wholly at sea are stored once, as MBTiles
// allows (the `tiles` view over `map` and `images`).
import CCairo
import Foundation
import GRDB
import MapEngine

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: swiftprint-make-basemap WORLD_MAP.GPKG OUT.mbtiles [MAXZOOM]\n".utf8))
    exit(64)
}
let maxZoom = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5

/// One ring of a polygon in world pixels at zoom 0, with its bounding box.
struct Ring { var points: [CGPoint]; var box: CGRect }

/// The rings of a GeoPackage geometry blob (a GP header, then WKB (Multi)Polygons).
func rings(ofGeoPackageBlob blob: Data) -> [[Ring]] {
    let b = [UInt8](blob)
    guard b.count > 8, b[0] == 0x47, b[1] == 0x50 else { return [] }
    let envelopeSizes = [0, 32, 48, 48, 64]
    let envelope = Int((b[3] >> 1) & 0x07)
    var i = 8 + (envelope < envelopeSizes.count ? envelopeSizes[envelope] : 0)
    func u32(_ little: Bool) -> Int {
        defer { i += 4 }
        let v = b[i..<i + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (little ? 8 * $1.offset : 8 * (3 - $1.offset)) }
        return Int(v)
    }
    func f64(_ little: Bool) -> Double {
        defer { i += 8 }
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(b[i + k]) << (little ? 8 * k : 8 * (7 - k)) }
        return Double(bitPattern: v)
    }
    func polygon() -> [Ring] {
        let little = b[i] == 1; i += 1
        _ = u32(little)
        return (0..<u32(little)).map { _ in
            let points = (0..<u32(little)).map { _ -> CGPoint in
                let lon = f64(little), lat = f64(little)
                return WebMercator.worldPoint(GeoCoordinate(latitude: lat, longitude: lon))
            }
            let xs = points.map(\.x), ys = points.map(\.y)
            let box = CGRect(x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
            return Ring(points: points, box: box)
        }
    }
    let little = b[i] == 1; i += 1
    let type = u32(little) % 1000
    if type == 3 { return [polygon()] }
    guard type == 6 else { return [] }
    return (0..<u32(little)).map { _ in polygon() }
}

let source = try DatabaseQueue(path: arguments[1], configuration: { var c = Configuration(); c.readonly = true; return c }())
let countries: [[[Ring]]] = try source.read { db in
    try Data.fetchAll(db, sql: "SELECT geom FROM countries WHERE geom IS NOT NULL").map(rings(ofGeoPackageBlob:))
}
print("swiftprint-make-basemap: \(countries.count) countries, \(countries.joined().joined().map(\.points.count).reduce(0, +)) points")

try? FileManager.default.removeItem(atPath: arguments[2])
let out = try DatabaseQueue(path: arguments[2])
try out.write { db in
    try db.execute(sql: """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
        CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
        CREATE TABLE images (tile_id TEXT PRIMARY KEY, tile_data BLOB);
        CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, map.tile_row AS tile_row,
            images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
        """)
    for (name, value) in [
        ("name", "swiftprint world basemap"), ("format", "png"), ("type", "baselayer"), ("version", "1"),
        ("minzoom", "0"), ("maxzoom", String(maxZoom)), ("bounds", "-180,-85.0511,180,85.0511"),
        ("description", "Countries of the world for printing offline, from Natural Earth 1:10m admin-0 (generalised, as in QGIS's world_map.gpkg)"),
        ("attribution", "Basemap: Natural Earth (public domain)"),
    ] { try db.execute(sql: "INSERT INTO metadata VALUES (?, ?)", arguments: [name, value]) }
}

/// PNG bytes of a cairo surface.
func png(_ surface: OpaquePointer) -> Data {
    final class Sink { var data = Data() }
    let sink = Sink()
    _ = cairo_surface_write_to_png_stream(surface, { context, bytes, length in
        Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue().data.append(bytes!, count: Int(length))
        return CAIRO_STATUS_SUCCESS
    }, Unmanaged.passUnretained(sink).toOpaque())
    return sink.data
}

var stored: Set<String> = []
for z in 0...maxZoom {
    let n = 1 << z, f = Double(n)
    try out.write { db in
        for x in 0..<n {
            for y in 0..<n {
                let tile = CGRect(x: Double(x) * 256 / f, y: Double(y) * 256 / f, width: 256 / f, height: 256 / f)
                let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 256, 256)!
                let cr = cairo_create(surface)!
                cairo_set_source_rgb(cr, 0.80, 0.88, 0.94) // sea
                cairo_paint(cr)
                cairo_scale(cr, f, f)
                cairo_translate(cr, -tile.minX, -tile.minY)
                var land = false
                for country in countries {
                    let visible = country.filter { $0.first.map { $0.box.intersects(tile) } ?? false }
                    guard !visible.isEmpty else { continue }
                    land = true
                    for polygon in visible {
                        for ring in polygon {
                            guard let first = ring.points.first else { continue }
                            cairo_move_to(cr, first.x, first.y)
                            for p in ring.points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
                            cairo_close_path(cr)
                        }
                    }
                    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                    cairo_set_source_rgb(cr, 0.96, 0.95, 0.91) // land
                    cairo_fill_preserve(cr)
                    cairo_set_source_rgb(cr, 0.55, 0.52, 0.58) // borders
                    cairo_set_line_width(cr, (z < 3 ? 0.5 : 0.8) / f)
                    cairo_stroke(cr)
                }
                cairo_destroy(cr)
                cairo_surface_flush(surface)
                let id = land ? "\(z)/\(x)/\(y)" : "sea"
                if !stored.contains(id) {
                    try db.execute(sql: "INSERT INTO images VALUES (?, ?)", arguments: [id, png(surface)])
                    stored.insert(id)
                }
                cairo_surface_destroy(surface)
                try db.execute(sql: "INSERT INTO map VALUES (?, ?, ?, ?)", arguments: [z, x, n - 1 - y, id])
            }
        }
    }
    print("swiftprint-make-basemap: zoom \(z) done")
}
try out.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
