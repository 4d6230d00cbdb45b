import CCairo
import Foundation

/// What the PDF says about itself. Dates are written only when given, so the same input and
/// options give the same bytes; `fromEnvironment` honours SOURCE_DATE_EPOCH.
public struct DocumentMetadata: Hashable, Sendable {
    public var title: String?
    public var creator: String = "swiftprint"
    public var creationDate: Date?

    public init(title: String? = nil, creationDate: Date? = nil) {
        self.title = title; self.creationDate = creationDate
    }

    /// Metadata with the creation date from SOURCE_DATE_EPOCH, when it is set.
    public static func fromEnvironment(title: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> DocumentMetadata {
        let epoch = environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init)
        return DocumentMetadata(title: title, creationDate: epoch.map(Date.init(timeIntervalSince1970:)))
    }

    /// The date written into the file: the creation date, or a fixed one (the epoch) so that the
    /// same input and options give the same bytes.
    var stampedDate: Date { creationDate ?? Date(timeIntervalSince1970: 0) }

    /// `date` in UTC: year, month, day, hour, minute, second. Formatted by hand: Foundation's
    /// date formatters load ICU data, a millisecond of start-up for two strings.
    static func utcFields(_ date: Date) -> [Int] {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var t = tm()
        gmtime_r(&seconds, &t)
        return [Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday), Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec)]
    }

    /// ISO 8601 (`2026-11-22T10:00:00Z`), as cairo's metadata takes it.
    static func iso8601(_ date: Date) -> String {
        let f = utcFields(date), d = f.map(twoDigits)
        return "\(fourDigits(f[0]))-\(d[1])-\(d[2])T\(d[3]):\(d[4]):\(d[5])Z"
    }

    /// A PDF date (`D:20261122100000Z`), as the document information dictionary takes it.
    static func pdfDate(_ date: Date) -> String {
        let f = utcFields(date)
        return "D:" + fourDigits(f[0]) + f.dropFirst().map(twoDigits).joined() + "Z"
    }

    private static func twoDigits(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    private static func fourDigits(_ v: Int) -> String { String(repeating: "0", count: max(0, 4 - String(v).count)) + String(v) }
}

/// Where the paginator's sheets go: a PDF written by cairo alone, or one assembled from cairo's
/// drawing and placed objects.
package protocol SheetWriter: AnyObject {
    /// Starts a sheet of `size` points and returns the context to draw it with.
    func beginSheet(size: CGSize) -> GraphicsContext
    func endSheet() throws
    /// Ends the PDF and makes the output final.
    func finish() throws
    var sheetsWritten: Int { get }
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
