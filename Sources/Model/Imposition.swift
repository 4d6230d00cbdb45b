import Foundation

/// How logical pages are placed on physical sheets. Kept apart from pagination from the start:
/// n-up, booklets and duplex padding change this, not the paginator.
public struct Imposition: Hashable, Sendable {
    /// Cells across and down on a portrait sheet (turned for a landscape one).
    public var columns = 1
    public var rows = 1
    /// Space between cells, in points.
    public var gutter: Double = 0

    /// One logical page per sheet, at the sheet's size.
    public static let onePerSheet = Imposition()

    /// `count` logical pages per sheet in a grid of equal cells (2, 3, 4, 6, 8, 9, 10, 12, 15,
    /// 16 or 20), `gutter` points apart: the photo grid, and later n-up for every type.
    public static func grid(_ count: Int, gutter: Double = 9) -> Imposition? {
        let shapes = [1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5),
                      12: (3, 4), 15: (3, 5), 16: (4, 4), 20: (4, 5)]
        guard let (c, r) = shapes[count] else { return nil }
        return Imposition(columns: c, rows: r, gutter: gutter)
    }

    /// The counts `grid` accepts.
    public static let gridCounts = [1, 2, 3, 4, 6, 8, 9, 10, 12, 15, 16, 20]

    public var pagesPerSheet: Int { columns * rows }

    /// Cell `slot` (from 0, left to right, top to bottom) in a sheet's printable `area`.
    public func cell(_ slot: Int, in area: CGRect) -> CGRect {
        let landscape = area.width > area.height
        let across = landscape ? rows : columns, down = landscape ? columns : rows
        let w = (area.width - gutter * Double(across - 1)) / Double(across)
        let h = (area.height - gutter * Double(down - 1)) / Double(down)
        let col = slot % across, row = slot / across
        return CGRect(x: area.minX + Double(col) * (w + gutter), y: area.minY + Double(row) * (h + gutter), width: w, height: h)
    }
}
