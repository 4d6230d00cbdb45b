import Foundation
import PrintGraphics
import PrintModel

/// What the assembler needs to put logical pages onto sides: the job's sheet options, its paper
/// and where documents begin. Each logical page's objects are placed on every side that shows
/// it, moved by the plan's transform (copies are references, never redrawn); borders are a
/// small drawing per side.
package struct SheetImposition {
    let info: PrintInfo
    let paper: CGSize
    /// Logical pages that begin a new document (after the first), told as they are drawn.
    package var documentStarts: Set<Int> = []
    var decoration: SheetDecoration?
    /// The sheet's printable area (top-left origin), which the photo grid's cells fill.
    let printableArea: CGRect?

    package init(info: PrintInfo, paper: CGSize, decoration: SheetDecoration?, printableArea: CGRect? = nil) {
        self.info = info; self.paper = paper; self.decoration = decoration; self.printableArea = printableArea
    }

    func plan(pages: [CGRect]) -> SheetPlan {
        SheetPlan(pages: pages, documentStarts: documentStarts, paper: paper, options: info.sheets,
                  twoSided: info.duplex?.isTwoSided ?? false, copies: info.copies ?? 1,
                  bands: decoration?.bands ?? (0, 0), printableArea: printableArea)
    }

    /// Page borders are drawn on n-up sides and booklets only.
    var framesPages: Bool {
        (info.sheets.border ?? .none) != .none && ((info.sheets.numberUp ?? 1) > 1 || info.sheets.booklet == true)
    }

    /// Content operators that frame each quadrilateral: one line or two, thin or thick.
    static func frames(_ quads: [[CGPoint]], _ border: SheetOptions.Border) -> String {
        let (width, lines): (Double, Int) = switch border {
        case .none: (0, 0)
        case .single: (0.5, 1)
        case .singleThick: (1.5, 1)
        case .double: (0.5, 2)
        case .doubleThick: (1.5, 2)
        }
        var ops = "q 0 G \(width) w\n"
        for quad in quads {
            let centre = CGPoint(x: quad.map(\.x).reduce(0, +) / 4, y: quad.map(\.y).reduce(0, +) / 4)
            for line in 0..<lines {
                // The second line sits inside the first: each corner moved towards the centre.
                let inset = Double(line) * (width * 2 + 1.5)
                let points = quad.map { p -> CGPoint in
                    let dx = centre.x - p.x, dy = centre.y - p.y
                    return CGPoint(x: p.x + (dx == 0 ? 0 : inset * (dx > 0 ? 1 : -1)), y: p.y + (dy == 0 ? 0 : inset * (dy > 0 ? 1 : -1)))
                }
                ops += String(format: "%.3f %.3f m", points[0].x, points[0].y)
                for p in points.dropFirst() { ops += String(format: " %.3f %.3f l", p.x, p.y) }
                ops += " h S\n"
            }
        }
        return ops + "Q\n"
    }
}

/// Drawing on each side of the sheet itself, above the pages placed on it: a header and footer
/// that number sides rather than pages.
public struct SheetDecoration {
    /// Room n-up cells leave free at the top and bottom of the sheet.
    public var bands: (top: Double, bottom: Double)
    /// Draws side `side` (from 0) of `sides`, of `size`.
    public var draw: (_ context: GraphicsContext, _ side: Int, _ sides: Int, _ size: CGSize) -> Void

    public init(bands: (top: Double, bottom: Double), draw: @escaping (GraphicsContext, Int, Int, CGSize) -> Void) {
        self.bands = bands
        self.draw = draw
    }
}
