import Foundation

/// How logical pages are placed on physical sheets. Kept apart from pagination from the start:
/// n-up, booklets and duplex padding change this, not the paginator.
struct Imposition {
    /// Logical pages per sheet side.
    var pagesPerSheet = 1

    /// The sheet for pages of `pageSize`.
    func sheetSize(for pageSize: CGSize) -> CGSize { pageSize }

    /// Moves the context so that page slot `slot` of the sheet is drawn in page coordinates.
    func place(slot: Int, pageSize: CGSize, on context: GraphicsContext) {}
}

/// Fills sheets with logical pages as they come, in order.
final class SheetAssembler {
    private let writer: SheetWriter
    private let imposition: Imposition
    private var context: GraphicsContext?
    private var slot = 0

    init(writer: SheetWriter, imposition: Imposition) {
        self.writer = writer
        self.imposition = imposition
    }

    /// Draws one logical page of `pageSize` into its place on the current sheet.
    func addPage(size pageSize: CGSize, draw: (GraphicsContext) throws -> Void) throws {
        let ctx = context ?? writer.beginSheet(size: imposition.sheetSize(for: pageSize))
        context = ctx
        try ctx.withSavedState {
            imposition.place(slot: slot, pageSize: pageSize, on: ctx)
            try draw(ctx)
        }
        slot += 1
        if slot == imposition.pagesPerSheet { try endSheet() }
    }

    /// Closes a sheet that is only partly filled.
    func finish() throws { if context != nil { try endSheet() } }

    private func endSheet() throws {
        try writer.endSheet()
        context = nil
        slot = 0
    }
}
