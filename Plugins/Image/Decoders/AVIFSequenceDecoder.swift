import CAvifShim
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

/// The one owner of a libavif decoder reading one AVIF sequence (an animated AVIF: its frames
/// are a track, which libheif 1.15 does not read): the first frame's size checked against the
/// limits before any pixel is decoded, then its frames in order, upright, at their own depth (10
/// and 12 bits become 16), with alpha, and with the file's ICC profile or one made from its nclx
/// numbers; HDR (PQ, HLG) tone-mapped for paper, as the still AVIFs libheif reads are.
package final class AVIFSequence: FrameSequence {
    package let path: String
    package let width: Int, height: Int
    package let isAnimated: Bool
    /// The file, at the address libavif was given, for as long as the decoder reads it.
    private let input: PinnedInput
    private let decoder: OpaquePointer
    private let info: sp_avif_info

    package init(path: String, limits: ImageLimits) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard sp_avif_load(&message, message.count) == 0 else {
            throw PrintError(.notAvailable, path: path, "cannot print animated AVIF images: libavif cannot be loaded (\(Self.text(message))); install libavif15")
        }
        input = try PinnedInput(path: path)
        var info = sp_avif_info()
        let maxPixels = UInt32(clamping: limits.maxPixels), maxFrames = UInt32(clamping: limits.maxImages)
        let opened = sp_avif_open(input.start, input.count, maxPixels, maxFrames, &info, &message, message.count)
        guard let opened else { throw PrintError(.invalidInput, path: path, "not a valid AVIF image (\(Self.text(message)))") }
        decoder = opened
        self.info = info
        width = Int(info.width); height = Int(info.height); isAnimated = info.frames > 1
        try limits.check(width: width, height: height, path: path)
    }

    deinit { sp_avif_close(decoder) }

    package func nextFrame() throws -> DecodedPixels? {
        var message = [CChar](repeating: 0, count: 256)
        var pixels: UnsafeMutablePointer<UInt8>?, icc: UnsafeMutablePointer<UInt8>?
        var size = 0, iccSize = 0
        var bits: Int32 = 8
        let status = sp_avif_next_frame(decoder, &pixels, &size, &bits, &icc, &iccSize, &message, message.count)
        defer { free(pixels); free(icc) }
        guard status >= 0 else { throw PrintError(.invalidInput, path: path, "not a valid AVIF image (\(Self.text(message)))") }
        guard status == 1, let pixels else { return nil }
        let colorChannels = Int(info.color_channels), hasAlpha = info.alpha != 0
        var samples = Array(UnsafeBufferPointer(start: pixels, count: size))
        var profile = icc.map { Data(bytes: $0, count: iccSize) }
        if profile == nil {
            let p = info.primaries, w = info.white
            let encoding = ColorEncoding(primaries: [p.0, p.1, p.2, p.3, p.4, p.5], white: [w.0, w.1],
                                         transfer: ColorEncoding.transfer(h273: Int(info.transfer)) ?? .sRGB)
            if encoding.transfer.isHDR {
                // The shim gives PQ and HLG frames 16-bit samples, over the whole 16-bit range.
                HDRToneMapping.apply(&samples, channels: colorChannels + (hasAlpha ? 1 : 0), colorChannels: colorChannels,
                                     bits: 16, transfer: encoding.transfer)
            }
            profile = encoding.isSRGB ? nil : try encoding.iccProfile(channels: colorChannels)
        }
        return DecodedPixels(width: width, height: height, colorChannels: colorChannels, hasAlpha: hasAlpha, bitsPerComponent: Int(bits),
                             samples: samples, iccProfile: profile)
    }

    static func text(_ message: [CChar]) -> String {
        message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
