import Foundation
import HandlerSupport

/// An image file whose frames are decoded one after another (an animated JPEG XL or AVIF).
package protocol FrameSequence {
    var path: String { get }
    /// Whether it has more than one frame to show.
    var isAnimated: Bool { get }
    /// The next frame's pixels, or nil after the last.
    func nextFrame() throws -> DecodedPixels?
}

/// One frame as a decoder's shim hands it over (`sp_jxl_next_frame`, `sp_avif_next_frame`):
/// interleaved samples it malloc'd, owned from here on and freed with this, their bits, and the
/// ICC profile it gave.
final class ShimFrame {
    let pixels: UnsafeMutablePointer<UInt8>
    let size: Int
    let bits: Int
    let iccProfile: Data?

    /// A shim's next-frame call: samples, their size and bits, the ICC profile and its size, and
    /// a message buffer; 1 for a frame, 0 after the last, -1 with a message.
    typealias Call = (inout UnsafeMutablePointer<UInt8>?, inout Int, inout Int32, inout UnsafeMutablePointer<UInt8>?, inout Int,
                      UnsafeMutablePointer<CChar>, Int) -> Int32

    private init(pixels: UnsafeMutablePointer<UInt8>, size: Int, bits: Int, iccProfile: Data?) {
        self.pixels = pixels; self.size = size; self.bits = bits; self.iccProfile = iccProfile
    }

    deinit { free(pixels) }

    /// The frame `call` gives, or nil after the last; its failure is "not a valid `format` image".
    static func next(_ call: Call, path: String, format: String) throws -> ShimFrame? {
        var message = [CChar](repeating: 0, count: 256)
        var pixels: UnsafeMutablePointer<UInt8>?, icc: UnsafeMutablePointer<UInt8>?
        var size = 0, iccSize = 0
        var bits: Int32 = 8
        let status = message.withUnsafeMutableBufferPointer { call(&pixels, &size, &bits, &icc, &iccSize, $0.baseAddress!, $0.count) }
        defer { free(icc) }
        guard status >= 0 else {
            free(pixels)
            throw PrintError(.invalidInput, path: path, "not a valid \(format) image (\(shimMessage(message)))")
        }
        guard status == 1, let pixels else { return nil }
        return ShimFrame(pixels: pixels, size: size, bits: Int(bits), iccProfile: icc.map { Data(bytes: $0, count: iccSize) })
    }

    /// The frame as decoded pixels with `profile`: read where the shim wrote them, so that a 24 MP
    /// photo is not copied once more; or, when `hdr` is a PQ or HLG encoding, tone-mapped for
    /// paper into a copy (the shims give such frames 16-bit samples over the full range) and
    /// described by its profile.
    func decoded(width: Int, height: Int, colorChannels: Int, hasAlpha: Bool, profile: Data?, hdr: ColorEncoding?) throws -> DecodedPixels {
        var result = DecodedPixels(width: width, height: height, colorChannels: colorChannels, hasAlpha: hasAlpha,
                                   bitsPerComponent: bits, samples: [], iccProfile: profile)
        if let hdr, hdr.transfer.isHDR {
            result.samples = Array(UnsafeBufferPointer(start: pixels, count: size))
            HDRToneMapping.apply(&result.samples, channels: result.channels, colorChannels: colorChannels, bits: 16, transfer: hdr.transfer)
            result.iccProfile = try hdr.iccProfile(channels: colorChannels)
        } else {
            result.borrowed = BorrowedRows(base: UnsafePointer(pixels), stride: result.rowBytes, owner: self)
        }
        return result
    }
}

/// The text a shim wrote into a message buffer.
func shimMessage(_ message: [CChar]) -> String {
    message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}
