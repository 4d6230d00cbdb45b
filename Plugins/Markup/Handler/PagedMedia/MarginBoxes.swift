import Foundation
import HandlerSupport

/// How a margin box looks: css-page-3's properties that swiftprint draws.
public struct MarginBoxStyle: Equatable, Sendable {
    public enum VerticalAlign: Sendable { case top, middle, bottom }

    public var font: Font
    public var color: Color
    public var textAlign: TextAlignment
    public var verticalAlign: VerticalAlign
    public var borderWidth: Double
    public var borderColor: Color
    public var background: Color?

    /// The style of `position` from its declarations over the page's (font and colour inherit
    /// from the page context, whose own defaults are the root's: serif, 12 pt, black).
    init(position: MarginBoxPosition, page: [String: String], box: [String: String]) {
        var family = "Serif", size = 12.0, bold = false, italic = false
        func applyFont(_ d: [String: String]) {
            if let font = d["font"] { Self.readFontShorthand(font, family: &family, size: &size, bold: &bold, italic: &italic) }
            if let f = d["font-family"], let first = CSSText.split(f, on: ",").first { family = Self.familyName(first) }
            if let s = d["font-size"], let points = Self.fontSize(s, inherited: size) { size = points }
            if let w = d["font-weight"]?.lowercased() { bold = w == "bold" || w == "bolder" || (Int(w) ?? 400) >= 600 }
            if let s = d["font-style"]?.lowercased() { italic = s == "italic" || s == "oblique" }
        }
        applyFont(page)
        applyFont(box)
        let description = "\(family)\(bold ? " Bold" : "")\(italic ? " Italic" : "") \(size)"
        font = Font(description) ?? Font("Serif \(size)")!
        color = (box["color"] ?? page["color"]).flatMap(Self.color) ?? .black
        switch box["text-align"]?.lowercased() {
        case "left"?, "start"?: textAlign = .left
        case "right"?, "end"?: textAlign = .right
        case "center"?: textAlign = .center
        default: textAlign = position.defaultTextAlign
        }
        switch box["vertical-align"]?.lowercased() {
        case "top"?: verticalAlign = .top
        case "bottom"?: verticalAlign = .bottom
        case "middle"?: verticalAlign = .middle
        default: verticalAlign = position.defaultVerticalAlign
        }
        borderWidth = 0
        borderColor = color
        if let border = box["border"] {
            for token in CSSText.split(border, on: " ").map({ $0.trimmingCharacters(in: .whitespaces) }) where !token.isEmpty {
                if let w = PageStyle.length(token) { borderWidth = w }
                else if let c = Self.color(token) { borderColor = c }
                else if token == "none" || token == "hidden" { borderWidth = 0; break }
                else if ["solid", "dashed", "dotted", "double"].contains(token), borderWidth == 0 { borderWidth = 0.75 }
            }
        }
        background = (box["background-color"] ?? box["background"]).flatMap(Self.color)
    }

    static func familyName(_ text: String) -> String {
        let name = text.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        switch name.lowercased() {
        case "serif": return "Serif"
        case "sans-serif": return "Sans"
        case "monospace": return "Monospace"
        default: return name
        }
    }

