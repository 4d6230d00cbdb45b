import CGdkPixbuf
import Foundation
import PrintModel

/// An image decoded by gdk-pixbuf: the one owner of a `GdkPixbuf` (and of the library), used by
/// the BMP decoder and the map engine's tiles. A module of its own, linked only by those two
/// (both in helper programs), so that no other job loads gdk-pixbuf and its loaders.
package final class Pixbuf {
    private let pointer: OpaquePointer

    package var width: Int { Int(gdk_pixbuf_get_width(pointer)) }
    package var height: Int { Int(gdk_pixbuf_get_height(pointer)) }
    package var channels: Int { Int(gdk_pixbuf_get_n_channels(pointer)) }
    package var rowStride: Int { Int(gdk_pixbuf_get_rowstride(pointer)) }
    package var bitsPerSample: Int { Int(gdk_pixbuf_get_bits_per_sample(pointer)) }

    /// The file at `path`, decoded; throws gdk-pixbuf's reason.
    package init(file path: String) throws(PixbufError) {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file(path, &error) else { throw PixbufError(taking: error) }
        pointer = pixbuf
    }

    /// `data`, an image of `type` (`png`, `jpeg`), decoded; throws gdk-pixbuf's reason.
    package init(data: Data, type: String) throws(PixbufError) {
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(type, &error) else {
            throw PixbufError(taking: error, noDecoder: true)
        }
        defer { g_object_unref(loader) }
        let written = data.withUnsafeBytes { b in
            gdk_pixbuf_loader_write(loader, b.bindMemory(to: UInt8.self).baseAddress, gsize(b.count), &error)
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError)
        if error == nil { error = closeError } else { g_clear_error(&closeError) }
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { throw PixbufError(taking: error) }
        // The loader lets go of its image when it goes: keep it.
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        pointer = pixbuf
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The size a file's header states, without decoding it; nil when gdk-pixbuf cannot read it.
    package static func size(ofFile path: String) -> (width: Int, height: Int)? {
        var w: Int32 = 0, h: Int32 = 0
        guard gdk_pixbuf_get_file_info(path, &w, &h) != nil else { return nil }
        return (Int(w), Int(h))
    }

    /// The rows' bytes (`rowStride` apart; the last row may be short of a whole stride).
    package var bytes: [UInt8] {
        let length = rowStride * (height - 1) + width * ((channels * bitsPerSample + 7) / 8)
        return Array(UnsafeBufferPointer(start: gdk_pixbuf_read_pixels(pointer), count: length))
    }
}

/// Why gdk-pixbuf could not decode an image, in its words.
package struct PixbufError: Error {
    package let message: String
    /// No decoder for the type is installed (a missing loader), not a damaged image.
    package let noDecoder: Bool

    init(taking error: UnsafeMutablePointer<GError>?, noDecoder: Bool = false) {
        message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        if let error { g_error_free(error) }
        self.noDecoder = noDecoder
    }
}
