import CPNGShim
import Foundation
import HandlerSupport

/// A PNG decoded by libpng and stored losslessly (Flate), row by row so that a large image
/// never sits in memory uncompressed. 16-bit samples stay 16-bit; an alpha channel becomes a
/// soft mask, so the image prints over white paper as it looks over white on screen.
final class PNGImage: PlaceableObject {
    let path: String
    let width: Int, height: Int
    let ppi: Double?

    init(path: String, limits: ImageLimits) throws {
        self.path = path
        let reader = try PNGReader(path: path)
        width = Int(reader.info.width)
        height = Int(reader.info.height)
        let ppm = Double(reader.info.pixelsPerMetreX)
        ppi = ppm > 0 ? ppm * 0.0254 : nil
        try limits.check(width: width, height: height, path: path)
    }

    func addObject(to document: QPDFDocument) throws -> Int64 {
        let reader = try PNGReader(path: path)
        let info = reader.info
        let channels = Int(info.channels), depth = Int(info.bitDepth)
        let hasAlpha = channels == 2 || channels == 4
        let colorChannels = hasAlpha ? channels - 1 : channels
        var object = ImageObjectInfo(width: width, height: height, colorModel: colorChannels == 1 ? .gray : .rgb,
                                     bitsPerComponent: depth)
        if let icc = info.icc, info.iccLength > 0 {
            let profile = Data(bytes: icc, count: info.iccLength)
            if ICCProfile.matches(profile, components: colorChannels) { object.iccProfile = profile }
        }
        object.alphaBits = hasAlpha ? depth : nil
        let rowBytes = reader.rowBytes
        let sampleBytes = depth / 8
        return try document.addImage(info: object) { sink in
            var color = [UInt8](repeating: 0, count: width * colorChannels * sampleBytes)
            var alpha = [UInt8](repeating: 0, count: hasAlpha ? width * sampleBytes : 0)
            func emit(_ row: UnsafeBufferPointer<UInt8>) throws {
                guard hasAlpha else { try sink.writeColor(UnsafeRawBufferPointer(row)); return }
                // Split interleaved colour+alpha into the image and its soft mask.
                let pixel = channels * sampleBytes, colorPart = colorChannels * sampleBytes
                for x in 0..<width {
                    let p = x * pixel
                    for b in 0..<colorPart { color[x * colorPart + b] = row[p + b] }
                    for b in 0..<sampleBytes { alpha[x * sampleBytes + b] = row[p + colorPart + b] }
                }
                try color.withUnsafeBytes { try sink.writeColor($0) }
                try alpha.withUnsafeBytes { try sink.writeAlpha($0) }
            }
            if info.interlaced != 0 {
                // Interlaced rows arrive in passes: the whole image is needed at once.
                var image = [UInt8](repeating: 0, count: rowBytes * height)
                try image.withUnsafeMutableBufferPointer { try reader.readImage(into: $0.baseAddress!) }
                try image.withUnsafeBufferPointer { all in
                    for y in 0..<height { try emit(UnsafeBufferPointer(rebasing: all[(y * rowBytes)..<((y + 1) * rowBytes)])) }
                }
            } else {
                var row = [UInt8](repeating: 0, count: rowBytes)
                for _ in 0..<height {
                    try row.withUnsafeMutableBufferPointer { try reader.readRow(into: $0.baseAddress!) }
                    try row.withUnsafeBufferPointer { try emit($0) }
                }
            }
            try reader.finish()
        }
    }
}

/// The one owner of a libpng reader.
final class PNGReader {
    private let handle: OpaquePointer
    let path: String
    var info = SPPNGInfo()

    init(path: String) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard let h = sp_png_open(path, &info, &message, message.count) else {
            throw Self.error(path, message)
        }
        handle = h
    }

    deinit { sp_png_close(handle) }

    var rowBytes: Int { sp_png_row_bytes(handle) }

    func readRow(into row: UnsafeMutablePointer<UInt8>) throws {
        var message = [CChar](repeating: 0, count: 256)
        if sp_png_read_row(handle, row, &message, message.count) != 0 { throw Self.error(path, message) }
    }

    func readImage(into buffer: UnsafeMutablePointer<UInt8>) throws {
        var message = [CChar](repeating: 0, count: 256)
        if sp_png_read_image(handle, buffer, &message, message.count) != 0 { throw Self.error(path, message) }
    }

    func finish() throws {
        var message = [CChar](repeating: 0, count: 256)
        if sp_png_finish(handle, &message, message.count) != 0 { throw Self.error(path, message) }
    }

    static func error(_ path: String, _ message: [CChar]) -> PrintError {
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if text == "cannot open the file" { return PrintError.system(.inputUnreadable, path: path, text, errno: errno) }
        return PrintError(.invalidInput, path: path, "not a valid PNG (\(text))")
    }
}
