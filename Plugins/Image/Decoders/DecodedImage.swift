import Foundation
import HandlerSupport

/// Pixels a decoder made: interleaved samples, rows top to bottom, grey or RGB and maybe alpha,
/// 8 bits a sample or 16 (big-endian, as a PDF stores them), and the ICC profile of their colour.
package struct DecodedPixels {
    package var width: Int
    package var height: Int
    /// 1 (grey) or 3 (RGB).
    package var colorChannels = 3
    /// Whether an alpha sample follows the colour ones.
    package var hasAlpha = true
    /// 8 or 16.
    package var bitsPerComponent = 8
    package var samples: [UInt8]
    package var iccProfile: Data?
    /// Rows left where the decoder made them (libheif's image), read in place instead of
    /// `samples`: a 24 MP photo is not copied once more.
    var borrowed: BorrowedRows?

    /// 8-bit RGBA, what most decoders give.
    package init(width: Int, height: Int, rgba: [UInt8], iccProfile: Data? = nil) {
        self.width = width; self.height = height; samples = rgba; self.iccProfile = iccProfile
    }

    package init(width: Int, height: Int, colorChannels: Int, hasAlpha: Bool, bitsPerComponent: Int, samples: [UInt8], iccProfile: Data?) {
        self.width = width; self.height = height; self.colorChannels = colorChannels; self.hasAlpha = hasAlpha
        self.bitsPerComponent = bitsPerComponent; self.samples = samples; self.iccProfile = iccProfile
    }

    var channels: Int { colorChannels + (hasAlpha ? 1 : 0) }
    var sampleBytes: Int { bitsPerComponent / 8 }
    var rowBytes: Int { width * channels * sampleBytes }

    /// Calls `body` with a function giving each row's first byte, wherever the rows are.
    func withRows<T>(_ body: ((Int) -> UnsafePointer<UInt8>) throws -> T) throws -> T {
        if let borrowed { return try withExtendedLifetime(borrowed) { try body { borrowed.base + $0 * borrowed.stride } } }
        guard samples.count >= height * rowBytes else { throw PrintError(.renderingFailed, "the decoder returned too few pixels") }
        let rowBytes = rowBytes
        return try samples.withUnsafeBufferPointer { p in try body { p.baseAddress! + $0 * rowBytes } }
    }

    /// The same pixels as grey samples, when every pixel is neutral (R = G = B): what a decoder
    /// that gives only RGB (libtiff's RGBA reader, libheif's) makes of a grey image, whose grey
    /// profile fits only grey samples. Nil when some pixel has colour.
    func asGrey() -> DecodedPixels? {
        guard colorChannels == 3 else { return nil }
        let n = sampleBytes, pixel = channels * n
        return try? withRows { row -> DecodedPixels? in
            for y in 0..<height {
                let p = row(y)
                for x in 0..<width {
                    let at = x * pixel
                    for b in 0..<n where p[at + b] != p[at + n + b] || p[at + b] != p[at + 2 * n + b] { return nil }
                }
            }
            let greyPixel = (hasAlpha ? 2 : 1) * n
            var grey = [UInt8](repeating: 0, count: width * height * greyPixel)
            for y in 0..<height {
                let p = row(y)
                for x in 0..<width {
                    let at = x * pixel, to = (y * width + x) * greyPixel
                    for b in 0..<n { grey[to + b] = p[at + b] }
                    if hasAlpha { for b in 0..<n { grey[to + n + b] = p[at + 3 * n + b] } }
                }
            }
            return DecodedPixels(width: width, height: height, colorChannels: 1, hasAlpha: hasAlpha, bitsPerComponent: bitsPerComponent,
                                 samples: grey, iccProfile: iccProfile)
        }
    }
}

/// An image whose format must be decoded (GIF, TIFF, WebP, HEIF, AVIF, JPEG XL, BMP): decoded
/// when the output is written — one image in memory at a time — and stored losslessly (Flate)
/// at its own depth, with its profile, and a soft mask only when some pixel is not opaque.
package final class DecodedImage: PlaceableObject {
    package let width: Int, height: Int
    package let ppi: Double?
    private let decode: () throws -> DecodedPixels

    init(width: Int, height: Int, ppi: Double? = nil, decode: @escaping () throws -> DecodedPixels) {
        self.width = width; self.height = height; self.ppi = ppi; self.decode = decode
    }

    package func addObject(to document: QPDFDocument) throws -> Int64 {
        var image = try decode()
        if image.colorChannels == 3, let icc = image.iccProfile, ICCProfile.matches(icc, components: 1) {
            // A grey profile: the pixels must be grey too, or the profile cannot be kept.
            if let grey = image.asGrey() { image = grey } else { image.iccProfile = nil }
        }
        let channels = image.channels, sampleBytes = image.sampleBytes
        let pixelBytes = channels * sampleBytes
        let opaque = try !image.hasAlpha || image.withRows { row in
            // Every byte of every alpha sample is 0xFF (8-bit 255, 16-bit 65535).
            !(0..<image.height).contains { y in
                let p = row(y)
                return stride(from: image.colorChannels * sampleBytes, to: image.width * pixelBytes, by: pixelBytes).contains { at in
                    (0..<sampleBytes).contains { p[at + $0] != 0xFF }
                }
            }
        }
        var info = ImageObjectInfo(width: image.width, height: image.height, colorModel: image.colorChannels == 1 ? .gray : .rgb,
                                   bitsPerComponent: image.bitsPerComponent)
        if let icc = image.iccProfile, ICCProfile.matches(icc, components: image.colorChannels) { info.iccProfile = icc }
        info.alphaBits = opaque ? nil : image.bitsPerComponent
        // Rows filtered "Up", compressed at zlib's level 3, as raster pages are: a 24 MP photo
        // from JPEG XL is 2.2 times smaller than unfiltered at the default level.
        info.pngPredictor = true
        info.compressionLevel = 3
        let colorBytes = image.colorChannels * sampleBytes
        return try document.addImage(info: info) { sink in
            try image.withRows { rowStart in
                let rowBytes = image.rowBytes
                var color = [UInt8](repeating: 0, count: image.width * colorBytes), above = color
                var filtered = [UInt8](repeating: 0, count: color.count + 1)
                var alpha = [UInt8](repeating: 0, count: image.width * sampleBytes)
                for y in 0..<image.height {
                    let p = rowStart(y)
                    if image.hasAlpha {
                        for x in 0..<image.width {
                            let at = x * pixelBytes
                            for b in 0..<colorBytes { color[x * colorBytes + b] = p[at + b] }
                            for b in 0..<sampleBytes { alpha[x * sampleBytes + b] = p[at + colorBytes + b] }
                        }
                    } else {
                        color.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: p, count: rowBytes) }
                    }
                    PNGRowFilter.up(color, above: above, into: &filtered)
                    try filtered.withUnsafeBytes { try sink.writeColor($0) }
                    if !opaque { try alpha.withUnsafeBytes { try sink.writeAlpha($0) } }
                    swap(&color, &above)
                }
            }
        }
    }
}

/// Rows a decoder's library keeps, `stride` bytes apart, alive as long as `owner` is.
final class BorrowedRows {
    let base: UnsafePointer<UInt8>
    let stride: Int
    let owner: AnyObject

    init(base: UnsafePointer<UInt8>, stride: Int, owner: AnyObject) {
        self.base = base; self.stride = stride; self.owner = owner
    }
}
