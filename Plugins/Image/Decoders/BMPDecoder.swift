import CGdkPixbuf
import Foundation
import HandlerSupport

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
