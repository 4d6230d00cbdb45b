import Foundation
import PrintGraphics
import PrintModel

/// Turns a canvas row (cairo's 0x00RRGGBB pixels) into a raster type's samples: grey as luma
/// (Rec. 601 weights), black as its inverse, 16-bit samples from cairo's 8 bits (v × 257) in
/// this machine's byte order, and 1-bit types dithered by error diffusion (Floyd and Steinberg),
/// most significant bit first, so that grey and the edges of text keep their tone; Adobe RGB as
/// drawn (its pages are drawn in Adobe RGB), and CMYK by Little CMS's transform.
struct RasterRowEncoder {
    let type: RasterType
    let width: Int
    let transform: ColorTransform?
    /// Error diffused into this row and the next (1-bit types), with a pixel of room each side.
    private var errors: [Int32]
    private var nextErrors: [Int32]
    /// The last row given to the transform, and what it made of it: a row the same as the one
    /// before (a page's margins, the space between lines of text) is not converted again.
    private var transformedInput: [UInt32] = []
    private var transformedOutput: [UInt8] = []

    init(type: RasterType, width: Int, transform: ColorTransform?) {
        self.type = type
        self.width = width
        self.transform = transform
        errors = [Int32](repeating: 0, count: type.bitsPerColor == 1 ? width + 2 : 0)
        nextErrors = errors
    }

    @inline(__always) private static func luma(_ p: UInt32) -> Int32 {
        let r = Int32((p >> 16) & 0xFF), g = Int32((p >> 8) & 0xFF), b = Int32(p & 0xFF)
        return (r * 19595 + g * 38470 + b * 7471 + 32768) >> 16
    }

    mutating func encode(_ pixels: UnsafePointer<UInt32>, into out: UnsafeMutableRawBufferPointer) {
        switch type {
        case .srgb8, .adobeRGB8:
            for x in 0..<width {
                let p = pixels[x]
                out[3 * x] = UInt8(truncatingIfNeeded: p >> 16); out[3 * x + 1] = UInt8(truncatingIfNeeded: p >> 8)
                out[3 * x + 2] = UInt8(truncatingIfNeeded: p)
            }
        case .srgb16, .adobeRGB16:
            let o = out.baseAddress!.assumingMemoryBound(to: UInt16.self)
            for x in 0..<width {
                let p = pixels[x]
                o[3 * x] = UInt16((p >> 16) & 0xFF) * 257; o[3 * x + 1] = UInt16((p >> 8) & 0xFF) * 257; o[3 * x + 2] = UInt16(p & 0xFF) * 257
            }
        case .sgray8, .black8:
            let ink = type == .black8
            for x in 0..<width { let l = Self.luma(pixels[x]); out[x] = UInt8(ink ? 255 - l : l) }
        case .sgray16, .black16:
            let ink = type == .black16, o = out.baseAddress!.assumingMemoryBound(to: UInt16.self)
            for x in 0..<width { let l = Self.luma(pixels[x]); o[x] = UInt16(ink ? 255 - l : l) * 257 }
        case .sgray1, .black1:
            dither(pixels, into: out, bitMeansWhite: type == .sgray1)
        case .cmyk8, .cmyk16:
            transformRow(pixels, into: out)
        }
    }

    private mutating func transformRow(_ pixels: UnsafePointer<UInt32>, into out: UnsafeMutableRawBufferPointer) {
        let input = UnsafeBufferPointer(start: pixels, count: width)
        if transformedInput.count == width, transformedInput.withUnsafeBytes({ memcmp($0.baseAddress!, pixels, $0.count) == 0 }) {
            transformedOutput.withUnsafeBytes { out.copyMemory(from: $0) }
            return
        }
        transform!.apply(pixels, count: width, into: out.baseAddress!)
        transformedInput.removeAll(keepingCapacity: true)
        transformedInput.append(contentsOf: input)
        transformedOutput.removeAll(keepingCapacity: true)
        transformedOutput.append(contentsOf: UnsafeRawBufferPointer(out))
    }

    /// One row of error diffusion: each pixel goes black or white by its tone plus the error
    /// left by its neighbours, and passes its own error on (7/16 right, 3/16, 5/16 and 1/16 to
    /// the row below).
    private mutating func dither(_ pixels: UnsafePointer<UInt32>, into out: UnsafeMutableRawBufferPointer, bitMeansWhite: Bool) {
        for i in 0..<out.count { out[i] = 0 }
        for i in nextErrors.indices { nextErrors[i] = 0 }
        for x in 0..<width {
            let value = Self.luma(pixels[x]) + errors[x + 1] / 16
            let white = value >= 128
            let error = value - (white ? 255 : 0)
            errors[x + 2] += error * 7
            nextErrors[x] += error * 3
            nextErrors[x + 1] += error * 5
            nextErrors[x + 2] += error
            if white == bitMeansWhite { out[x >> 3] |= 0x80 >> UInt8(x & 7) }
        }
        swap(&errors, &nextErrors)
    }
}
