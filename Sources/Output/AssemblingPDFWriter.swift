import Foundation
import PDFObjects
import PrintGraphics
import PrintModel
import PrintSupport

/// Writes sheets by assembling PDF objects: what is drawn goes through cairo into a scratch PDF;
/// placed content (pages of input PDFs, images stored as they came) is referenced, never redrawn.
/// At the end each sheet becomes a page of the output that shows its placed objects with cairo's
/// drawing of the sheet on top (sheets nothing was drawn on have no page in the scratch PDF), or — when a sheet is exactly one input page, unchanged — a copy
/// of that page with everything it had. Copies and repeated content share one object.
package final class AssemblingPDFWriter: SheetWriter {
    private struct Sheet {
        var size: CGSize
        var placements: [Placement]
        /// The sheet's page in the scratch PDF of cairo's drawing; nil when nothing was drawn.
        var drawnPage: Int?
        /// Its outline entries, links and destinations, in PDF space.
        var outline: [(title: String, level: Int, top: Double)] = []
        var links: [(box: CGRect, target: GraphicsContext.LinkTarget)] = []
        var destinations: [(name: String, top: Double)] = []
    }

    private let output: OutputFile
    private let scratch: OutputFile
    private let drawn: PDFWriter
    private let metadata: DocumentMetadata
    private var sheets: [Sheet] = []
    private var current: GraphicsContext?
    private var currentSize = CGSize.zero
    private var drawnPages = 0

    /// Every sheet printed in shades of grey.
    private let grayscale: Bool
    /// The rendering intent every sheet is drawn in where its content names none (nil: the
    /// reader's choice).
    private let intent: RenderingIntent?
    /// When set, the sheets drawn are logical pages, put onto the output's sides by this
    /// (n-up, booklets, two-sided padding, copies …) as they are assembled: one pass, no
    /// intermediate PDF.
    private var imposition: SheetImposition?
    private var sidesWritten = 0

    package init(output: OutputFile, metadata: DocumentMetadata, fonts: FontSystem, grayscale: Bool = false, intent: RenderingIntent? = nil,
                 imposition: SheetImposition? = nil) throws {
        self.output = output
        self.imposition = imposition
        self.grayscale = grayscale
        self.intent = intent?.pdfName == nil ? nil : intent
        self.metadata = metadata
        scratch = try OutputFile.scratch(prefix: "swiftprint-drawn-")
        drawn = try PDFWriter(output: scratch, metadata: DocumentMetadata(), fonts: fonts)
    }

    deinit { scratch.removeScratch() }

    package var sheetsWritten: Int { imposition == nil ? sheets.count : sidesWritten }

    package func documentStarts(atPage index: Int) { imposition?.documentStarts.insert(index) }

    package func beginSheet(size: CGSize) -> GraphicsContext {
        let ctx = drawn.beginSheet(size: size)
        ctx.placements = []
        ctx.outline = []
        ctx.links = []
        ctx.destinations = []
        current = ctx
        currentSize = size
        return ctx
    }

    package func endSheet() throws {
        guard let ctx = current else { return }
        var sheet = Sheet(size: currentSize, placements: ctx.placements ?? [], outline: ctx.outline ?? [],
                          links: ctx.links ?? [], destinations: ctx.destinations ?? [])
        // Bookmarks and links go into the assembled output, not into the scratch drawing.
        ctx.outline = nil
        ctx.links = nil
        ctx.destinations = nil
        if ctx.marked {
            try drawn.endSheet()
            sheet.drawnPage = drawnPages
            drawnPages += 1
        } else {
            drawn.discardSheet()
        }
        sheets.append(sheet)
        ctx.placements = nil
        ctx.outline = nil
        current = nil
    }

    package func finish() throws {
        defer { scratch.removeScratch() }
        // Sides are planned before the drawing is finished: a decoration draws on each side.
        let plan = imposition.map { $0.plan(pages: sheets.map { CGRect(origin: .zero, size: $0.size) }) }
        let decorations = try plan.map(drawDecorations) ?? [:]
        try drawn.finish()
        guard let drawnPath = scratch.scratchPath else { throw PrintError(.renderingFailed, "the drawn pages were lost") }
        // Only sheets with drawing have a page in the scratch PDF; with none, it is not read.
        var assembly = Assembly(document: try QPDFDocument(), drawing: drawnPages > 0 ? try QPDFDocument(path: drawnPath) : nil,
                                grayscale: grayscale)
        if let imposition, let plan {
            try appendSides(of: plan, framed: imposition.framesPages, decorations: decorations, to: &assembly)
            sidesWritten = plan.sides.count
        } else {
            for sheet in sheets {
                if let (source, page) = assembly.wholePage(sheet) {
                    try assembly.document.appendCopy(ofPage: page, from: source, intent: intent)
                    continue
                }
                try assembly.document.appendSheet(size: sheet.size, placements: try assembly.placements(of: sheet, by: .identity), grayscale: grayscale,
                                                  intent: intent)
            }
        }
        try assembly.document.setOutline(outline(plan: plan))
        try addLinks(to: assembly.document, plan: plan)
        try assembly.document.stamp(metadata)
        try assembly.document.write(to: output)
        try output.commit()
    }

    /// The sheets' outline entries on the output's pages: a sheet's own page, or with an
    /// imposition the side its page is put on, the height carried there.
    private func outline(plan: SheetPlan?) -> [OutlineEntry] {
        sheets.enumerated().flatMap { index, sheet in
            sheet.outline.compactMap { entry in
                place(sheet: index, top: entry.top, plan: plan).map { OutlineEntry(title: entry.title, level: entry.level, page: $0.page, top: $0.top) }
            }
        }
    }

    /// Where sheet `index`'s point or box is on the output: its own page, or with an imposition
    /// the side its page is put on.
    private func place(sheet index: Int, _ box: CGRect, plan: SheetPlan?) -> (page: Int, box: CGRect)? {
        guard let plan else { return (index, box) }
        guard let side = plan.sides.firstIndex(where: { $0.items.contains { $0.page == index } }),
              let item = plan.sides[side].items.first(where: { $0.page == index }) else { return nil }
        return (side, item.transform.apply(to: box))
    }

    /// Where height `top` of sheet `index` is on the output.
    private func place(sheet index: Int, top: Double, plan: SheetPlan?) -> (page: Int, top: Double)? {
        place(sheet: index, CGRect(x: 0, y: top, width: 0, height: 0), plan: plan).map { ($0.page, Double($0.box.minY)) }
    }

    /// The sheets' links as link annotations of the output's pages; links to a destination no
    /// page names are left out.
    private func addLinks(to document: QPDFDocument, plan: SheetPlan?) throws {
        var destinations: [String: (page: Int, top: Double)] = [:]
        for (index, sheet) in sheets.enumerated() {
            for destination in sheet.destinations where destinations[destination.name] == nil {
                destinations[destination.name] = place(sheet: index, top: destination.top, plan: plan)
            }
        }
        for (index, sheet) in sheets.enumerated() {
            for link in sheet.links {
                guard let placed = place(sheet: index, link.box, plan: plan) else { continue }
                switch link.target {
                case .uri(let uri):
                    try document.addLink(page: placed.page, box: placed.box, uri: uri)
                case .destination(let name):
                    guard let target = destinations[name] else { continue }
                    try document.addLink(page: placed.page, box: placed.box, uri: nil, destinationPage: target.page, destinationTop: target.top)
                }
            }
        }
    }

    /// Draws the sheet decoration (a header and footer that number sides) on each side of
    /// `plan`; returns the drawn page of each side that has one.
    private func drawDecorations(_ plan: SheetPlan) throws -> [Int: Int] {
        guard let decoration = imposition?.decoration else { return [:] }
        var decorations: [Int: Int] = [:]
        for (index, side) in plan.sides.enumerated() {
            let ctx = drawn.beginSheet(size: side.size)
            decoration.draw(ctx, index, plan.sides.count, side.size)
            if ctx.marked {
                try drawn.endSheet()
                decorations[index] = drawnPages
                drawnPages += 1
            } else {
                drawn.discardSheet()
            }
        }
        return decorations
    }

    /// Puts the logical sheets onto `plan`'s sides: a side that is one unchanged input page is
    /// that page, copied whole; others show their pages' objects, frames and decoration.
    private func appendSides(of plan: SheetPlan, framed: Bool, decorations: [Int: Int], to assembly: inout Assembly) throws {
        let border = imposition?.info.sheets.border ?? .none
        for (index, side) in plan.sides.enumerated() {
            if side.items.count == 1, !framed, decorations[index] == nil, let only = side.items.first, only.transform.isClose(to: .identity),
               side.size == sheets[only.page].size, let (source, page) = assembly.wholePage(sheets[only.page]) {
                try assembly.document.appendCopy(ofPage: page, from: source, intent: intent)
                continue
            }
            var placed = try side.items.flatMap { try assembly.placements(of: sheets[$0.page], by: $0.transform) }
            if framed, !side.items.isEmpty {
                placed.append((try assembly.document.addDrawing(size: side.size, operators: SheetImposition.frames(side.items.map(\.corners), border)),
                               .identity, nil))
            }
            if let page = decorations[index], let drawing = assembly.drawing {
                placed.append((try assembly.document.formXObject(fromPage: page, of: drawing), .identity, nil))
            }
            try assembly.document.appendSheet(size: side.size, placements: placed, grayscale: grayscale, intent: intent)
        }
    }

    /// The output document being assembled, with the scratch PDF of cairo's drawing; copies and
    /// repeated content share one object.
    private struct Assembly {
        let document: QPDFDocument
        let drawing: QPDFDocument?
        let grayscale: Bool
        var objects: [PlacedContent.Key: Int64] = [:]

        init(document: QPDFDocument, drawing: QPDFDocument?, grayscale: Bool) {
            self.document = document; self.drawing = drawing; self.grayscale = grayscale
        }

        mutating func object(for content: PlacedContent) throws -> Int64 {
            if let id = objects[content.key] { return id }
            let id: Int64
            switch content.source {
            case .pdfPage(let source, let index, _): id = try document.formXObject(fromPage: index, of: source)
            case .object(let object): id = try object.addObject(to: document)
            }
            objects[content.key] = id
            return id
        }

        /// A logical sheet's objects, moved by `transform` (and kept inside its page when moved).
        mutating func placements(of sheet: Sheet, by transform: PDFMatrix) throws -> [(object: Int64, transform: PDFMatrix, clip: [CGPoint]?)] {
            let moved = !transform.isClose(to: .identity)
            let page = SheetPlan.corners(of: CGRect(origin: .zero, size: sheet.size), by: .identity)
            var placed: [(object: Int64, transform: PDFMatrix, clip: [CGPoint]?)] = []
            for p in sheet.placements {
                placed.append((object: try object(for: p.content), transform: p.matrix.concatenating(transform),
                               clip: (p.clip ?? (moved ? page : nil))?.map(transform.apply(to:))))
            }
            if let page = sheet.drawnPage, let drawing {
                placed.append((object: try document.formXObject(fromPage: page, of: drawing), transform: transform, clip: nil))
            }
            return placed
        }

        /// The input page a sheet is, exactly, when nothing was drawn over it and no grey layer
        /// goes on it: copied whole, annotations and all.
        func wholePage(_ sheet: Sheet) -> (QPDFDocument, Int)? {
            sheet.drawnPage == nil && !grayscale ? AssemblingPDFWriter.unchangedPage(on: sheet) : nil
        }
    }

    /// The input page a sheet shows exactly as it is (same size, not moved or scaled), if any.
    private static func unchangedPage(on sheet: Sheet) -> (QPDFDocument, Int)? {
        guard sheet.placements.count == 1, let only = sheet.placements.first, only.clip == nil,
              case .pdfPage(let source, let index, let geometry) = only.content.source,
              geometry.userUnit == 1 else { return nil }
        let displayed = geometry.displayedSize
        guard abs(displayed.width - sheet.size.width) < 0.01, abs(displayed.height - sheet.size.height) < 0.01,
              only.matrix.isClose(to: geometry.formToDisplayed, tolerance: 0.001) else { return nil }
        return (source, index)
    }
}