    /// A `font-size`: a length, a percentage or `em` of the inherited size, or a keyword.
    static func fontSize(_ text: String, inherited: Double) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let keywords: [String: Double] = ["xx-small": 7, "x-small": 7.5, "small": 10, "medium": 12, "large": 13.5,
                                          "x-large": 18, "xx-large": 24]
        if let k = keywords[t] { return k }
        if t.hasSuffix("%"), let v = Double(t.dropLast()) { return inherited * v / 100 }
        if t.hasSuffix("rem"), let v = Double(t.dropLast(3)) { return 12 * v }
        if t.hasSuffix("em"), let v = Double(t.dropLast(2)) { return inherited * v }
        return PageStyle.length(t)
    }

    /// `font: italic bold 10pt/1.2 "DejaVu Sans", sans-serif`.
    static func readFontShorthand(_ text: String, family: inout String, size: inout Double, bold: inout Bool, italic: inout Bool) {
        let families = CSSText.split(text, on: ",")
        guard let head = families.first else { return }
        var words = head.split(separator: " ").map(String.init)
        while let word = words.first {
            let w = word.lowercased()
            if w == "italic" || w == "oblique" { italic = true } else if w == "bold" || w == "bolder" || (Int(w) ?? 0) >= 600 { bold = true }
            else if w == "normal" || Int(w) != nil {} else { break }
            words.removeFirst()
        }
        guard let sizeWord = words.first else { return }
        let sizeText = String(sizeWord.split(separator: "/").first ?? "")
        if let s = fontSize(sizeText, inherited: size) { size = s }
        let name = words.dropFirst().joined(separator: " ")
        if !name.isEmpty { family = familyName(name) }
    }

    /// `#rgb`, `#rrggbb`, `rgb(r, g, b)` and the basic names.
    static func color(_ text: String) -> Color? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasPrefix("rgb") {
            let inner = t.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
            let v = inner.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).compactMap { Double($0) }
            guard v.count >= 3 else { return nil }
            return Color(red: v[0] / 255, green: v[1] / 255, blue: v[2] / 255, alpha: v.count > 3 ? v[3] : 1)
        }
        return Color(parsing: t)
    }
}

/// A margin box ready to draw on one page: where, what, how.
public struct PlacedMarginBox: Equatable, Sendable {
    public var position: MarginBoxPosition
    public var rect: CGRect
    public var text: String
    public var style: MarginBoxStyle

    /// Draws the box's background, border and text.
    func draw(in context: GraphicsContext) {
        if let background = style.background { context.setFillColor(background); context.fill(rect) }
        if style.borderWidth > 0 {
            context.setStrokeColor(style.borderColor)
            context.setLineWidth(style.borderWidth)
            context.stroke(rect.insetBy(dx: style.borderWidth / 2, dy: style.borderWidth / 2))
        }
        guard !text.isEmpty else { return }
        let inner = rect.insetBy(dx: style.borderWidth, dy: style.borderWidth)
        let natural = context.size(of: text, font: style.font)
        // A box as long as its text holds it on one line (to the rounding of a measure).
        let fits = natural.width <= inner.width + 0.5
        let height = fits ? natural.height : context.size(of: text, font: style.font, width: inner.width).height
        let y: Double = switch style.verticalAlign {
        case .top: inner.minY
        case .middle: inner.midY - height / 2
        case .bottom: inner.maxY - height
        }
        if fits {
            let x: Double = switch style.textAlign {
            case .left, .justified: inner.minX
            case .center: inner.midX - natural.width / 2
            case .right: inner.maxX - natural.width
            }
            context.draw(text, at: CGPoint(x: x, y: y), font: style.font, color: style.color)
        } else {
            context.draw(text, in: CGRect(x: inner.minX, y: y, width: inner.width, height: height + 1), font: style.font,
                         color: style.color, alignment: style.textAlign)
        }
    }
}

