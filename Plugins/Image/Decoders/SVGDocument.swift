import CCairo
import CRsvg
import Foundation
import HandlerSupport

/// An SVG drawn as vectors through librsvg into the page's cairo context: text and shapes stay
/// sharp at any size. librsvg resolves references only to files beside the SVG (or below),
/// never the network.
package final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>
    package let path: String
    /// Its intrinsic size in points (CSS pixels are 3/4 of a point); a default when it has none.
    package let naturalSize: CGSize

    package init(path: String) throws {
        self.path = path
        var error: UnsafeMutablePointer<GError>?
        guard let h = rsvg_handle_new_from_file(path, &error) else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw PrintError(.invalidInput, path: path, "not a valid SVG image (\(text))")
        }
        handle = h
        rsvg_handle_set_dpi(handle, 96)
        var w = 0.0, h2 = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h2) != 0, w > 0, h2 > 0 {
            naturalSize = CGSize(width: w * 0.75, height: h2 * 0.75)
        } else {
            naturalSize = CGSize(width: 400, height: 300)  // no width/height: fit decides anyway
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the SVG into `rect` of `context`.
    package func draw(in context: GraphicsContext, rect: CGRect) throws {
        var viewport = RsvgRectangle(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
        var error: UnsafeMutablePointer<GError>?
        if rsvg_handle_render_document(handle, context.cairo, &viewport, &error) == 0 {
            let text = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw PrintError(.renderingFailed, path: path, "cannot draw the SVG (\(text))")
        }
    }
}
