import Foundation
import TestSupport
import Testing

/// A tile server on loopback (TileServer/tile_server.py) that counts what it is asked.
final class TileServer {
    let process = Process()
    let port: Int
    let statsPath: String

    struct Stats: Decodable {
        var requests: Int
        var conditional: Int
        var not_modified: Int
        var max_at_once: Int
        var user_agents: [String]
        var paths: [String: Int]
    }

    init(root: String, arguments: [String] = []) throws {
        statsPath = try temporaryDirectory() + "/stats.json"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [directory() + "/TileServer/tile_server.py", "--root", root, "--stats", statsPath] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try out.fileHandleForReading.read(upToCount: 1), let b = byte.first, b != 10 { line.append(b) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the tile server did not start"]) }
        self.port = port
    }

    var template: String { "http://127.0.0.1:\(port)/{z}/{x}/{y}.png" }

    func stats() throws -> Stats { try JSONDecoder().decode(Stats.self, from: Data(contentsOf: URL(fileURLWithPath: statsPath))) }

    deinit {
        // SIGKILL: a child of a test thread starts with that thread's signals blocked, SIGTERM too.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Tiles from an http(s) URL template: each asked once, at most four at a time, with a
/// User-Agent naming swiftprint, cached on disk, retried when the server fails for a moment;
/// and no network at all from local sources.
@Suite(.serialized) struct MapTileServerTests {
    static let tiles: (dir: String, folder: String) = {
        let dir = try! temporaryDirectory()
        return (dir, try! MapTests.makeTiles(in: dir).folder)
    }()

    func map(_ server: TileServer, x: Int, y: Int, in dir: String) throws -> String {
        let spec = dir + "/map-\(x)-\(y).json"
        try MapTests.description(tiles: server.template, x: x, y: y, extra: #", "max-zoom": 2"#)
            .write(toFile: spec, atomically: false, encoding: .utf8)
        return spec
    }

    func expectTile(_ pdf: String, x: Int, y: Int) throws {
        let (r, g, b) = try MapTests.centerColor(pdf)
        let c = MapTests.color(x: x, y: y)
        #expect(abs(r - c.r) < 8 && abs(g - c.g) < 8 && abs(b - c.b) < 8, "tile \(x)/\(y) should be under the centre; found rgb(\(r), \(g), \(b))")
    }

    @Test func eachTileIsAskedOnceFourAtATimeThenServedFromTheCache() throws {
        let server = try TileServer(root: Self.tiles.folder, arguments: ["--delay", "0.05", "--cache-control", "max-age=60"])
        let dir = try temporaryDirectory()
        let spec = try map(server, x: 1, y: 2, in: dir)
        let r = try swiftprint(["convert", spec, "-o", dir + "/a.pdf", "--map-tile-cache", dir + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        try expectTile(dir + "/a.pdf", x: 1, y: 2)
        let first = try server.stats()
        #expect(first.requests > 4 && first.requests == first.paths.count, "each tile once: \(first.paths)")
        #expect(first.max_at_once <= 4 && first.max_at_once >= 2, "requests at once: \(first.max_at_once)")
        #expect(first.user_agents.count == 1 && first.user_agents[0].hasPrefix("swiftprint/"), "\(first.user_agents)")
        // The cache says fresh for at least 7 days: a second job asks nothing.
        let again = try swiftprint(["convert", spec, "-o", dir + "/b.pdf", "--map-tile-cache", dir + "/cache"])
        #expect(again.status == 0, "\(again.stderr)")
        try expectTile(dir + "/b.pdf", x: 1, y: 2)
        #expect(try server.stats().requests == first.requests)
        // A User-Agent of the user's own still names swiftprint.
        _ = try swiftprint(["convert", spec, "-o", dir + "/c.pdf", "--map-tile-cache", "none", "--map-user-agent", "HikeApp/2 (me@example.org)"])
        #expect(try server.stats().user_agents.contains { $0.hasPrefix("HikeApp/2 (me@example.org) swiftprint/") })
    }

    @Test func aTileTheServerSaysToRevalidateIsAskedAgainWithItsETag() throws {
        let server = try TileServer(root: Self.tiles.folder, arguments: ["--cache-control", "no-cache"])
        let dir = try temporaryDirectory()
        let spec = try map(server, x: 3, y: 0, in: dir)
        for name in ["a", "b"] {
            let r = try swiftprint(["convert", spec, "-o", dir + "/\(name).pdf", "--map-tile-cache", dir + "/cache"])
            #expect(r.status == 0, "\(r.stderr)")
            try expectTile(dir + "/\(name).pdf", x: 3, y: 0)
        }
        let stats = try server.stats()
        #expect(stats.conditional == stats.paths.count && stats.not_modified == stats.paths.count, "\(stats)")
    }

    @Test func aServerThatFailsForAMomentIsAskedAgain() throws {
        let server = try TileServer(root: Self.tiles.folder, arguments: ["--fail-first", "1"])
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", try map(server, x: 0, y: 3, in: dir), "-o", dir + "/a.pdf", "--map-tile-cache", "none"])
        #expect(r.status == 0, "\(r.stderr)")
        try expectTile(dir + "/a.pdf", x: 0, y: 3)
        #expect(try server.stats().paths.values.allSatisfy { $0 == 2 })
    }

    @Test func aServerThatRefusesFailsTheJobSayingSo() throws {
        let server = try TileServer(root: Self.tiles.folder, arguments: ["--status", "403"])
        let dir = try temporaryDirectory()
        let r = try swiftprint(["convert", try map(server, x: 0, y: 0, in: dir), "-o", dir + "/a.pdf", "--map-tile-cache", "none"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("HTTP 403") && r.stderr.contains("127.0.0.1"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.pdf"))
        let unreachable = try swiftprint(["convert", try map(server, x: 0, y: 0, in: dir), "-o", dir + "/b.pdf", "--map-tile-cache", "none",
                                          "--map-tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png"])
        #expect(unreachable.status != 0 && unreachable.stderr.contains("cannot get tiles from 127.0.0.1"), "\(unreachable.stderr)")
    }

    /// Local tile sources (a folder, an MBTiles file, the offline basemap) open no socket at all:
    /// every connect(2) of the job is traced.
    @Test(arguments: ["folder", "mbtiles", "basemap"]) func localSourcesMakeNoNetworkCall(kind: String) throws {
        let dir = try temporaryDirectory()
        let tiles = try MapTests.makeTiles(in: dir)
        let input: String
        switch kind {
        case "basemap": input = directory() + "/../../Examples/walk.gpx"
        default:
            input = dir + "/map.json"
            try MapTests.description(tiles: kind == "folder" ? tiles.folder : tiles.mbtiles, x: 1, y: 1)
                .write(toFile: input, atomically: false, encoding: .utf8)
        }
        let trace = dir + "/trace"
        let r = try Tool.run("strace", ["-f", "-qq", "-e", "trace=connect,sendto", "-o", trace, Tool.swiftprint, "convert", input, "-o", dir + "/a.pdf"])
        #expect(r.status == 0, "\(r.stderr)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(!calls.contains("AF_INET"), "network calls: \(calls)")
        #expect(try PDF.pageCount(dir + "/a.pdf") == 1)
    }
}