/// Lays out a page's margin boxes as css-page-3 does, and as WeasyPrint (the reference) reads
/// it: corners fill the corners of the margin; each box of a side is as long as its content
/// (its max-content size, when the three fit; else its min-content size and a share of the rest
/// in proportion to what each could still use), the first at the start of the side, the middle
/// one centred, the last at the end; across the side, each fills the margin.
enum MarginBoxLayout {
    /// The boxes with something to show on a page whose paper is `paper` and whose page area
    /// (the paper less its margins) is `area`; `measure` gives a text's unwrapped size.
    static func place(_ boxes: [MarginBoxPosition: (text: String, style: MarginBoxStyle)], paper: CGRect, area: CGRect,
                      measure: (String, Font) -> CGSize) -> [PlacedMarginBox] {
        var placed: [PlacedMarginBox] = []
        func add(_ p: MarginBoxPosition, _ rect: CGRect) {
            guard let box = boxes[p], rect.width > 0, rect.height > 0 else { return }
            placed.append(PlacedMarginBox(position: p, rect: rect, text: box.text, style: box.style))
        }
        // Corners.
        add(.topLeftCorner, CGRect(x: paper.minX, y: paper.minY, width: area.minX - paper.minX, height: area.minY - paper.minY))
        add(.topRightCorner, CGRect(x: area.maxX, y: paper.minY, width: paper.maxX - area.maxX, height: area.minY - paper.minY))
        add(.bottomRightCorner, CGRect(x: area.maxX, y: area.maxY, width: paper.maxX - area.maxX, height: paper.maxY - area.maxY))
        add(.bottomLeftCorner, CGRect(x: paper.minX, y: area.maxY, width: area.minX - paper.minX, height: paper.maxY - area.maxY))
        // A box's content sizes along its side, borders included: the whole text, and its
        // longest word (down to which it may wrap).
        func sizes(_ p: MarginBoxPosition, along horizontal: Bool) -> Extent? {
            guard let box = boxes[p] else { return nil }
            let border = 2 * box.style.borderWidth
            let whole = measure(box.text, box.style.font)
            if !horizontal { return Extent(min: whole.height + border, max: whole.height + border) }
            let longestWord = box.text.split(whereSeparator: \.isWhitespace).map { Double(measure(String($0), box.style.font).width) }.max() ?? 0
            return Extent(min: longestWord + border, max: Double(whole.width) + border)
        }
        for (side, y, height) in [([MarginBoxPosition.topLeft, .topCenter, .topRight], paper.minY, area.minY - paper.minY),
                                  ([.bottomLeft, .bottomCenter, .bottomRight], area.maxY, paper.maxY - area.maxY)] {
            let lengths = share(area.width, side.map { sizes($0, along: true) })
            for (p, (start, length)) in zip(side, lengths) { add(p, CGRect(x: area.minX + start, y: y, width: length, height: height)) }
        }
        for (side, x, width) in [([MarginBoxPosition.leftTop, .leftMiddle, .leftBottom], paper.minX, area.minX - paper.minX),
                                 ([.rightTop, .rightMiddle, .rightBottom], area.maxX, paper.maxX - area.maxX)] {
            let lengths = share(area.height, side.map { sizes($0, along: false) })
            for (p, (start, length)) in zip(side, lengths) { add(p, CGRect(x: x, y: area.minY + start, width: width, height: length)) }
        }
        return placed
    }

    /// A box's content size along its side: at least `min`, at most `max`.
    struct Extent { var min: Double; var max: Double }

    /// Where along a side `length` long the three boxes go (start, length each), given the
    /// content sizes of those generated (nil: not generated, length 0).
    static func share(_ length: Double, _ boxes: [Extent?]) -> [(Double, Double)] {
        let a = boxes[0], b = boxes[1], c = boxes[2]
        var la = 0.0, lb = 0.0, lc = 0.0
        func shrinkToFit(_ e: Extent?, _ available: Double) -> Double {
            guard let e else { return 0 }
            return Swift.min(Swift.max(e.min, available), e.max)
        }
        if let b {
            let acMax = 2 * Swift.max(a?.max ?? 0, c?.max ?? 0), acMin = 2 * Swift.max(a?.min ?? 0, c?.min ?? 0)
            if length >= b.max + acMax {
                lb = b.max
            } else {
                lb = b.min
                let available = length - b.min - acMin
                let weightB = b.max - b.min, weightAC = acMax - acMin
                if available > 0, weightB + weightAC > 0 { lb += available * weightB / (weightB + weightAC) }
            }
            la = shrinkToFit(a, (length - lb) / 2)
            lc = shrinkToFit(c, (length - lb) / 2)
        } else {
            let maxA = a?.max ?? 0, maxC = c?.max ?? 0
            if length >= maxA + maxC {
                la = maxA; lc = maxC
            } else {
                la = a?.min ?? 0; lc = c?.min ?? 0
                let available = length - la - lc
                let weightA = maxA - la, weightC = maxC - lc
                if available > 0, weightA + weightC > 0 {
                    la += available * weightA / (weightA + weightC)
                    lc += available * weightC / (weightA + weightC)
                }
            }
        }
        return [(0, la), ((length - lb) / 2, lb), (length - lc, lc)]
    }
}
