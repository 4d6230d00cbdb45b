import CGdkPixbuf
import CHeifShim
import CTIFFShim
import CWebP
import Foundation
import HandlerSupport

/// TIFF through libtiff: every page becomes a page, alpha kept.
package enum TIFFDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> [DecodedImage] {
        let reader = try TIFFReader(path: path)
        var pages: [DecodedImage] = []
        for page in 0..<reader.pageCount {
            let info = try reader.info(page: page)
            try limits.check(width: info.width, height: info.height, path: path)
            pages.append(DecodedImage(width: info.width, height: info.height, ppi: info.ppi) {
                let reader = try TIFFReader(path: path)
                let info = try reader.info(page: page)
                var pixels = [UInt8](repeating: 0, count: info.width * info.height * 4)
                try reader.readRGBA(page: page, into: &pixels)
                return RGBAImage(width: info.width, height: info.height, pixels: pixels, iccProfile: info.icc)
            })
        }
        guard !pages.isEmpty else { throw PrintError(.invalidInput, path: path, "the TIFF has no pages") }
        return pages
    }
}

/// The one owner of a libtiff reader.
package final class TIFFReader {
    private let handle: OpaquePointer
    package let path: String

    package init(path: String) throws {
        self.path = path
        var message = [CChar](repeating: 0, count: 256)
        guard let h = sp_tiff_open(path, &message, message.count) else { throw Self.error(path, message) }
        handle = h
    }

    deinit { sp_tiff_close(handle) }

    package var pageCount: Int { Int(sp_tiff_page_count(handle)) }

    package func info(page: Int) throws -> (width: Int, height: Int, ppi: Double?, icc: Data?) {
        var w: UInt32 = 0, h: UInt32 = 0, ppi = 0.0, iccLength: UInt32 = 0
        var icc: UnsafePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        guard sp_tiff_page_info(handle, Int32(page), &w, &h, &ppi, &icc, &iccLength, &message, message.count) == 0 else {
            throw Self.error(path, message)
        }
        return (Int(w), Int(h), ppi > 0 ? ppi : nil, icc.map { Data(bytes: $0, count: Int(iccLength)) })
    }

    package func readRGBA(page: Int, into pixels: inout [UInt8]) throws {
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeMutableBufferPointer { sp_tiff_read_rgba(handle, Int32(page), $0.baseAddress, &message, message.count) }
        if status != 0 { throw Self.error(path, message) }
    }

    static func error(_ path: String, _ message: [CChar]) -> PrintError {
        let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return PrintError(.invalidInput, path: path, "not a valid TIFF (\(text))")
    }
}

/// WebP through libwebp.
package enum WebPDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> DecodedImage {
        let data = try readFile(path)
        var w: Int32 = 0, h: Int32 = 0
        let ok = data.withUnsafeBytes { WebPGetInfo($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &w, &h) }
        guard ok != 0 else { throw PrintError(.invalidInput, path: path, "not a valid WebP image") }
        try limits.check(width: Int(w), height: Int(h), path: path)
        return DecodedImage(width: Int(w), height: Int(h)) {
            let data = try readFile(path)
            var w: Int32 = 0, h: Int32 = 0
            guard let rgba = data.withUnsafeBytes({ WebPDecodeRGBA($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &w, &h) }) else {
                throw PrintError(.invalidInput, path: path, "not a valid WebP image (it cannot be decoded)")
            }
            defer { WebPFree(rgba) }
            return RGBAImage(width: Int(w), height: Int(h), pixels: Array(UnsafeBufferPointer(start: rgba, count: Int(w) * Int(h) * 4)))
        }
    }
}

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
        guard read.code == heif_error_Ok else {
            sp_heif_context_free(context)
            throw Self.error(path, read)
        }
        var h: OpaquePointer?
        let primary = sp_heif_context_get_primary_image_handle(context, &h)
        guard primary.code == heif_error_Ok, let h else {
            sp_heif_context_free(context)
            throw Self.error(path, primary)
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

/// BMP through gdk-pixbuf (no smaller Debian library reads it).
package enum BMPDecoder {
    package static func open(path: String, limits: ImageLimits) throws -> DecodedImage {
        var w: Int32 = 0, h: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &w, &h) != nil else {
            throw PrintError(.invalidInput, path: path, "not a valid BMP image")
        }
        try limits.check(width: Int(w), height: Int(h), path: path)
        return DecodedImage(width: Int(w), height: Int(h)) {
            var error: UnsafeMutablePointer<GError>?
            guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else {
                let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
                if let error { g_error_free(error) }
                throw PrintError(.invalidInput, path: path, "not a valid BMP image (\(text))")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
            let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
            let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
            let source = gdk_pixbuf_read_pixels(pixbuf)!
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<channels { pixels[(y * width + x) * 4 + c] = source[y * stride + x * channels + c] }
                }
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        }
    }
}
