import Foundation

/// How content with a size of its own (a PDF page, a photo) goes onto the paper, as IPP's
/// `print-scaling` says.
public enum PrintScaling: String, Codable, Sendable, CaseIterable {
    /// `auto-fit` for documents, `fit` for images (the handler decides, as IPP leaves it open).
    case auto
    /// Shrinks content larger than the printable area to fit it; leaves smaller content as it is.
    case autoFit = "auto-fit"
    /// Scales to fit the printable area, keeping the aspect ratio (may leave bands).
    case fit
    /// Scales to fill the printable area, keeping the aspect ratio (may crop).
    case fill
    /// Natural size, centred, cropped to the paper if larger.
    case none

    /// Where content of `size` goes in `area`, and whether it overflows (and so needs clipping).
    /// `scale` multiplies the natural size for `none` and `auto-fit` (IPP's natural scaling).
    /// `percentOfArea` (CUPS's `scaling=N`) replaces the scaling: the content fits the area and
    /// is then drawn at that percent of the fitted size (above 100 it overflows and is cropped).
    public func frame(for size: CGSize, in area: CGRect, scale: Double = 1, percentOfArea: Double? = nil,
                      position: ContentPosition = .center) -> (rect: CGRect, overflows: Bool) {
        guard size.width > 0, size.height > 0, area.width > 0, area.height > 0 else { return (area, false) }
        let fitScale = min(area.width / size.width, area.height / size.height)
        let fillScale = max(area.width / size.width, area.height / size.height)
        let s: Double = if let percentOfArea { fitScale * percentOfArea / 100 } else {
            switch self {
            case .fit: fitScale
            case .fill: fillScale
            case .none: scale
            case .autoFit, .auto: min(scale, fitScale)
            }
        }
        let w = size.width * s, h = size.height * s
        let rect = position.place(CGSize(width: w, height: h), in: area)
        return (rect, w > area.width + 0.01 || h > area.height + 0.01)
    }
}

/// Where content smaller (or larger) than its area sits, like IPP's `position` (CUPS `position`).
public enum ContentPosition: String, Codable, Sendable, CaseIterable {
    case center, top, bottom, left, right
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"

    func place(_ size: CGSize, in area: CGRect) -> CGRect {
        let x: Double, y: Double
        switch self {
        case .left, .topLeft, .bottomLeft: x = area.minX
        case .right, .topRight, .bottomRight: x = area.maxX - size.width
        default: x = area.midX - size.width / 2
        }
        switch self {
        case .top, .topLeft, .topRight: y = area.minY
        case .bottom, .bottomLeft, .bottomRight: y = area.maxY - size.height
        default: y = area.midY - size.height / 2
        }
        return CGRect(x: x, y: y, width: size.width, height: size.height)
    }
}

