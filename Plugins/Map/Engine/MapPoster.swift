import Foundation
import HandlerSupport

/// A map printed over columns × rows sheets, to be trimmed and pasted together. The map is laid
/// out once on a canvas as large as the sheets' printable areas side by side less the overlaps;
/// each sheet prints its window of that canvas, with tiles fetched and composed for that window
/// only (a 3 × 3 poster holds one sheet's pixels at a time, not nine).
///
/// Neighbouring sheets print the same `overlap` strip (10 mm by default). On each sheet, corner
/// marks in the margin show where to trim, ticks on the edges show where the next sheet's trimmed
/// edge goes, and a label names the sheet: columns are letters, rows numbers (B2 is the second
/// column of the second row).
public struct MapPoster: Sendable, Equatable {
    public var columns: Int
    public var rows: Int
    /// Points printed twice, on both sheets of each join.
    public var overlap: Double

    public static let defaultOverlap = 10 * Length.pointsPerMillimetre

    public init(columns: Int, rows: Int, overlap: Double = MapPoster.defaultOverlap) {
        self.columns = columns
        self.rows = rows
        self.overlap = overlap
    }

    /// `3x2` (columns × rows).
    public init?(_ text: String, overlap: Double = MapPoster.defaultOverlap) {
        let parts = text.lowercased().split(separator: "x").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let c = parts[0], let r = parts[1], c >= 1, r >= 1 else { return nil }
        self.init(columns: c, rows: r, overlap: overlap)
    }

    /// Columns × rows; `Int.max` when that product is past it (a fuzzed poster of 2^62 × 4
    /// sheets stopped the job before the sheet limit could refuse it).
    public var sheets: Int {
        let (product, overflow) = columns.multipliedReportingOverflow(by: rows)
        return overflow ? .max : product
    }

    /// The whole map's size for sheets whose printable area is `sheet`.
    func canvasSize(sheet: CGSize) -> CGSize {
        CGSize(width: Double(columns) * sheet.width - Double(columns - 1) * overlap,
               height: Double(rows) * sheet.height - Double(rows - 1) * overlap)
    }

    /// Sheet `index` (row by row): its column, row, and its window's top-left on the canvas.
    func sheet(_ index: Int, size: CGSize) -> (column: Int, row: Int, offset: CGPoint) {
        let column = index % columns, row = index / columns
        return (column, row, CGPoint(x: Double(column) * (size.width - overlap), y: Double(row) * (size.height - overlap)))
    }

    /// `B2`: the column as letters (A … Z, AA …), the row as a number.
    static func label(column: Int, row: Int) -> String {
        var letters = "", n = column + 1
        while n > 0 {
            letters = String(UnicodeScalar(UInt8(65 + (n - 1) % 26))) + letters
            n = (n - 1) / 26
        }
        return "\(letters)\(row + 1)"
    }

    /// Trim marks at the printable area's corners (in the margin), ticks where the neighbouring
    /// sheets' trimmed edges go, and the sheet's label above the map.
    func drawMarks(in context: GraphicsContext, column: Int, row: Int, size: CGSize, margin: Double, font: Font) {
        context.withSavedState {
            context.setStrokeColor(.black)
            context.setLineWidth(0.4)
            let gap = 3.0, length = max(0, min(12, margin - gap - 1))
            if length > 2 {
                for x in [0, size.width] {
                    for y in [0, size.height] {
                        let sx: Double = x == 0 ? -1 : 1, sy: Double = y == 0 ? -1 : 1
                        context.strokeLine(from: CGPoint(x: x + sx * gap, y: y), to: CGPoint(x: x + sx * (gap + length), y: y))
                        context.strokeLine(from: CGPoint(x: x, y: y + sy * gap), to: CGPoint(x: x, y: y + sy * (gap + length)))
                    }
                }
            }
            // Where the next sheet's trimmed edge lies: the start of the overlap strip.
            let tick = 8.0
            if column < columns - 1 {
                let x = size.width - overlap
                context.strokeLine(from: CGPoint(x: x, y: 0), to: CGPoint(x: x, y: tick))
                context.strokeLine(from: CGPoint(x: x, y: size.height - tick), to: CGPoint(x: x, y: size.height))
            }
            if row < rows - 1 {
                let y = size.height - overlap
                context.strokeLine(from: CGPoint(x: 0, y: y), to: CGPoint(x: tick, y: y))
                context.strokeLine(from: CGPoint(x: size.width - tick, y: y), to: CGPoint(x: size.width, y: y))
            }
            let mm = (overlap / Length.pointsPerMillimetre).rounded()
            let text = "Sheet \(Self.label(column: column, row: row)) of \(Self.label(column: columns - 1, row: rows - 1))"
                + " · column \(column + 1) of \(columns), row \(row + 1) of \(rows) · overlap \(Int(mm)) mm"
            let textSize = context.size(of: text, font: font)
            if margin >= textSize.height + 4 {
                context.draw(text, at: CGPoint(x: 18, y: -textSize.height - 2), font: font, color: Color(white: 0.3))
            } else {
                context.setFillColor(Color(white: 1, alpha: 0.85))
                context.fill(CGRect(x: 2, y: 2, width: textSize.width + 6, height: textSize.height + 2))
                context.draw(text, at: CGPoint(x: 5, y: 3), font: font, color: Color(white: 0.3))
            }
        }
    }
}
