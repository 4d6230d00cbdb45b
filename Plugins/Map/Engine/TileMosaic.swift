import PixbufDecoding
import Foundation
import HandlerSupport

/// What to do where a tile is missing (declared with the map options).
public typealias MissingTilePolicy = MapSettings.MissingTiles

/// The tiles under a map, put together on one integer pixel grid at one zoom: one image, which
/// the PDF scales to the map's rect, so tiles are resampled once and never meet at a seam.
final class TileMosaic: PlaceableObject {
    let zoom: Int
    /// The mosaic's top-left corner in world pixels at `zoom`.
    let origin: (x: Int, y: Int)
    let width: Int, height: Int
    private(set) var missing: [TileID] = []
    private var pixels: [UInt8]

    /// How many tiles lie under world pixels [x0, x0 + width) × [y0, y0 + height) at `zoom`.
    static func tileCount(zoom: Int, x0: Int, y0: Int, width: Int, height: Int) -> Int {
        guard width > 0, height > 0 else { return 0 }
        let columns = Int(floor(Double(x0) / 256))...Int(floor(Double(x0 + width - 1) / 256))
        let top = max(0, Int(floor(Double(y0) / 256))), bottom = min((1 << zoom) - 1, Int(floor(Double(y0 + height - 1) / 256)))
        return columns.count * max(0, bottom - top + 1)
    }

    /// Fetches and decodes every tile under world pixels [x0, x0 + width) × [y0, y0 + height) at
    /// `zoom` from `source`. Columns wrap around the antimeridian; rows beyond ±85.05° are white.
    init(source: TileSource, zoom: Int, x0: Int, y0: Int, width: Int, height: Int, missingTiles: MissingTilePolicy,
         tileLimit: Int, sourcePath: String) throws {
        self.zoom = zoom
        origin = (x0, y0)
        self.width = width
        self.height = height
        let tiles = 1 << zoom
        let columns = Int(floor(Double(x0) / 256))...Int(floor(Double(x0 + width - 1) / 256))
        // A window wholly past the world's top or bottom edge (a poster's sheet beyond a pole)
        // has no rows: a range whose ends crossed stopped the job.
        let firstRow = max(0, Int(floor(Double(y0) / 256))), lastRow = min(tiles - 1, Int(floor(Double(y0 + height - 1) / 256)))
        let rows = firstRow..<max(firstRow, lastRow + 1)
        let count = Self.tileCount(zoom: zoom, x0: x0, y0: y0, width: width, height: height)
        guard count <= tileLimit else {
            throw JobLimits.crossed(LimitOptions.maxTiles, path: nil,
                                    "the map needs \(count) tiles at zoom \(zoom), more than the limit of \(tileLimit)")
        }
        pixels = [UInt8](repeating: 255, count: width * height * 3)
        // Tiles wholly outside the source's bounds are white, not asked for and not "missing".
        let bounds = source.info.bounds
        func inBounds(_ id: TileID) -> Bool {
            guard let b = bounds, b.west < b.east, b.south < b.north else { return true }
            let nw = WebMercator.coordinate(atWorldPoint: CGPoint(x: Double(id.x) * 256 / Double(tiles), y: Double(id.y) * 256 / Double(tiles)))
            let se = WebMercator.coordinate(atWorldPoint: CGPoint(x: Double(id.x + 1) * 256 / Double(tiles), y: Double(id.y + 1) * 256 / Double(tiles)))
            return nw.longitude < b.east && se.longitude > b.west && se.latitude < b.north && nw.latitude > b.south
        }
        let ids = rows.flatMap { row in columns.map { TileID(z: zoom, x: (($0 % tiles) + tiles) % tiles, y: row) } }
        try source.prefetch(ids.filter(inBounds))
        for row in rows {
            for column in columns {
                let id = TileID(z: zoom, x: ((column % tiles) + tiles) % tiles, y: row)
                guard inBounds(id) else { continue }
                let decoded = try source.tile(id).flatMap { try Self.decode($0, id: id, path: sourcePath) }
                let left = column * 256 - x0, top = row * 256 - y0
                if let decoded {
                    blit(decoded, left: left, top: top)
                } else {
                    missing.append(id)
                    switch missingTiles {
                    case .fail: throw PrintError(.invalidInput, path: sourcePath, "tile \(id) is missing")
                    case .blank: break
                    case .placeholder: hatch(left: left, top: top)
                    }
                }
            }
        }
    }

