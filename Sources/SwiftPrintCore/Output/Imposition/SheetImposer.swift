import Foundation

/// Puts the logical pages of a finished PDF onto sheets as a `SheetPlan` says, at the PDF-object
/// level: each page becomes one form XObject, placed on every side that shows it (copies are
/// references, never redrawn); page borders are a small drawing per side. A side that is one
/// page exactly as it is (1-up) is that page copied whole.
enum SheetImposer {
    /// Imposes `logicalPDF` into `output` (committed on success); returns the sides written.
    static func impose(logicalPDF: String, documentStarts: Set<Int>, paper: CGSize, info: PrintInfo,
                       metadata: DocumentMetadata, to output: OutputFile) throws -> Int {
        let source = try QPDFDocument(path: logicalPDF)
        let count = source.pageCount
        let geometry = try (0..<count).map { try source.geometry(ofPage: $0) }
        let boxes = geometry.map { CGRect(origin: .zero, size: $0.displayedSize) }
        let twoSided = info.duplex == .longEdge || info.duplex == .shortEdge
        let plan = SheetPlan(pages: boxes, documentStarts: documentStarts, paper: paper, options: info.sheets,
                             twoSided: twoSided, copies: info.copies ?? 1)
        let document = try QPDFDocument()
        var forms: [Int: Int64] = [:]
        let border = info.sheets.border ?? .none
        let framed = border != .none && ((info.sheets.numberUp ?? 1) > 1 || info.sheets.booklet == true)
        for side in plan.sides {
            if side.items.count == 1, let only = side.items.first, !framed,
               only.transform.isClose(to: .identity), side.size == boxes[only.page].size, geometry[only.page].userUnit == 1 {
                try document.appendCopy(ofPage: only.page, from: source)
                continue
            }
            var placed: [(object: Int64, transform: PDFMatrix, clip: [CGPoint]?)] = []
            for item in side.items {
                let form: Int64
                if let f = forms[item.page] { form = f } else {
                    form = try document.formXObject(fromPage: item.page, of: source)
                    forms[item.page] = form
                }
                placed.append((form, geometry[item.page].formToDisplayed.concatenating(item.transform), nil))
            }
            if framed, !side.items.isEmpty {
                let drawing = try document.addDrawing(size: side.size, operators: Self.frames(side.items.map(\.corners), border))
                placed.append((drawing, .identity, nil))
            }
            try document.appendSheet(size: side.size, placements: placed)
        }
        try document.stamp(metadata)
        try document.write(to: output)
        try output.commit()
        return plan.sides.count
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
