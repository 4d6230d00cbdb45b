import Foundation
import PrintGraphics
import PrintModel

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