    /// A decoded tile: 8-bit RGB(A) rows.
    struct DecodedTile { let width: Int, height: Int, channels: Int, stride: Int, bytes: [UInt8] }

    /// PNG and JPEG only, checked by their signatures before a decoder sees the bytes.
    static func decode(_ data: Data, id: TileID, path: String) throws -> DecodedTile {
        let type: String
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { type = "png" }
        else if data.starts(with: [0xFF, 0xD8, 0xFF]) { type = "jpeg" }
        else { throw PrintError(.invalidInput, path: path, "tile \(id) is neither PNG nor JPEG") }
        let pixbuf: Pixbuf
        do { pixbuf = try Pixbuf(data: data, type: type) } catch {
            if error.noDecoder { throw PrintError(.notAvailable, path: path, "no \(type) decoder: \(error.message)") }
            throw PrintError(.invalidInput, path: path, "tile \(id) cannot be decoded: \(error.message)")
        }
        let w = pixbuf.width, h = pixbuf.height, channels = pixbuf.channels, stride = pixbuf.rowStride
        guard pixbuf.bitsPerSample == 8, channels >= 3 else {
            throw PrintError(.invalidInput, path: path, "tile \(id) is not an 8-bit RGB image")
        }
        return DecodedTile(width: w, height: h, channels: channels, stride: stride, bytes: pixbuf.bytes)
    }

    /// Copies a tile in at (left, top), scaled to 256 pixels if it is another size (512-pixel
    /// "retina" tiles), transparent pixels over white. Works on raw buffers: checked array
    /// access per pixel cost a third of a 300 dpi A4 map's time.
    private func blit(_ t: DecodedTile, left: Int, top: Int) {
        let width = width, height = height
        let xs = max(0, -left)..<min(256, width - left)
        guard !xs.isEmpty else { return }
        pixels.withUnsafeMutableBufferPointer { dst in
            t.bytes.withUnsafeBufferPointer { src in
                for ty in max(0, -top)..<min(256, height - top) {
                    let sy = ty * t.height / 256
                    let row = sy * t.stride, d0 = ((top + ty) * width + left) * 3
                    if t.channels == 3, t.width == 256 {
                        // The common case: a row of RGB copied as it is.
                        (dst.baseAddress! + d0 + xs.lowerBound * 3)
                            .update(from: src.baseAddress! + row + xs.lowerBound * 3, count: xs.count * 3)
                        continue
                    }
                    for tx in xs {
                        let s = row + (tx * t.width / 256) * t.channels, d = d0 + tx * 3
                        if t.channels == 4 {
                            let a = Int(src[s + 3])
                            for c in 0..<3 { dst[d + c] = UInt8((Int(src[s + c]) * a + 255 * (255 - a)) / 255) }
                        } else {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                        }
                    }
                }
            }
        }
    }

    /// A missing tile: light grey with diagonal hatching.
    private func hatch(left: Int, top: Int) {
        let width = width, height = height
        pixels.withUnsafeMutableBufferPointer { dst in
            for ty in max(0, -top)..<max(max(0, -top), min(256, height - top)) {
                for tx in max(0, -left)..<max(max(0, -left), min(256, width - left)) {
                    let v: UInt8 = (tx + ty) % 16 < 2 ? 150 : 225
                    let d = ((top + ty) * width + left + tx) * 3
                    dst[d] = v; dst[d + 1] = v; dst[d + 2] = v
                }
            }
        }
    }

    func addObject(to document: QPDFDocument) throws -> Int64 {
        var info = ImageObjectInfo(width: width, height: height, colorModel: .rgb)
        info.interpolate = true
        // zlib level 3: on a 300 dpi A4 map (38 MB of samples) the default level 6 took 0.37 s
        // for 0.81 MB, level 3 0.15 s for 1.07 MB, level 1 0.14 s for 1.34 MB.
        info.compressionLevel = 3
        return try document.addImage(info: info) { sink in
            try pixels.withUnsafeBytes { all in
                for y in 0..<height {
                    try sink.writeColor(UnsafeRawBufferPointer(rebasing: all[(y * width * 3)..<((y + 1) * width * 3)]))
                }
            }
        }
    }
}
