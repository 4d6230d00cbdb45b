import CHeifShim
import Foundation
import HandlerSupport

/// HEIF/HEIC (iPhone photos) through libheif: the primary image, turned as its irot/imir boxes
/// say (libheif applies them), with its ICC profile (Display P3 on iPhones).
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

    package func decode() throws -> RGBAImage {
        var image: OpaquePointer?
        let status = sp_heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil)
        guard status.code == heif_error_Ok, let image else { throw Self.error(path, status) }
        defer { sp_heif_image_release(image) }
        var stride: Int32 = 0
        let w = Int(sp_heif_image_get_width(image, heif_channel_interleaved)), h = Int(sp_heif_image_get_height(image, heif_channel_interleaved))
        guard let plane = sp_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw PrintError(.invalidInput, path: path, "not a valid HEIF image (no pixels)")
        }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            pixels.withUnsafeMutableBufferPointer { p in
                (p.baseAddress! + y * w * 4).update(from: plane + y * Int(stride), count: w * 4)
            }
        }
        var icc: Data?
        let size = sp_heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0 {
            var profile = Data(count: size)
            let got = profile.withUnsafeMutableBytes { sp_heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            if got.code == heif_error_Ok { icc = profile }
        }
        return RGBAImage(width: w, height: h, pixels: pixels, iccProfile: icc)
    }

    static func error(_ path: String, _ e: heif_error) -> PrintError {
        let text = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
        return PrintError(.invalidInput, path: path, "not a valid HEIF image (\(text))")
    }
}
