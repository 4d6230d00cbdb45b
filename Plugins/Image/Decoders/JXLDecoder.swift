import CJxlShim
import Foundation
import HandlerSupport

/// The one owner of a libjxl decoder reading one JPEG XL file: its header, checked against the
/// limits before any pixel is decoded, then its frames in order (an animation's as shown), each
/// at its own depth with its colour — the file's ICC profile, or one made from its colour
/// encoding; HDR (PQ, HLG) tone-mapped for paper.
package final class JXLFile: FrameSequence {
    package let path: String
    package let width: Int, height: Int
    package let isAnimated: Bool
    /// The file, at the address libjxl was given, for as long as the decoder reads it.
    private let input: PinnedInput
    private let decoder: OpaquePointer
    private let info: sp_jxl_info

    package init(path: String, limits: ImageLimits) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard sp_jxl_load(&message, message.count) == 0 else {
            throw PrintError(.notAvailable, path: path, "cannot print JPEG XL images: libjxl cannot be loaded (\(shimMessage(message))); install libjxl0.7")
        }
        input = try PinnedInput(path: path)
        var info = sp_jxl_info()
        let opened = sp_jxl_open(input.start, input.count, &info, &message, message.count)
        guard let opened else { throw PrintError(.invalidInput, path: path, "not a valid JPEG XL image (\(shimMessage(message)))") }
        decoder = opened
        self.info = info
        width = Int(info.width); height = Int(info.height); isAnimated = info.animated != 0
        try limits.check(width: width, height: height, path: path)
    }

    deinit { sp_jxl_close(decoder) }

    package func nextFrame() throws -> DecodedPixels? {
        guard let frame = try ShimFrame.next({ sp_jxl_next_frame(decoder, &$0, &$1, &$2, &$3, &$4, $5, $6) }, path: path, format: "JPEG XL")
        else { return nil }
        // libjxl wrote the file's own samples; HDR ones are made fit for paper, then described
        // with sRGB's curve over the same primaries.
        return try frame.decoded(width: width, height: height, colorChannels: Int(info.color_channels), hasAlpha: info.alpha != 0,
                                 profile: frame.iccProfile, hdr: encoding)
    }

    /// The colour encoding the file states, when it states one as numbers.
    var encoding: ColorEncoding? {
        guard info.has_encoding != 0 else { return nil }
        let transfer: ColorEncoding.Transfer = switch info.transfer {
        case 65535: .gamma(info.gamma > 0 ? 1 / info.gamma : 2.2)
        default: ColorEncoding.transfer(h273: Int(info.transfer)) ?? .sRGB
        }
        let p = info.primaries, w = info.white
        return ColorEncoding(primaries: [p.0, p.1, p.2, p.3, p.4, p.5], white: [w.0, w.1], transfer: transfer)
    }
}
