import CCairo
import Foundation
import PrintGraphics
import PrintModel
import PrintSupport

/// Where the paginator's sheets go: a PDF written by cairo alone, or one assembled from cairo's
/// drawing and placed objects.
package protocol SheetWriter: AnyObject {
    /// Starts a sheet of `size` points and returns the context to draw it with.
    func beginSheet(size: CGSize) -> GraphicsContext
    func endSheet() throws
    /// Ends the PDF and makes the output final.
    func finish() throws
    var sheetsWritten: Int { get }
    /// Says that the logical page drawn next (counting from 0) begins a new document, for a
    /// writer that puts pages onto sides (each document starts on a front).
    func documentStarts(atPage index: Int)
}

extension SheetWriter {
    package func documentStarts(atPage index: Int) {}
}

/// Writes sheets into a PDF with cairo, streaming each finished page out to an `OutputFile`
/// (cairo keeps only fonts and the page index until the end).
package final class PDFWriter: SheetWriter {
    private let surface: OpaquePointer
    private let output: OutputFile
    private let box: Unmanaged<OutputFile>
    package let fonts: FontSystem
    package private(set) var sheetsWritten = 0
    private var context: GraphicsContext?
    private var finished = false

    /// Every sheet printed in shades of grey.
    private let grayscale: Bool

    package init(output: OutputFile, metadata: DocumentMetadata, fonts: FontSystem, grayscale: Bool = false) throws {
        self.output = output
        self.grayscale = grayscale
        self.fonts = fonts
        box = Unmanaged.passRetained(output)
        surface = cairo_pdf_surface_create_for_stream({ closure, data, length in
            let out = Unmanaged<OutputFile>.fromOpaque(closure!).takeUnretainedValue()
            out.write(UnsafeRawBufferPointer(start: data, count: Int(length)))
            return out.error == nil ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR
        }, box.toOpaque(), 612, 792)
        try check("cannot start the PDF")
        cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_5)
        if let title = metadata.title { cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, metadata.creator)
        // cairo 1.16 stamps the current time unless a date is set; with no date asked for, a
        // fixed one keeps the output reproducible.
        let date = DocumentMetadata.iso8601(metadata.stampedDate)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
    }

    deinit {
        if !finished { cairo_surface_finish(surface) }
        context = nil
        cairo_surface_destroy(surface)
        box.release()
    }

    package func beginSheet(size: CGSize) -> GraphicsContext {
        cairo_pdf_surface_set_size(surface, size.width, size.height)
        let ctx = context ?? GraphicsContext(surface: surface, fonts: fonts)
        context = ctx
        ctx.sheetHeight = size.height
        if grayscale {
            // Opaque paper to blend with (see endSheet).
            cairo_set_source_rgb(ctx.raw, 1, 1, 1)
            cairo_paint(ctx.raw)
        }
        ctx.saveState()
        ctx.marked = false
        return ctx
    }

    package func endSheet() throws {
        guard let ctx = context else { return }
        ctx.restoreState()
        if grayscale {
            // A neutral fill in the Saturation blend mode keeps each point's luminosity and takes
            // its colour away: text, drawings and images alike come out grey.
            cairo_save(ctx.raw)
            cairo_set_operator(ctx.raw, CAIRO_OPERATOR_HSL_SATURATION)
            cairo_set_source_rgb(ctx.raw, 0.5, 0.5, 0.5)
            cairo_paint(ctx.raw)
            cairo_restore(ctx.raw)
        }
        cairo_show_page(ctx.raw)
        sheetsWritten += 1
        try check("cannot draw the page")
    }

    /// Ends a sheet nothing was drawn on without making a page of it (the assembler's scratch
    /// output needs pages only for sheets that have drawing).
    package func discardSheet() {
        context?.restoreState()
    }

    package func finish() throws {
        context = nil
        cairo_surface_finish(surface)
        finished = true
        if let e = output.error { throw e }
        try check("cannot finish the PDF")
        try output.commit()
    }

    private func check(_ what: String) throws {
        if let e = output.error { throw e }
        let status = cairo_surface_status(surface)
        if let ctx = context, cairo_status(ctx.raw) != CAIRO_STATUS_SUCCESS {
            let s = cairo_status(ctx.raw)
            throw PrintError(.renderingFailed, "\(what): \(String(cString: cairo_status_to_string(s)))", status: Int32(s.rawValue))
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintError(.renderingFailed, "\(what): \(String(cString: cairo_status_to_string(status)))", status: Int32(status.rawValue))
        }
    }

    /// `2026-11-22T10:00:00Z`. Written by hand: ISO8601DateFormatter loads ICU's calendar and
    /// time-zone data (~1 ms at start-up) for this one fixed format.
}
