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

/// Writes sheets into a PDF with cairo (`PDFSurface`), streaming each finished page out to an
/// `OutputFile` (cairo keeps only fonts and the page index until the end).
package final class PDFWriter: SheetWriter {
    private let surface: PDFSurface
    private let output: OutputFile
    package let fonts: FontSystem
    package private(set) var sheetsWritten = 0
    private var context: GraphicsContext?
    /// The open bookmarks, a level each, for the next one's parent.
    private var outlinePath: [(level: Int, id: Int32)] = []

    /// Every sheet printed in shades of grey.
    private let grayscale: Bool

    package init(output: OutputFile, metadata: DocumentMetadata, fonts: FontSystem, grayscale: Bool = false) throws {
        self.output = output
        self.grayscale = grayscale
        self.fonts = fonts
        do {
            surface = try PDFSurface(metadata: metadata) { bytes in
                output.write(bytes)
                return output.error == nil
            }
        } catch {
            // The output's own failure says more than cairo's write error.
            throw output.error ?? error
        }
    }

    deinit { context = nil }

    package func beginSheet(size: CGSize) -> GraphicsContext {
        surface.setPageSize(size)
        let ctx = context ?? surface.makeContext(fonts: fonts)
        context = ctx
        ctx.sheetHeight = size.height
        ctx.outline = []
        ctx.links = []
        ctx.destinations = []
        // Opaque paper to blend with (see endSheet).
        if grayscale { ctx.paintPaper() }
        ctx.saveState()
        ctx.marked = false
        return ctx
    }

    package func endSheet() throws {
        guard let ctx = context else { return }
        ctx.restoreState()
        if grayscale { ctx.turnGrey() }
        for entry in ctx.outline ?? [] {
            while let last = outlinePath.last, last.level >= entry.level { outlinePath.removeLast() }
            let id = surface.addOutline(entry.title, parent: outlinePath.last?.id ?? 0, page: sheetsWritten + 1,
                                        y: ctx.sheetHeight - entry.top)
            outlinePath.append((entry.level, id))
        }
        ctx.outline = nil
        ctx.writeLinkTags()
        ctx.links = nil
        ctx.destinations = nil
        surface.showPage(ctx)
        sheetsWritten += 1
        try check("cannot draw the page")
    }

    /// Ends a sheet nothing was drawn on without making a page of it (the assembler's scratch
    /// output needs pages only for sheets that have drawing).
    package func discardSheet() {
        context?.outline = nil
        context?.links = nil
        context?.destinations = nil
        context?.restoreState()
    }

    package func finish() throws {
        context = nil
        surface.finish()
        if let e = output.error { throw e }
        try check("cannot finish the PDF")
        try output.commit()
    }

    private func check(_ what: String) throws {
        if let e = output.error { throw e }
        try surface.check(what, context: context)
    }
}
