import Foundation
import TestSupport
import Testing

/// Maps through the real binary, on tiles the tests make: each tile a colour of its own (red
/// from its x, green from its y), so a wrong tile or a wrong row order shows as a wrong colour.
@Suite(.serialized) struct MapTests {
    static let zoom = 2

    /// The colour of tile x/y.
    static func color(x: Int, y: Int) -> (r: Int, g: Int, b: Int) { (40 + x * 60, 40 + y * 60, 200) }

    /// A folder `{z}/{x}/{y}.png` of zoom `zoom`, and the same tiles as an MBTiles file (TMS rows).
    static func makeTiles(in dir: String, leaving missing: (x: Int, y: Int)? = nil) throws -> (folder: String, mbtiles: String) {
        let folder = dir + "/tiles", mbtiles = dir + "/tiles.mbtiles"
        var sql = "CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);"
        sql += "INSERT INTO metadata VALUES ('format','png'),('minzoom','0'),('maxzoom','\(zoom)'),('attribution','<a href=\"https://example.org\">&copy; Test Tiles</a>');"
        let n = 1 << zoom
        for x in 0..<n {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(zoom)/\(x)", withIntermediateDirectories: true)
            for y in 0..<n where !(missing.map { $0 == (x, y) } ?? false) {
                let c = color(x: x, y: y)
                let path = "\(folder)/\(zoom)/\(x)/\(y).png"
                let r = try Tool.run("convert", ["-size", "256x256", String(format: "xc:#%02x%02x%02x", c.r, c.g, c.b), "PNG24:" + path])
                #expect(r.status == 0, "\(r.stderr)")
                sql += "INSERT INTO tiles VALUES (\(zoom), \(x), \(n - 1 - y), readfile('\(path)'));"
            }
        }
        let r = try Tool.run("sqlite3", [mbtiles, sql])
        #expect(r.status == 0, "\(r.stderr)")
        return (folder, mbtiles)
    }

    /// A map description centred on tile x/y's centre at zoom `zoom`.
    static func description(tiles: String, x: Int, y: Int, extra: String = "") -> String {
        let lon = (Double(x) + 0.5) / Double(1 << zoom) * 360 - 180
        let n = Double.pi - 2 * Double.pi * (Double(y) + 0.5) / Double(1 << zoom)
        let lat = atan(sinh(n)) * 180 / .pi
        return #"{ "swiftprint-map": 1, "title": "Test map", "center": { "lat": \#(lat), "lon": \#(lon) }, "zoom": \#(zoom), "tiles": "\#(tiles)", "tile-dpi": 72 \#(extra) }"#
    }

    /// The RGB colour at the centre of the map frame on page 1 (the map fills the printable
    /// width; its frame's middle is found from the page's layout rather than assumed).
    static func centerColor(_ pdf: String) throws -> (Int, Int, Int) {
        let png = pdf + ".ppm"
        _ = try Tool.run("pdftoppm", ["-r", "36", "-singlefile", pdf, pdf])
        let data = try Data(contentsOf: URL(fileURLWithPath: pdf + ".ppm"))
        _ = png
        // P6 header: "P6\nW H\n255\n"
        var fields: [Int] = []
        var i = 2, current = ""
        while fields.count < 3 {
            let ch = Character(UnicodeScalar(data[i])); i += 1
            if ch.isWhitespace { if !current.isEmpty { fields.append(Int(current)!); current = "" } } else { current.append(ch) }
        }
        let (w, h) = (fields[0], fields[1])
        // The map's rect: page minus margins (36 pt = 18 px at 36 dpi … whatever the paper), title
        // 24 pt on top and the legend 34 pt below: its middle is 5 pt above the page's middle.
        let cx = w / 2, cy = h / 2 - 5 * 36 / 72
        let o = i + (cy * w + cx) * 3
        return (Int(data[o]), Int(data[o + 1]), Int(data[o + 2]))
    }

