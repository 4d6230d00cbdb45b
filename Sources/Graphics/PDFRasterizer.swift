import CCairo
import CPopplerGlibShim
import Foundation
import PrintModel

/// A PDF opened by poppler-glib to be drawn as pixels (raster output, previews) or read as text
/// (where a printed HTML element landed). poppler-glib is
/// opened on first use (CPopplerGlibShim says why). The one owner of its PopplerDocument.
package final class PDFRasterizer {
    private let document: UnsafeMutableRawPointer
    package let pageCount: Int

    package init(path: String) throws {
        var loadError: UnsafePointer<CChar>?
        guard sppoppler_load(&loadError) == 0 else {
            throw PrintError(.notAvailable, loadError.map { String(cString: $0) } ?? "cannot load poppler-glib")
        }
        let uri = URL(fileURLWithPath: path).absoluteString
        var error: UnsafeMutablePointer<CChar>?
        guard let document = FontEngineLock.held({ sppoppler_open(uri, &error) }) else {
            let reason = error.map { String(cString: $0) } ?? "unreadable"
            free(error)
            throw PrintError(.invalidInput, path: path, "poppler cannot read the PDF: \(reason)")
        }
        self.document = document
        pageCount = Int(sppoppler_page_count(document))
    }

    deinit { FontEngineLock.held { sppoppler_close(document) } }

    /// Page `index`'s size in points, as a viewer shows it.
    package func pageSize(_ index: Int) -> CGSize {
        var width = 0.0, height = 0.0
        _ = sppoppler_page_size(document, Int32(index), &width, &height)
        return CGSize(width: width, height: height)
    }

    /// Page `index`'s text as poppler extracts it.
    package func pageText(_ index: Int) -> String {
        guard let text = FontEngineLock.held({ sppoppler_page_text(document, Int32(index)) }) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Page `index`'s text as poppler extracts it, and for each of its characters (Unicode
    /// scalars, in order) its box, in points from the page's top-left corner.
    package func pageTextLayout(_ index: Int) -> (text: String, boxes: [CGRect]) {
        var text: UnsafeMutablePointer<CChar>?, boxes: UnsafeMutablePointer<Double>?, count: UInt32 = 0
        _ = FontEngineLock.held { sppoppler_page_text_layout(document, Int32(index), &text, &boxes, &count) }
        defer { free(text); free(boxes) }
        let string = text.map { String(cString: $0) } ?? ""
        guard let boxes else { return (string, []) }
        return (string, (0..<Int(count)).map { i in
            CGRect(x: boxes[4 * i], y: boxes[4 * i + 1], width: boxes[4 * i + 2] - boxes[4 * i], height: boxes[4 * i + 3] - boxes[4 * i + 1])
        })
    }

    /// Whether page `index` draws an image: drawing such a page in bands would decode its images
    /// once a band.
    package func pageHasImages(_ index: Int) -> Bool { sppoppler_page_has_images(document, Int32(index)) != 0 }

    /// Draws page `index` onto `canvas` (white first), `resolution` dots per inch, mirrored
    /// across and/or along when asked (the back of a two-sided sheet, as the printer wants it);
    /// with `band`, the rows of a page `pageHeight` rows high from row `top` on (the canvas
    /// holds a band: the same pixels as the whole page has there). Without `antialias`, edges
    /// and glyphs are whole dots, as a printer prints them.
    package func render(page index: Int, onto canvas: RasterCanvas, resolution: (x: Int, y: Int),
                        mirrorAcross: Bool = false, mirrorAlong: Bool = false, band: (top: Int, pageHeight: Int)? = nil,
                        antialias: Bool = true) throws {
        let cr = canvas.context
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        let height = band?.pageHeight ?? canvas.height
        if let band { cairo_translate(cr, 0, -Double(band.top)) }
        if mirrorAcross { cairo_translate(cr, Double(canvas.width), 0); cairo_scale(cr, -1, 1) }
        if mirrorAlong { cairo_translate(cr, 0, Double(height)); cairo_scale(cr, 1, -1) }
        cairo_scale(cr, Double(resolution.x) / 72, Double(resolution.y) / 72)
        if !antialias {
            cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE)
            RasterCanvas.setFontOptions(cr, antialias: false)
        }
        guard FontEngineLock.held({ sppoppler_render(document, Int32(index), UnsafeMutableRawPointer(cr)) }) != 0 else {
            throw PrintError(.renderingFailed, "poppler has no page \(index + 1)")
        }
        cairo_surface_flush(canvas.surface)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintError(.renderingFailed, "cannot draw page \(index + 1): \(String(cString: cairo_status_to_string(status)))")
        }
    }
}

/// A cairo image surface pages are drawn on: 8 bits each of red, green and blue per pixel. The
/// one owner of its surface and context.
package final class RasterCanvas {
    package let width: Int
    package let height: Int
    fileprivate let surface: OpaquePointer
    fileprivate let context: OpaquePointer

    package init(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw PrintError(.invalidOption, "a sheet of \(width) × \(height) pixels is more than cairo draws (32767 each way)")
        }
        self.width = width; self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw PrintError(.renderingFailed, "cannot make a sheet of \(width) × \(height) pixels (out of memory)")
        }
        context = cairo_create(surface)
        Self.setFontOptions(context, antialias: true)
    }

    /// Glyphs where the PDF puts them: hinted metrics would round each advance to whole
    /// pixels, and a line of text would drift from its place by its end. (Font options are set
    /// whole: whole-dot drawing sets these again with its antialiasing off.)
    static func setFontOptions(_ cr: OpaquePointer, antialias: Bool) {
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        if !antialias { cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_NONE) }
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The canvas as a PNG file's bytes (cairo's encoder, libpng).
    package func pngData() throws -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, { context, bytes, length in
            guard let context, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintError(.renderingFailed, "cannot encode the PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.data
    }

    /// Row `y`'s pixels: 4 bytes each, blue, green, red and one unused on a little-endian machine
    /// (cairo's native-endian 0x00RRGGBB).
    package func withRow<T>(_ y: Int, _ body: (UnsafePointer<UInt32>) throws -> T) rethrows -> T {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        return try body(UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self))
    }
}
