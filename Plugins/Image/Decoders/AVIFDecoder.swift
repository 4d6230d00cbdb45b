import CAvifShim
import Foundation
import HandlerSupport

/// The one owner of a libavif decoder reading one AVIF file: a still image (its primary item),
/// or a sequence (an animated AVIF: its frames are a track, which libheif 1.15 does not read).
/// The first frame's size is checked against the limits before any pixel is decoded, then the
/// frames come in order, upright, at their own depth (10 and 12 bits become 16), with alpha, and
/// with the file's ICC profile or one made from its nclx numbers; HDR (PQ, HLG) tone-mapped for
/// paper. Each frame's pixels are the shim's one buffer, read where it made them.
package final class AVIFFile: FrameSequence {
    package let path: String
    package let width: Int, height: Int
    package let isAnimated: Bool
    /// The file, at the address libavif was given, for as long as the decoder reads it.
    private let input: PinnedInput
    private let decoder: OpaquePointer
    private let info: sp_avif_info

    /// `sequence`: the file names the sequence brand (`avis`), so its track is read.
    package init(path: String, sequence: Bool, limits: ImageLimits) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard sp_avif_load(&message, message.count) == 0 else {
            throw PrintError(.notAvailable, path: path, "cannot print AVIF images: libavif cannot be loaded (\(shimMessage(message))); install libavif15")
        }
        input = try PinnedInput(path: path)
        var info = sp_avif_info()
        let maxPixels = UInt32(clamping: limits.maxPixels), maxFrames = UInt32(clamping: limits.maxImages)
        let opened = sp_avif_open(input.start, input.count, sequence ? 1 : 0, maxPixels, maxFrames, &info, &message, message.count)
        guard let opened else { throw PrintError(.invalidInput, path: path, "not a valid AVIF image (\(shimMessage(message)))") }
        decoder = opened
        self.info = info
        width = Int(info.width); height = Int(info.height); isAnimated = info.frames > 1
        try limits.check(width: width, height: height, path: path)
    }

    deinit { sp_avif_close(decoder) }

    package func nextFrame() throws -> DecodedPixels? {
        guard let frame = try ShimFrame.next({ sp_avif_next_frame(decoder, &$0, &$1, &$2, &$3, &$4, $5, $6) }, path: path, format: "AVIF")
        else { return nil }
        let colorChannels = Int(info.color_channels)
        // Its ICC profile, else one made from its nclx numbers (sRGB's needs none).
        let p = info.primaries, w = info.white
        let encoding = frame.iccProfile != nil ? nil : ColorEncoding(primaries: [p.0, p.1, p.2, p.3, p.4, p.5], white: [w.0, w.1],
                                                                     transfer: ColorEncoding.transfer(h273: Int(info.transfer)) ?? .sRGB)
        let profile = try frame.iccProfile ?? encoding.flatMap { $0.isSRGB ? nil : try $0.iccProfile(channels: colorChannels) }
        return try frame.decoded(width: width, height: height, colorChannels: colorChannels, hasAlpha: info.alpha != 0, profile: profile, hdr: encoding)
    }
}
