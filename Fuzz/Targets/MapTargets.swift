import Foundation
import HandlerSupport
import MapEngine

// A map document as a CUPS job reads it (local files none: no file but the document and the
// shipped basemap, no network): parsed, framed and laid out into pages.

private func mapJob(_ data: Data, name: String, _ scratch: FuzzScratch) throws {
    var settings = JobSettings()
    settings.localFiles = .none
    settings.limits.pointsPerMap = 100_000
    // A map of the whole world asks a tile source for hundreds of tiles (288 at zoom 4), most of
    // them missing from a fuzzed file: a second an input, which left the smoke run 19 runs. A
    // map needing more than this is refused as a job over the limit is, at once.
    settings.limits.tilesPerJob = 32
    let formatter = try MapEngine().makeFormatter(for: PrintInput(path: scratch.file(name, data)), settings: settings)
    _ = formatter.pageCount
}

let mapTargets = [
    FuzzTarget("geojson", reaches: "JSONSerialization and GeoJSONReader (every geometry type, nesting, styles in properties), the map's framing and pages") { data, scratch in
        try mapJob(data, name: "input.geojson", scratch)
    },
    FuzzTarget("gpx", reaches: "Foundation's XMLParser (libxml2) and GPXReader (tracks, routes, waypoints), the map's framing and pages") { data, scratch in
        try mapJob(data, name: "input.gpx", scratch)
    },
    FuzzTarget("map-description", reaches: "JSONDecoder and MapDescription (framing, poster, grid, markers, inline overlays), as a CUPS job reads it") { data, scratch in
        try mapJob(data, name: "input.map.json", scratch)
    },
    FuzzTarget("mbtiles", reaches: "SQLite (GRDB) opening an MBTiles file: its metadata, then its tiles for an overview") { data, scratch in
        try mapJob(data, name: "input.mbtiles", scratch)
    },
]
