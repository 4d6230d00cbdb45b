import Foundation

/// A PDF transformation matrix [a b c d e f], mapping (x, y) to (a·x + c·y + e, b·x + d·y + f),
/// as the `cm` operator takes it. (Foundation has an AffineTransform; this one speaks PDF.)
package struct PDFMatrix: Hashable, Sendable {
    package var a, b, c, d, e, f: Double

    package init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f
    }

    package init(translationX x: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, e: x, f: y) }
    package init(scaleX x: Double, y: Double) { self.init(a: x, b: 0, c: 0, d: y, e: 0, f: 0) }

    package static let identity = PDFMatrix(a: 1, b: 0, c: 0, d: 1, e: 0, f: 0)

    /// This transform followed by `next`.
    package func concatenating(_ next: PDFMatrix) -> PDFMatrix {
        PDFMatrix(a: a * next.a + b * next.c, b: a * next.b + b * next.d,
                  c: c * next.a + d * next.c, d: c * next.b + d * next.d,
                  e: e * next.a + f * next.c + next.e, f: e * next.b + f * next.d + next.f)
    }

    package func apply(to p: CGPoint) -> CGPoint {
        CGPoint(x: a * p.x + c * p.y + e, y: b * p.x + d * p.y + f)
    }

    /// The box that holds `rect` once transformed (the rect itself, for a turn by a right angle).
    package func apply(to rect: CGRect) -> CGRect {
        CGRect(enclosing: rect.corners.map(apply(to:)))
    }

    /// Whether the two are the same to within `tolerance` (points).
    package func isClose(to other: PDFMatrix, tolerance: Double = 1e-6) -> Bool {
        zip([a, b, c, d, e, f], [other.a, other.b, other.c, other.d, other.e, other.f]).allSatisfy { abs($0 - $1) <= tolerance }
    }

    var tuple: (Double, Double, Double, Double, Double, Double) { (a, b, c, d, e, f) }
}

extension CGRect {
    /// The smallest box that holds `points` (at least one).
    package init(enclosing points: [CGPoint]) {
        let xs = points.map(\.x), ys = points.map(\.y)
        self.init(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// The four corners.
    package var corners: [CGPoint] {
        [CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY), CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY)]
    }
}