    @Test(arguments: ["folder", "mbtiles"]) func theRightTileSitsUnderTheCentre(kind: String) throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        for (x, y) in [(1, 2), (3, 0), (0, 3)] {
            let spec = dir + "/map-\(x)-\(y).json"
            try Self.description(tiles: kind == "folder" ? tiles.folder : tiles.mbtiles, x: x, y: y)
                .write(toFile: spec, atomically: false, encoding: .utf8)
            let out = dir + "/map-\(kind)-\(x)-\(y).pdf"
            let r = try swiftprint(["convert", spec, "-o", out])
            #expect(r.status == 0, "\(r.stderr)")
            let (red, green, blue) = try Self.centerColor(out)
            let c = Self.color(x: x, y: y)
            #expect(abs(red - c.r) < 8 && abs(green - c.g) < 8 && abs(blue - c.b) < 8,
                    "\(kind): tile \(x)/\(y) should be under the centre; found rgb(\(red), \(green), \(blue))")
        }
    }

    @Test func attributionIsPrintedWithoutItsHTML() throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        let spec = dir + "/map.json"
        try Self.description(tiles: tiles.mbtiles, x: 1, y: 1).write(toFile: spec, atomically: false, encoding: .utf8)
        let r = try swiftprint(["convert", spec, "-o", dir + "/a.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try PDF.text(dir + "/a.pdf")
        #expect(text.contains("© Test Tiles"), "\(text)")
        #expect(!text.contains("href"))
        #expect(text.contains("Test map"))
    }

    @Test func aMissingTileIsShownAndReportedOrFailsTheJob() throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir, leaving: (1, 1))
        let spec = dir + "/map.json"
        try Self.description(tiles: tiles.folder, x: 1, y: 1).write(toFile: spec, atomically: false, encoding: .utf8)
        let r = try swiftprint(["convert", spec, "-o", dir + "/m.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("tiles missing") && r.stderr.contains("2/1/1"), "\(r.stderr)")
        #expect(try PDF.text(dir + "/m.pdf").contains("Incomplete: 1 tile missing"))
        let failed = try swiftprint(["convert", spec, "-o", dir + "/f.pdf", "--map-missing-tiles", "fail"])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("map.json") || failed.stderr.contains("tiles"), "\(failed.stderr)")
        #expect(failed.stderr.contains("2/1/1"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/f.pdf"))
    }

    @Test func aGeoJSONLineLandsOnTheRightPixels() throws {
        // A north-south line through the centre of tile 1/2, at zoom 2 and 72 dpi: it must
        // cross the map's centre, and a point 1/4 tile east of it must stay the tile's colour.
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        let lon = 1.5 / 4 * 360 - 180
        let overlay = ##", "overlays": [ { "geojson": { "type": "LineString", "coordinates": [[\##(lon), -60], [\##(lon), 60]] }, "style": { "stroke": "#000000", "stroke-width": 6, "stroke-opacity": 1 } } ]"##
        let spec = dir + "/line.json"
        try Self.description(tiles: tiles.folder, x: 1, y: 2, extra: overlay).write(toFile: spec, atomically: false, encoding: .utf8)
        let out = dir + "/line.pdf"
        let r = try swiftprint(["convert", spec, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let (red, green, blue) = try Self.centerColor(out)
        #expect(red < 40 && green < 40 && blue < 40, "the line is not at the centre: rgb(\(red), \(green), \(blue))")
    }

    /// A 2 × 1 poster with 10 mm of overlap: a black marker at the map's centre lies in the
    /// overlap, so both sheets print it, and where it lands on each says the overlap is right.
    @Test func aPosterSheetsShareTheirOverlap() throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        let (lat, lon) = (0.0, 0.0)
        let spec = dir + "/poster.json"
        try ##"{ "swiftprint-map": 1, "title": "Poster", "center": { "lat": \##(lat), "lon": \##(lon) }, "zoom": 2, "tiles": "\##(tiles.folder)", "tile-dpi": 72, "poster": { "columns": 2, "rows": 1, "overlap": "10mm" }, "markers": [ { "lat": 0, "lon": 0, "color": "#000000" } ] }"##
            .write(toFile: spec, atomically: false, encoding: .utf8)
        let out = dir + "/poster.pdf"
        let r = try swiftprint(["convert", spec, "-o", out, "--media", "A4", "--margins", "36"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try PDF.pageCount(out) == 2)
        #expect(try PDF.text(out, first: 1, last: 1).contains("Sheet A1 of B1"))
        #expect(try PDF.text(out, first: 2, last: 2).contains("Sheet B1 of B1"))
        // The marker's centre on each sheet, in points from the paper's left edge.
        func markerX(page: Int) throws -> Double? {
            let g = try PDF.grayPixels(out, page: page, dpi: 72)
            var sum = 0, n = 0
            for y in (g.height / 2 - 40)..<(g.height / 2 + 30) {
                for x in 40..<(g.width - 40) where g.pixels[y * g.width + x] < 40 { sum += x; n += 1 }
            }
            return n > 10 ? Double(sum) / Double(n) + 0.5 : nil
        }
        let width = 595.28 - 72, overlap = 10 * 72 / 25.4
        let a = try #require(try markerX(page: 1)), b = try #require(try markerX(page: 2))
        // The canvas is 2w − overlap wide; its centre is w − overlap/2 into sheet A, overlap/2 into B.
        #expect(abs(a - (36 + width - overlap / 2)) < 2, "on sheet A1 at \(a)")
        #expect(abs(b - (36 + overlap / 2)) < 2, "on sheet B1 at \(b)")
        // Printed after another document, the sheets keep their marks in the margin.
        try "A note first.\n".write(toFile: dir + "/note.txt", atomically: false, encoding: .utf8)
        let both = try swiftprint(["convert", dir + "/note.txt", spec, "-o", dir + "/both.pdf", "--media", "A4", "--margins", "36"])
        #expect(both.status == 0, "\(both.stderr)")
        // The top-left crop mark runs left from the map's corner at (36, 36), in the margin.
        let sheet = try PDF.grayPixels(dir + "/both.pdf", page: 2, dpi: 72)
        let mark = (22..<32).filter { x in min(sheet.pixels[35 * sheet.width + x], sheet.pixels[36 * sheet.width + x]) < 230 }
        #expect(mark.count > 6, "no crop mark left of the map's top-left corner")
        let tooMany = try swiftprint(["convert", spec, "-o", dir + "/big.pdf", "--map-poster", "9x9"])
        #expect(tooMany.status != 0 && tooMany.stderr.contains("map-max-sheets"), "\(tooMany.stderr)")
    }

    /// A 10° grid on a world map centred on 0°, 0°: the equator and the prime meridian cross at
    /// the map's centre, and their labels sit beside those lines.
    @Test func theGridsLinesAreWhereTheirLabelsSay() throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        let spec = dir + "/grid.json"
        try ##"{ "swiftprint-map": 1, "title": "Grid", "center": { "lat": 0, "lon": 0 }, "zoom": 2, "tiles": "\##(tiles.folder)", "tile-dpi": 72, "grid": 10 }"##
            .write(toFile: spec, atomically: false, encoding: .utf8)
        let out = dir + "/grid.pdf"
        let r = try swiftprint(["convert", spec, "-o", out, "--media", "A4", "--margins", "36"])
        #expect(r.status == 0, "\(r.stderr)")
        let words = try PDF.words(out, page: 1)
        // The map: 36 pt margins, a 24 pt title above, a 34 pt legend below.
        let midX = 595.28 / 2, midY = (36 + 24 + 841.89 - 36 - 34) / 2
        let equator = try #require(words.first { $0.word == "0°N" }, "\(words.map(\.word))")
        #expect(abs(equator.yMax - midY) < 3 && equator.xMin < 50, "the equator's label at \(equator)")
        let meridian = try #require(words.first { $0.word == "0°E" })
        #expect(abs(meridian.xMin - (midX + 2)) < 2, "the prime meridian's label at \(meridian)")
        #expect(words.contains { $0.word == "10°E" } && words.contains { $0.word == "20°N" })
        // And the line itself: grid blue at the centre column, the tile's own colour beside it.
        let g = try PDF.grayPixels(out, page: 1, dpi: 72)
        let row = Int(midY) + 40
        let on = Int(g.pixels[row * g.width + Int(midX)]), off = Int(g.pixels[row * g.width + Int(midX) + 5])
        #expect(off - on > 20, "no meridian at the centre: \(on) against \(off)")
    }

    /// A tile set that says it covers only the western hemisphere: the eastern tiles it lacks
    /// are outside its bounds, so they are white, not asked for, and not reported missing.
    @Test func tilesOutsideTheSourcesBoundsAreNotMissing() throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        for x in 2..<4 { try FileManager.default.removeItem(atPath: "\(tiles.folder)/\(Self.zoom)/\(x)") }
        try #"{ "bounds": "-180,-85,0,85", "minzoom": 0, "maxzoom": 2 }"#.write(toFile: tiles.folder + "/metadata.json", atomically: false, encoding: .utf8)
        let spec = dir + "/west.json"
        try Self.description(tiles: tiles.folder, x: 1, y: 1, extra: #", "missing-tiles": "fail""#).write(toFile: spec, atomically: false, encoding: .utf8)
        let r = try swiftprint(["convert", spec, "-o", dir + "/west.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!(try PDF.text(dir + "/west.pdf")).contains("Incomplete"))
        // Without the bounds, the same gaps are missing tiles.
        try #"{ "minzoom": 0, "maxzoom": 2 }"#.write(toFile: tiles.folder + "/metadata.json", atomically: false, encoding: .utf8)
        let failed = try swiftprint(["convert", spec, "-o", dir + "/gaps.pdf"])
        #expect(failed.status != 0 && failed.stderr.contains("missing"), "\(failed.stderr)")
    }

    /// Examples/walk.gpx ends at Zurich, on the map's right edge: its label turns left of the
    /// marker rather than being cut by the edge, and the others stay on the right.
    @Test func labelsStayInsideTheMap() throws {
        let dir = try temporaryDirectory()
        let out = dir + "/walk.pdf"
        let r = try swiftprint(["convert", directory() + "/../../Examples/walk.gpx", "-o", out, "--media", "A4", "--margins", "36"])
        #expect(r.status == 0, "\(r.stderr)")
        let words = try PDF.words(out, page: 1)
        let zurich = try #require(words.first { $0.word == "Zurich" })
        let bern = try #require(words.first { $0.word == "Bern" })
        #expect(zurich.xMax <= 595.28 - 36, "Zurich's label runs to \(zurich.xMax), past the map's edge")
        #expect(bern.xMin > 36 && bern.xMax < 595.28 - 36)
    }

    @Test func gpxAndGeoJSONPrintOnTheOfflineBasemap() throws {
        let dir = try temporaryDirectory()
        let gpx = dir + "/walk.gpx"
        try """
            <?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="46.95" lon="7.44"><name>Bern</name></wpt>
            <trk><trkseg><trkpt lat="46.95" lon="7.44"/><trkpt lat="47.37" lon="8.54"/><trkpt lat="46.20" lon="6.14"/></trkseg></trk></gpx>
            """.write(toFile: gpx, atomically: false, encoding: .utf8)
        let r = try swiftprint(["convert", gpx, "-o", dir + "/walk.pdf", "--verbose"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("→ map"), "\(r.stderr)")
        let text = try PDF.text(dir + "/walk.pdf")
        #expect(text.contains("Natural Earth"), "the basemap's attribution is missing: \(text)")
        #expect(text.contains("Bern"))
        #expect(text.contains("1:"), "no numeric scale")
    }

    /// MBTiles metadata as other writers leave it: zoom levels stored as numbers, a name that is
    /// a number or bytes, bounds that are no place. The numbers are read as the text they show
    /// (this set's deepest zoom is honoured: no tile is asked for below it), the rest is left
    /// out. Each of these once stopped the program (GRDB's typed read traps, a NaN reached the
    /// tile window, a reversed zoom range); the fuzzer found the first.
    @Test func metadataOfAnyTypeOrNonsenseStillPrints() throws {
        let dir = try temporaryDirectory()
        let tiles = try Self.makeTiles(in: dir)
        let sql = "DELETE FROM metadata WHERE name IN ('minzoom','maxzoom'); INSERT INTO metadata VALUES ('minzoom', 0), ('maxzoom', \(Self.zoom)), "
            + "(42, 'x'), (x'ff00fe', 'y'), ('bounds', 'nan,nan,inf,-inf'), ('name', x'c3a9');"
        let edit = try Tool.run("sqlite3", [tiles.mbtiles, sql])
        #expect(edit.status == 0, "\(edit.stderr)")
        let r = try swiftprint(["convert", tiles.mbtiles, "-o", dir + "/m.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("tiles missing"), "a zoom beyond the set's maxzoom was asked for: \(r.stderr)")
        for (n, range) in [("reversed", "('minzoom','5'),('maxzoom','-3')"), ("beyond 30", "('minzoom','99'),('maxzoom','1000')")].enumerated() {
            let copy = dir + "/bad-\(n).mbtiles"
            try FileManager.default.copyItem(atPath: tiles.mbtiles, toPath: copy)
            _ = try Tool.run("sqlite3", [copy, "DELETE FROM metadata WHERE name IN ('minzoom','maxzoom'); INSERT INTO metadata VALUES \(range.1);"])
            let bad = try swiftprint(["convert", copy, "-o", dir + "/bad-\(n).pdf"])
            #expect(bad.status == 0, "\(range.0): \(bad.stderr)")
        }
        for level in ["-3", "31"] {
            let spec = dir + "/zoom\(level).json"
            try #"{ "swiftprint-map": 1, "center": { "lat": 10, "lon": 10 }, "zoom": \#(level) }"#.write(toFile: spec, atomically: false, encoding: .utf8)
            let refused = try swiftprint(["convert", spec, "-o", dir + "/z.pdf"])
            #expect(refused.status != 0 && refused.stderr.contains("zoom is a zoom level from 0 to 30, not \(level)"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/z.pdf"))
        }
    }

    /// Numbers past what a map can be: each of these once stopped the program with a trap
    /// (a zoom of minus infinity from 0 dpi, a poster whose sheet count was past Int.max, a tile
    /// window past the whole numbers); the fuzzer found them in map descriptions, and the same
    /// numbers came in through `-o` options. Now each is refused, saying which value and its
    /// range, or, where the value is in range, the map is drawn or refused by its tile limit.
    @Test func numbersPastTheirRangeAreRefusedNotFatal() throws {
        let dir = try temporaryDirectory()
        let out = dir + "/m.pdf"
        var specs = 0
        func spec(_ fields: String, lat: Double = 10) throws -> String {
            specs += 1
            let path = dir + "/spec-\(specs).json"
            try #"{ "swiftprint-map": 1, "center": { "lat": \#(lat), "lon": 20 }, \#(fields) }"#.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
        for (fields, message) in [(#""scale": 25000, "dpi": 0"#, "dpi is a number from 10 to 10000, not 0.0"),
                                  (#""scale": 25000, "tile-dpi": 1e-300"#, "tile-dpi is a number from 10 to 10000"),
                                  (#""scale": 1e300"#, "scale is a number from 1 to 1000000000"),
                                  (#""zoom": 2, "poster": { "columns": 4611686018427387904, "rows": 4 }"#, "more than the limit of 64")] {
            let r = try swiftprint(["convert", try spec(fields), "-o", out])
            #expect(r.status == 65 && r.stderr.contains(message), "\(fields): \(r.status) \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let route = dir + "/route.geojson"
        try #"{ "type": "LineString", "coordinates": [[7.9, 46.6], [7.95, 46.65]] }"#.write(toFile: route, atomically: false, encoding: .utf8)
        for option in [["--map-dpi", "1e-300"], ["--map-tile-dpi", "1e308"], ["--map-scale", "1e300"]] {
            let r = try swiftprint(["convert", route, "-o", out] + option)
            #expect(r.status == 64 && r.stderr.contains("a number from"), "\(option): \(r.status) \(r.stderr)")
        }
        let poster = try swiftprint(["convert", route, "-o", out, "--map-poster", "4611686018427387904x4"])
        #expect(poster.status == 65 && poster.stderr.contains("map-max-sheets"), "\(poster.status) \(poster.stderr)")
        // In range, at the most: a billion to one at the pole, on a poster whose sheets lie
        // north and south of the world (at 90° the ground per pixel was 6e-17 of the equator's).
        for (lat, poster) in [(89.99, ""), (90, #", "poster": { "columns": 1, "rows": 4 }"#), (-90, #", "poster": { "columns": 4, "rows": 4 }"#)] {
            let pole = try swiftprint(["convert", try spec(#""scale": 1000000000"# + poster, lat: lat), "-o", out])
            #expect(pole.status == 0 || (pole.status == 65 && pole.stderr.contains("tiles")), "\(lat) \(poster): \(pole.status) \(pole.stderr)")
            try? FileManager.default.removeItem(atPath: out)
        }
    }

    @Test func vectorTilesAreRefusedClearly() throws {
        let dir = try temporaryDirectory()
        let path = dir + "/vector.mbtiles"
        _ = try Tool.run("sqlite3", [path, "CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB); INSERT INTO metadata VALUES ('format','pbf');"])
        let r = try swiftprint(["convert", path, "-o", dir + "/v.pdf"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("vector.mbtiles") && r.stderr.contains("not supported"), "\(r.stderr)")
    }
}

/// The map engine runs in swiftprint-map: the tool and the CUPS filter start without SQLite,
/// libxml2 (and its ICU) or gdk-pixbuf, and a map job still prints through them.
@Suite struct MapProcessTests {
    @Test func otherJobsNeverLoadTheMapEngine() throws {
        let built = URL(fileURLWithPath: Tool.swiftprint).deletingLastPathComponent()
        for program in [Tool.swiftprint, built.appendingPathComponent("swiftprint-filter").path] {
            let libraries = try Tool.run("ldd", [program]).text
            #expect(!libraries.contains("libsqlite3") && !libraries.contains("libxml2") && !libraries.contains("libgdk_pixbuf"),
                    "\(program): \(libraries)")
        }
        let helper = try Tool.run("ldd", [built.appendingPathComponent("swiftprint-map").path]).text
        #expect(helper.contains("libsqlite3"), "\(helper)")
    }
}
