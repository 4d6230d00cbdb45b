import Foundation
import HandlerSupport

/// Pixels a decoder made: 8-bit RGBA, rows top to bottom.
package struct RGBAImage {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]
    package var iccProfile: Data?
}

/// An image whose format must be decoded (GIF, TIFF, WebP, HEIF, BMP): decoded when the output
/// is written — one image in memory at a time — and stored losslessly (Flate), with a soft mask
/// only when some pixel is not opaque.
package final class DecodedImage: PlaceableObject {
    package let width: Int, height: Int
    package let ppi: Double?
    private let decode: () throws -> RGBAImage

    init(width: Int, height: Int, ppi: Double? = nil, decode: @escaping () throws -> RGBAImage) {
        self.width = width; self.height = height; self.ppi = ppi; self.decode = decode
    }

    package func addObject(to document: QPDFDocument) throws -> Int64 {
        let image = try decode()
        let count = image.width * image.height
        guard image.pixels.count >= count * 4 else { throw PrintError(.renderingFailed, "the decoder returned too few pixels") }
        let opaque = image.pixels.withUnsafeBufferPointer { p in !stride(from: 3, to: count * 4, by: 4).contains { p[$0] != 255 } }
        var info = ImageObjectInfo(width: image.width, height: image.height, colorModel: .rgb)
        if let icc = image.iccProfile, ICCProfile.matches(icc, components: 3) { info.iccProfile = icc }
        info.alphaBits = opaque ? nil : 8
        return try document.addImage(info: info) { sink in
            var rgb = [UInt8](repeating: 0, count: image.width * 3)
            var alpha = [UInt8](repeating: 0, count: image.width)
            try image.pixels.withUnsafeBufferPointer { p in
                for y in 0..<image.height {
                    let row = y * image.width * 4
                    for x in 0..<image.width {
                        rgb[x * 3] = p[row + x * 4]; rgb[x * 3 + 1] = p[row + x * 4 + 1]; rgb[x * 3 + 2] = p[row + x * 4 + 2]
                        alpha[x] = p[row + x * 4 + 3]
                    }
                    try rgb.withUnsafeBytes { try sink.writeColor($0) }
                    if !opaque { try alpha.withUnsafeBytes { try sink.writeAlpha($0) } }
                }
            }
        }
    }
}
