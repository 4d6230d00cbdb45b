import Foundation
import GRDB
import HandlerSupport

/// A tile's address in the XYZ scheme (y grows south), as tile servers number them.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var z: Int, x: Int, y: Int
    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }
    public var description: String { "\(z)/\(x)/\(y)" }
}

/// What a tile set says about itself.
public struct TileSetInfo: Sendable {
    /// The zoom levels tiles are numbered at: 0 (the world in one tile) to 30, the deepest any
    /// tile scheme uses (2^30 tiles across). A level outside them, from a file's metadata, a
    /// folder's name or a map description, is not a zoom.
    public static let zoomLevels = 0...30

    public var name: String?
    public var minZoom = 0
    public var maxZoom = 19
    /// Where it has tiles, if it says.
    public var bounds: GeoBox?
    /// Its attribution, as plain text (HTML tags removed).
    public var attribution: String?
    /// `png`, `jpg`, `webp`, `pbf` …
    public var format: String?
}

/// Where map tiles come from. Local sources never touch the network.
public protocol TileSource: AnyObject {
    var info: TileSetInfo { get }
    /// The tile's bytes, or nil when the source has no such tile.
    func tile(_ id: TileID) throws -> Data?
    /// Gets ready to serve `ids` soon: a network source fetches them all at once.
    func prefetch(_ ids: [TileID]) throws
}

extension TileSource {
    public func prefetch(_ ids: [TileID]) throws {}
}

/// An MBTiles 1.3 file: SQLite, with rows numbered in the TMS scheme (y grows north), so XYZ
/// 11/327/791 is tile_row 2^11 − 1 − 791 = 1256.
public final class MBTilesSource: TileSource {
    public let info: TileSetInfo
    private let database: DatabaseQueue
    private let path: String

    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            let rows = try database.read { db in
                try Row.fetchAll(db, sql: "SELECT name, value FROM metadata")
            }
            var metadata: [String: String] = [:]
            // Each cell as the text it holds or shows (a number written as one, a blob as UTF-8):
            // a typed read of a cell holding something else stops the program (GRDB traps).
            for row in rows {
                if let name = Self.text(row[0] as DatabaseValue), let value = Self.text(row[1] as DatabaseValue) { metadata[name] = value }
            }
            info = Self.info(from: metadata)
        } catch let error as DatabaseError {
            throw PrintError(.invalidInput, path: path, "not a readable MBTiles file: \(error.message ?? "\(error.resultCode)")")
        }
        if info.format == "pbf" {
            throw PrintError(.unknownFormat, path: path,
                             "vector tiles (format pbf) are not supported: give a raster tile set (png or jpg)")
        }
    }

    public func tile(_ id: TileID) throws -> Data? {
        let row = (1 << id.z) - 1 - id.y
        do {
            return try database.read { db in
                try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                                  arguments: [id.z, id.x, row])
            }
        } catch let error as DatabaseError {
            throw PrintError(.invalidInput, path: path, "cannot read tile \(id): \(error.message ?? "\(error.resultCode)")")
        }
    }

    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .int64(let n): String(n)
        case .double(let x): String(x)
        case .string(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// What MBTiles metadata (or a tile folder's metadata.json) says, where it makes sense: a
    /// zoom range within `TileSetInfo.zoomLevels` with its minimum at most its maximum, bounds
    /// that are a box on the earth. Anything else is left out, as if the file did not say it.
    static func info(from metadata: [String: String]) -> TileSetInfo {
        var info = TileSetInfo()
        info.name = metadata["name"]
        let zoom = { (key: String) in metadata[key].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap { TileSetInfo.zoomLevels.contains($0) ? $0 : nil } }
        switch (zoom("minzoom"), zoom("maxzoom")) {
        case let (lo?, hi?) where lo <= hi: info.minZoom = lo; info.maxZoom = hi
        case let (lo?, nil) where lo <= info.maxZoom: info.minZoom = lo
        case let (nil, hi?): info.maxZoom = hi
        default: break
        }
        if let b = metadata["bounds"]?.split(separator: ",").compactMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), b.count == 4 {
            let box = GeoBox(west: b[0], south: b[1], east: b[2], north: b[3])
            if box.isOnTheEarth { info.bounds = box }
        }
        info.attribution = metadata["attribution"].map(plainText(fromHTML:))
        info.format = metadata["format"]?.lowercased()
        return info
    }
}

/// A folder of tiles laid out `{z}/{x}/{y}.png` (or .jpg, .jpeg, .webp), XYZ numbering; an
/// optional `metadata.json` beside them says what MBTiles metadata would.
public final class TileFolderSource: TileSource {
    public let info: TileSetInfo
    private let root: String
    private static let extensions = ["png", "jpg", "jpeg", "webp"]

    public init(path: String) throws {
        root = path
        var metadata: [String: String] = [:]
        if let data = FileBytes.read(path + "/metadata.json"),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            for (k, v) in object { metadata[k] = "\(v)" }
        }
        var info = MBTilesSource.info(from: metadata)
        if metadata["maxzoom"] == nil {
            let zooms = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).compactMap(Int.init).filter(TileSetInfo.zoomLevels.contains)
            guard let lo = zooms.min(), let hi = zooms.max() else {
                throw PrintError(.invalidInput, path: path, "no tiles: expected folders named by zoom level ({z}/{x}/{y}.png)")
            }
            info.minZoom = lo; info.maxZoom = hi
        }
        self.info = info
    }

    public func tile(_ id: TileID) throws -> Data? {
        for ext in Self.extensions {
            if let data = FileBytes.read("\(root)/\(id.z)/\(id.x)/\(id.y).\(ext)") { return data }
        }
        return nil
    }
}

/// `html` without its tags and with the common entities decoded: attributions often come as
/// links (`<a href="…">© OpenStreetMap</a>`).
func plainText(fromHTML html: String) -> String {
    var text = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
    for (entity, character) in [("&copy;", "©"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " ")] {
        text = text.replacingOccurrences(of: entity, with: character)
    }
    return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
}
