import Foundation

// Geometry is in PDF points, 72 per inch, with the origin at the top-left of the paper and y
// growing downwards, as in UIKit. CGPoint, CGSize and CGRect come from Foundation.

/// Insets from each edge of a rectangle, like UIKit's UIEdgeInsets.
public struct EdgeInsets: Hashable, Codable, Sendable, CustomStringConvertible {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }

    /// The same inset on every edge.
    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    public static let zero = EdgeInsets()

    public var description: String { "{\(top), \(left), \(bottom), \(right)}" }

    /// Parses CSS-style margins: one to four lengths separated by commas or spaces, in the CSS
    /// order (top, right, bottom, left). Each length is points unless it ends in `mm`, `cm`, `in` or `pt`.
    public init?(cssLengths text: String) {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        let values = parts.compactMap(Length.points(from:))
        guard values.count == parts.count else { return nil }
        self.init(cssOrder: values)
    }

    /// One to four values in CSS's order (top, right, bottom, left), a missing one taking its
    /// opposite's value (the one value all four).
    public init?(cssOrder values: [Double]) {
        switch values.count {
        case 1: self.init(all: values[0])
        case 2: self.init(top: values[0], left: values[1], bottom: values[0], right: values[1])
        case 3: self.init(top: values[0], left: values[1], bottom: values[2], right: values[1])
        case 4: self.init(top: values[0], left: values[3], bottom: values[2], right: values[1])
        default: return nil
        }
    }
}

extension CGRect {
    /// The rectangle shrunk by `insets` (never to a negative size).
    public func inset(by insets: EdgeInsets) -> CGRect {
        CGRect(x: minX + insets.left, y: minY + insets.top,
               width: max(0, width - insets.left - insets.right),
               height: max(0, height - insets.top - insets.bottom))
    }
}

/// Lengths written by people: `10`, `10pt`, `12.7mm`, `1cm`, `0.5in`.
public enum Length {
    public static let pointsPerInch = 72.0
    public static let pointsPerMillimetre = 72.0 / 25.4

    /// Points for a written length, or nil when it is not one.
    public static func points(from text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("mm", pointsPerMillimetre), ("cm", pointsPerMillimetre * 10),
                                         ("in", pointsPerInch), ("pt", 1)]
        for (suffix, scale) in units where t.hasSuffix(suffix) {
            guard let v = Double(t.dropLast(suffix.count)), v.isFinite, v >= 0 else { return nil }
            return v * scale
        }
        guard let v = Double(t), v.isFinite, v >= 0 else { return nil }
        return v
    }
}
