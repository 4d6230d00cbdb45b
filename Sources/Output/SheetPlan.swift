import Foundation
import PDFObjects
import PrintModel

/// Where every logical page goes: which side of which sheet, in which cell, which way up. Pure
/// arithmetic over page sizes, in PDF space (points, y up), so the imposer only places objects.
///
/// The steps, in order (pdftopdf applies page ranges after n-up, which prints 26 sheets for 96
/// pages 4-up from page 5 where 24 are right; here ranges chose the logical pages before):
/// 1. the photo grid: pages (each drawn at its cell's size) `photosPerSheet` to a side in equal
///    cells; or booklet: pages padded to whole signatures and put two to a side in folding order;
///    or n-up: pages grouped `numberUp` to a side, a new document starting a new side (and,
///    printed two-sided, a front: a blank back is put in);
/// 2. `page-set` keeps the odd or even sides;
/// 3. two-sided output gets a blank last side when the count is odd, so each copy starts on a front;
/// 4. copies: whole sets (collated) or each sheet repeated;
/// 5. `output-order` reverse: sheets last to first, each sheet's front still before its back;
/// 6. `mirror` flips every side left to right.
package struct SheetPlan {
    /// One logical page on a side: `transform` maps its page box to the side.
    struct Item: Equatable {
        var page: Int
        var transform: PDFMatrix
        /// The placed page's corners on the side, for borders.
        var corners: [CGPoint]
    }

    /// One side of a sheet; no items is a blank side.
    struct Side: Equatable {
        var size: CGSize
        var items: [Item]
    }

    var sides: [Side] = []

    /// - Parameters:
    ///   - pages: each logical page's box (PDF space; its origin may be anywhere).
    ///   - documentStarts: logical pages that begin a new document (after the first).
    ///   - paper: the sheet for n-up and booklets; single pages keep their own size.
    ///   - twoSided: the output is printed on both sides.
    ///   - bands: room kept free at the top and bottom of n-up and booklet sides (a header and
    ///     footer printed on the sheet).
    ///   - printableArea: the sheet's printable area (top-left origin, as the paper describes
    ///     it), which the photo grid's cells fill.
    init(pages: [CGRect], documentStarts: Set<Int>, paper: CGSize, options o: SheetOptions, twoSided: Bool, copies: Int,
         bands: (top: Double, bottom: Double) = (0, 0), printableArea: CGRect? = nil) {
        var sides: [Side]
        let area = CGRect(x: 0, y: bands.bottom, width: paper.width, height: max(1, paper.height - bands.top - bands.bottom))
        if o.isPhotoGrid, let count = o.photosPerSheet {
            sides = Self.photoGrid(pages: pages, count: count, gutter: o.photoGutter ?? Self.photoGutter, paper: paper,
                                   printableArea: printableArea ?? CGRect(origin: .zero, size: paper))
        } else if o.booklet == true {
            sides = Self.booklet(pages: pages, paper: paper, area: area, signature: o.bookletSignature)
        } else {
            sides = Self.nUp(pages: pages, documentStarts: documentStarts, paper: paper, area: area, count: o.numberUp ?? 1,
                             layout: o.layout ?? .lrtb, twoSided: twoSided)
        }
        switch o.pageSet ?? .all {
        case .all: break
        case .odd: sides = sides.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        case .even: sides = sides.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        }
        let perSheet = twoSided || o.booklet == true ? 2 : 1
        if perSheet == 2, sides.count % 2 == 1 { sides.append(Side(size: sides.last!.size, items: [])) }
        let sheets = stride(from: 0, to: sides.count, by: perSheet).map { Array(sides[$0..<min($0 + perSheet, sides.count)]) }
        var ordered: [[Side]] = []
        if o.collate ?? true {
            for _ in 0..<max(1, copies) { ordered += sheets }
        } else {
            for sheet in sheets { ordered += Array(repeating: sheet, count: max(1, copies)) }
        }
        if o.reverse == true { ordered.reverse() }
        self.sides = ordered.flatMap { $0 }
        if o.mirror == true { transformSides { PDFMatrix(a: -1, b: 0, c: 0, d: 1, e: $0.width, f: 0) } }
        if o.halfTurn == true { transformSides { PDFMatrix(a: -1, b: 0, c: 0, d: -1, e: $0.width, f: $0.height) } }
    }

    /// Every side's items moved by the transform made for its size.
    private mutating func transformSides(_ transform: (CGSize) -> PDFMatrix) {
        sides = sides.map { side in
            let t = transform(side.size)
            return Side(size: side.size, items: side.items.map {
                Item(page: $0.page, transform: $0.transform.concatenating(t), corners: $0.corners.map(t.apply(to:)))
            })
        }
    }

    // MARK: n-up

    static func nUp(pages: [CGRect], documentStarts: Set<Int>, paper: CGSize, area: CGRect, count: Int, layout: SheetOptions.Layout,
                    twoSided: Bool) -> [Side] {
        var sides: [Side] = []
        var group: [Int] = []
        func flush() {
            guard !group.isEmpty else { return }
            sides.append(count == 1 ? single(pages[group[0]], page: group[0])
                         : side(group.map { ($0, pages[$0]) }, paper: paper, area: area, count: count, layout: layout, shape: pages[group[0]].size))
            group = []
        }
        for index in pages.indices {
            if documentStarts.contains(index) {
                flush()
                // A document starts on a front side.
                if twoSided, sides.count % 2 == 1 { sides.append(Side(size: sides.last!.size, items: [])) }
            }
            group.append(index)
            if group.count == count { flush() }
        }
        flush()
        return sides
    }

    /// One page on a side of its own size, unchanged.
    static func single(_ box: CGRect, page: Int) -> Side {
        let t = PDFMatrix(translationX: -box.minX, y: -box.minY)
        return Side(size: box.size, items: [Item(page: page, transform: t, corners: corners(of: box, by: t))])
    }

    /// The grid for `count` cells on `paper`: columns and rows as read, and whether the reading
    /// frame is the sheet turned a quarter (pages then run along the sheet's long side). The
    /// choice that prints a page of `page`'s shape largest; ties keep the sheet as it is.
    static func grid(count: Int, paper: CGSize, page: CGSize) -> (columns: Int, rows: Int, turned: Bool) {
        var best = (columns: 1, rows: count, turned: false), bestScale = -1.0
        for turned in [false, true] {
            let frame = turned ? CGSize(width: paper.height, height: paper.width) : paper
            for columns in 1...count where count % columns == 0 {
                let rows = count / columns
                let scale = min(frame.width / Double(columns) / page.width, frame.height / Double(rows) / page.height)
                if scale > bestScale * 1.0001 { best = (columns, rows, turned); bestScale = scale }
            }
        }
        return best
    }

    /// Cell `slot` of a grid read in `layout` order: column and row from the top-left.
    static func position(_ slot: Int, columns: Int, rows: Int, layout: SheetOptions.Layout) -> (column: Int, row: Int) {
        let (along, then) = layout.rowsFirst ? (slot % columns, slot / columns) : (slot % rows, slot / rows)
        let x = layout.rowsFirst ? along : then, y = layout.rowsFirst ? then : along
        return (layout.rightToLeft ? columns - 1 - x : x, layout.bottomToTop ? rows - 1 - y : y)
    }

    /// A side of `count` cells holding `slots` in `layout` order (nil: a blank cell), the grid
    /// chosen for pages shaped like `shape`.
    static func side(_ slots: [(page: Int, box: CGRect)?], paper: CGSize, area: CGRect, count: Int, layout: SheetOptions.Layout,
                     shape: CGSize) -> Side {
        let g = grid(count: count, paper: area.size, page: shape)
        let frame = g.turned ? CGSize(width: area.height, height: area.width) : area.size
        // The reading frame turned a quarter clockwise onto the sheet's area: its left edge along
        // the top, so the first page of a 2-up side is the upper one.
        let toSheet = (g.turned ? PDFMatrix(a: 0, b: -1, c: 1, d: 0, e: 0, f: area.height) : .identity)
            .concatenating(PDFMatrix(translationX: area.minX, y: area.minY))
        let cw = frame.width / Double(g.columns), ch = frame.height / Double(g.rows)
        var items: [Item] = []
        for (slot, entry) in slots.enumerated() {
            guard let entry else { continue }
            let (column, row) = position(slot, columns: g.columns, rows: g.rows, layout: layout)
            let cell = CGRect(x: Double(column) * cw, y: frame.height - Double(row + 1) * ch, width: cw, height: ch)
            let t = fit(entry.box, in: cell).concatenating(toSheet)
            items.append(Item(page: entry.page, transform: t, corners: corners(of: entry.box, by: t)))
        }
        return Side(size: paper, items: items)
    }

    /// `box` scaled to fit `cell`, centred, turned a quarter when that prints it larger (a
    /// landscape page among portrait ones); never turned otherwise.
    static func fit(_ box: CGRect, in cell: CGRect) -> PDFMatrix {
        let (w, h) = (box.width, box.height)
        let straight = min(cell.width / w, cell.height / h), turned = min(cell.width / h, cell.height / w)
        let origin = PDFMatrix(translationX: -box.minX, y: -box.minY)
        if turned > straight * 1.0001 {
            let s = turned
            // (x, y) → (h − y, x): a quarter turn counterclockwise, kept in the positive quadrant.
            let quarter = PDFMatrix(a: 0, b: 1, c: -1, d: 0, e: h, f: 0)
            return origin.concatenating(quarter).concatenating(PDFMatrix(scaleX: s, y: s))
                .concatenating(PDFMatrix(translationX: cell.minX + (cell.width - s * h) / 2, y: cell.minY + (cell.height - s * w) / 2))
        }
        let s = straight
        return origin.concatenating(PDFMatrix(scaleX: s, y: s))
            .concatenating(PDFMatrix(translationX: cell.minX + (cell.width - s * w) / 2, y: cell.minY + (cell.height - s * h) / 2))
    }

    static func corners(of box: CGRect, by t: PDFMatrix) -> [CGPoint] {
        [CGPoint(x: box.minX, y: box.minY), CGPoint(x: box.maxX, y: box.minY), CGPoint(x: box.maxX, y: box.maxY),
         CGPoint(x: box.minX, y: box.maxY)].map(t.apply(to:))
    }

    // MARK: The photo grid

    /// Points between the photo grid's cells when the job does not say.
    static let photoGutter = 9.0

    /// Pages (each drawn at its cell's size) `count` to a side, in the grid's cells left to
    /// right and top to bottom, at their size: photos fill the cells of one job in turn,
    /// whatever file each came from.
    static func photoGrid(pages: [CGRect], count: Int, gutter: Double, paper: CGSize, printableArea: CGRect) -> [Side] {
        stride(from: 0, to: pages.count, by: count).map { start in
            Side(size: paper, items: (start..<min(start + count, pages.count)).map { index in
                // The cell counts from the top of the sheet; PDF space from the bottom.
                let cell = photoCell(index - start, count: count, gutter: gutter, in: printableArea)!, box = pages[index]
                let t = PDFMatrix(translationX: cell.minX - box.minX, y: paper.height - cell.maxY - box.minY)
                return Item(page: index, transform: t, corners: corners(of: box, by: t))
            })
        }
    }

    /// Cell `slot` (from 0, left to right, top to bottom; top-left origin) of the photo grid of
    /// `count` cells `gutter` points apart in a sheet's printable `area`: the grid's columns
    /// and rows on a portrait area, turned on a landscape one. Nil for a count the grid does not
    /// take. The size a page of the grid is drawn at, before the plan puts it in its cell.
    package static func photoCell(_ slot: Int, count: Int, gutter: Double? = nil, in area: CGRect) -> CGRect? {
        guard let (columns, rows) = SheetOptions.photoGridShapes[count] else { return nil }
        let gutter = gutter ?? photoGutter
        let landscape = area.width > area.height
        let across = landscape ? rows : columns, down = landscape ? columns : rows
        let w = (area.width - gutter * Double(across - 1)) / Double(across)
        let h = (area.height - gutter * Double(down - 1)) / Double(down)
        let col = slot % across, row = slot / across
        return CGRect(x: area.minX + Double(col) * (w + gutter), y: area.minY + Double(row) * (h + gutter), width: w, height: h)
    }

    // MARK: Booklets

    /// Two pages a side, in the order that folds: for a signature of n pages (padded to a multiple
    /// of 4), sheet k's front holds n − 2k and 2k + 1 (from 1), its back 2k + 2 and n − 2k − 1.
    static func booklet(pages: [CGRect], paper: CGSize, area: CGRect, signature: Int?) -> [Side] {
        guard let first = pages.first else { return [] }
        let total = (pages.count + 3) / 4 * 4
        let size = signature.map { max(4, $0 / 4 * 4) } ?? total
        var sides: [Side] = []
        for start in stride(from: 0, to: total, by: size) {
            let n = min(size, total - start)
            for k in 0..<(n / 4) {
                for pair in [(n - 1 - 2 * k, 2 * k), (2 * k + 1, n - 2 - 2 * k)] {
                    let slots = [pair.0, pair.1].map { start + $0 }.map { $0 < pages.count ? ($0, pages[$0]) : nil }
                    sides.append(side(slots, paper: paper, area: area, count: 2, layout: .lrtb, shape: first.size))
                }
            }
        }
        return sides
    }
}
