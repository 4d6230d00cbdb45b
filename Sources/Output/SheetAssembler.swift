import Foundation
import PrintGraphics
import PrintModel

/// Fills sheets with logical pages as they come, in order.
package final class SheetAssembler {
    private let writer: SheetWriter
    let imposition: Imposition
    private var context: GraphicsContext?
    /// The next free cell on the current sheet.
    package private(set) var slot = 0

    package init(writer: SheetWriter, imposition: Imposition) {
        self.writer = writer
        self.imposition = imposition
    }

    /// Draws one logical page into `cell` of a sheet of `sheetSize` (the whole sheet for one page
    /// per sheet), with the page's top-left at the cell's.
    package func addPage(sheetSize: CGSize, cell: CGRect? = nil, draw: (GraphicsContext) throws -> Void) throws {
        let ctx = context ?? writer.beginSheet(size: sheetSize)
        context = ctx
        try ctx.withSavedState {
            if let cell { ctx.translateBy(x: cell.minX, y: cell.minY) }
            try draw(ctx)
        }
        slot += 1
        if slot == imposition.pagesPerSheet { try endSheet() }
    }

    /// Closes a sheet that is only partly filled.
    package func finish() throws { if context != nil { try endSheet() } }

    private func endSheet() throws {
        try writer.endSheet()
        context = nil
        slot = 0
    }
}
