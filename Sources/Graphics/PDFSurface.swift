import CCairo
import Foundation
import PrintModel

/// A PDF that cairo writes as it is drawn, each finished page streamed out through `write`
/// (cairo keeps only fonts and the page index until the end): the one owner of cairo's PDF
/// surface, so that the writers above draw through `GraphicsContext` and never call cairo.
package final class PDFSurface {
    private let surface: OpaquePointer
    private let sink: Unmanaged<Sink>
    private var finished = false

    /// Where cairo's bytes go; `write` says whether they went.
    private final class Sink {
        let write: (UnsafeRawBufferPointer) -> Bool
        init(_ write: @escaping (UnsafeRawBufferPointer) -> Bool) { self.write = write }
    }

    /// A PDF 1.5 with `metadata`'s title and creator, and its date (a fixed one when none is
    /// asked for, so that the output is reproducible: cairo would stamp the current time).
    package init(metadata: DocumentMetadata, write: @escaping (UnsafeRawBufferPointer) -> Bool) throws {
        sink = Unmanaged.passRetained(Sink(write))
        surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            return sink.write(UnsafeRawBufferPointer(start: data, count: Int(length))) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, sink.toOpaque(), 612, 792)
        try check("cannot start the PDF")
        cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_5)
        if let title = metadata.title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, metadata.creator)
        let date = DocumentMetadata.iso8601(metadata.stampedDate)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }

    deinit {
        FontEngineLock.held {
            if !finished { cairo_surface_finish(surface) }
            cairo_surface_destroy(surface)
        }
        sink.release()
    }

    /// The size of the pages from now on, in points.
    package func setPageSize(_ size: CGSize) { cairo_pdf_surface_set_size(surface, size.width, size.height) }

    /// A context that draws on this PDF's pages.
    package func makeContext(fonts: FontSystem) -> GraphicsContext { GraphicsContext(surface: surface, fonts: fonts) }

    /// Ends the page `context` drew.
    package func showPage(_ context: GraphicsContext) { FontEngineLock.held { cairo_show_page(context.raw) } }

    /// Adds a bookmark under `parent` (0: the top) going to `page` (from 1) at `y` points from
    /// its top; returns its id, for bookmarks under it.
    package func addOutline(_ title: String, parent: Int32, page: Int, y: Double) -> Int32 {
        let link = "page=\(page) pos=[0 \(String(format: "%.2f", y))]"
        return cairo_pdf_surface_add_outline(surface, parent, title, link, CAIRO_PDF_OUTLINE_FLAG_OPEN)
    }

    /// Writes the rest of the PDF (fonts, the page index).
    package func finish() {
        FontEngineLock.held { cairo_surface_finish(surface) }
        finished = true
    }

    /// Throws, saying `what` failed and cairo's reason, when the surface or `context` has failed.
    package func check(_ what: String, context: GraphicsContext? = nil) throws {
        if let context, cairo_status(context.raw) != CAIRO_STATUS_SUCCESS {
            let s = cairo_status(context.raw)
            throw PrintError(.renderingFailed, "\(what): \(String(cString: cairo_status_to_string(s)))", status: Int32(s.rawValue))
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintError(.renderingFailed, "\(what): \(String(cString: cairo_status_to_string(status)))", status: Int32(status.rawValue))
        }
    }
}

extension GraphicsContext {
    /// Paints the whole page white: opaque paper for `turnGrey` to blend with.
    package func paintPaper() {
        cairo_set_source_rgb(raw, 1, 1, 1)
        cairo_paint(raw)
    }

    /// Turns everything drawn on the page grey: a neutral fill in the Saturation blend mode keeps
    /// each point's luminosity and takes its colour away, text, drawings and images alike.
    package func turnGrey() {
        cairo_save(raw)
        cairo_set_operator(raw, CAIRO_OPERATOR_HSL_SATURATION)
        cairo_set_source_rgb(raw, 0.5, 0.5, 0.5)
        cairo_paint(raw)
        cairo_restore(raw)
    }
}
