import CHeifShim
import Foundation
import HandlerSupport

/// HEIF/HEIC (iPhone photos) through libheif (AVIF goes to libavif: `AVIFFile`): the primary
/// image, turned as its irot/imir boxes say (libheif applies them), at its own depth (10 and 12
/// bits become 16), with alpha, and with its colour: its ICC profile (Display P3 on iPhones), or
/// a profile made from its `nclx` numbers; HDR (PQ, HLG) is tone-mapped for paper.
package enum HEIFDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> DecodedImage {
        let file = try HEIFFile(path: path)
        try limits.check(width: file.width, height: file.height, path: path)
        return DecodedImage(width: file.width, height: file.height) { try HEIFFile(path: path).decode() }
    }
}

/// The one owner of a libheif context and its primary image handle.
package final class HEIFFile {
    private let context: OpaquePointer
    private let handle: OpaquePointer
    package let path: String

    package init(path: String) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard sp_heif_load(&message, message.count) == 0 else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw PrintError(.notAvailable, path: path, "cannot print HEIF images: libheif cannot be loaded (\(text)); install libheif1")
        }
        context = sp_heif_context_alloc()
        let read = sp_heif_context_read_from_file(context, path, nil)
        // A heif_error's message lives in the context: read it before the context is freed.
        guard read.code == heif_error_Ok else {
            let error = Self.error(path, read)
            sp_heif_context_free(context)
            throw error
        }
        var h: OpaquePointer?
        let primary = sp_heif_context_get_primary_image_handle(context, &h)
        guard primary.code == heif_error_Ok, let h else {
            let error = Self.error(path, primary)
            sp_heif_context_free(context)
            throw error
        }
        handle = h
    }

    deinit {
        sp_heif_image_handle_release(handle)
        sp_heif_context_free(context)
    }

    package var width: Int { Int(sp_heif_image_handle_get_width(handle)) }
    package var height: Int { Int(sp_heif_image_handle_get_height(handle)) }

    package func decode() throws -> DecodedPixels {
        let alpha = sp_heif_image_handle_has_alpha_channel(handle) != 0
        let bits = Int(sp_heif_image_handle_get_luma_bits_per_pixel(handle))
        let deep = bits > 8 && bits <= 16
        let chroma = deep ? (alpha ? heif_chroma_interleaved_RRGGBBAA_BE : heif_chroma_interleaved_RRGGBB_BE)
                          : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
        var decoded: OpaquePointer?
        let status = sp_heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, nil)
        guard status.code == heif_error_Ok, let decoded else { throw Self.error(path, status) }
        let image = HEIFImage(decoded)
        var stride: Int32 = 0
        let w = Int(sp_heif_image_get_width(decoded, heif_channel_interleaved)), h = Int(sp_heif_image_get_height(decoded, heif_channel_interleaved))
        guard let plane = sp_heif_image_get_plane_readonly(decoded, heif_channel_interleaved, &stride) else {
            throw PrintError(.invalidInput, path: path, "not a valid HEIF image (no pixels)")
        }
        let channels = alpha ? 4 : 3
        let rowBytes = w * channels * (deep ? 2 : 1)
        // Its ICC profile, else one made from its nclx numbers (for HDR, of the tone-mapped samples).
        let own = rawProfile()
        let encoding = own == nil ? nclx() : nil
        let icc = try own ?? encoding.flatMap { $0.isSRGB ? nil : try $0.iccProfile(channels: 3) }
        if !deep {
            // 8 bits, as libheif made them: read in place.
            var pixels = DecodedPixels(width: w, height: h, colorChannels: 3, hasAlpha: alpha, bitsPerComponent: 8, samples: [], iccProfile: icc)
            pixels.borrowed = BorrowedRows(base: plane, stride: Int(stride), owner: image)
            return pixels
        }
        var samples = [UInt8](repeating: 0, count: rowBytes * h)
        samples.withUnsafeMutableBufferPointer { p in
            for y in 0..<h { (p.baseAddress! + y * rowBytes).update(from: plane + y * Int(stride), count: rowBytes) }
        }
        if let encoding, encoding.transfer.isHDR {
            HDRToneMapping.apply(&samples, channels: channels, colorChannels: 3, bits: bits, transfer: encoding.transfer)
            if alpha { Self.widen(&samples, bits: bits, every: channels, from: 3) }
        } else {
            Self.widen(&samples, bits: bits, every: 1, from: 0)
        }
        return DecodedPixels(width: w, height: h, colorChannels: 3, hasAlpha: alpha, bitsPerComponent: 16, samples: samples, iccProfile: icc)
    }

    /// libheif's deep samples are `bits`-bit values in 16: scaled to the full 16 bits, the
    /// samples at `from`, `from + every` … (all of them, or a pixel's alpha).
    static func widen(_ samples: inout [UInt8], bits: Int, every: Int, from: Int) {
        guard bits < 16 else { return }
        let top = Double((1 << bits) - 1)
        samples.withUnsafeMutableBufferPointer { p in
            var i = from * 2
            while i + 1 < p.count {
                let v = Double(Int(p[i]) << 8 | Int(p[i + 1]))
                let wide = UInt16(min(65535, (v * 65535 / top).rounded()))
                p[i] = UInt8(wide >> 8); p[i + 1] = UInt8(wide & 0xFF)
                i += every * 2
            }
        }
    }

    /// The image's ICC profile, when it has one.
    func rawProfile() -> Data? {
        let size = sp_heif_image_handle_get_raw_color_profile_size(handle)
        guard size > 0 else { return nil }
        var profile = Data(count: size)
        let got = profile.withUnsafeMutableBytes { sp_heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
        return got.code == heif_error_Ok ? profile : nil
    }

    /// Its colour as `nclx` numbers (what AVIF encoders write), when it has them.
    func nclx() -> ColorEncoding? {
        var profile: UnsafeMutablePointer<heif_color_profile_nclx>?
        let status = sp_heif_image_handle_get_nclx_color_profile(handle, &profile)
        // libheif 1.15 may make the profile and still answer an error (numbers it does not know).
        defer { if let profile { sp_heif_nclx_color_profile_free(profile) } }
        guard status.code == heif_error_Ok, let profile else { return nil }
        let n = profile.pointee
        var primaries = [n.color_primary_red_x, n.color_primary_red_y, n.color_primary_green_x, n.color_primary_green_y,
                         n.color_primary_blue_x, n.color_primary_blue_y].map(Double.init)
        var white = [Double(n.color_primary_white_x), Double(n.color_primary_white_y)]
        if primaries.allSatisfy({ $0 <= 0 }) { primaries = ColorEncoding.bt709Primaries }
        if white.allSatisfy({ $0 <= 0 }) { white = ColorEncoding.d65 }
        let transfer = ColorEncoding.transfer(h273: Int(n.transfer_characteristics.rawValue)) ?? .sRGB
        return ColorEncoding(primaries: primaries, white: white, transfer: transfer)
    }

    static func error(_ path: String, _ e: heif_error) -> PrintError {
        let text = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
        return PrintError(.invalidInput, path: path, "not a valid HEIF image (\(text))")
    }
}

/// The one owner of an image libheif decoded: its pixels live as long as it does.
final class HEIFImage {
    let image: OpaquePointer
    init(_ image: OpaquePointer) { self.image = image }
    deinit { sp_heif_image_release(image) }
}
