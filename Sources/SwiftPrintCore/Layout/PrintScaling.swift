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

extension GraphicsContext {
    /// Places `content`, `size` points at its natural size, in `area` as `scaling` says (times
    /// `scale` for `none` and `auto-fit`; `percentOfArea` replaces both, as `frame` says), at
    /// `position`; clipped to `area` when it overflows.
    /// With `turnToFit`, content whose orientation differs from the area's turns a quarter
    /// anticlockwise first (its top to the left, as pdftopdf turns pages); `mirror` flips it.
    public func place(_ content: PlacedContent, size: CGSize, in area: CGRect, scaling: PrintScaling, scale: Double = 1,
                      percentOfArea: Double? = nil, position: ContentPosition = .center, turnToFit: Bool = false,
                      mirror: Bool = false) throws {
        var size = size
        let turn = turnToFit && size.width != size.height && (size.width > size.height) != (area.width > area.height)
        if turn { size = CGSize(width: size.height, height: size.width) }
        var (frame, overflows) = scaling.frame(for: size, in: area, scale: scale, percentOfArea: percentOfArea, position: position)
        try withSavedState {
            var clip = area
            if turn {
                translateBy(x: frame.minX, y: frame.maxY)
                rotate(by: -.pi / 2)
                clip = CGRect(x: frame.maxY - area.maxY, y: area.minX - frame.minX, width: area.height, height: area.width)
                frame = CGRect(x: 0, y: 0, width: frame.height, height: frame.width)
            }
            if mirror {
                translateBy(x: frame.midX * 2, y: 0)
                scaleBy(x: -1, y: 1)
            }
            try place(content, in: frame, clippedTo: overflows ? clip : nil)
        }
    }
}
