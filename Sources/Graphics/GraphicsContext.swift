import CCairo
import CPango
import Foundation
import PDFObjects
import PrintModel

/// Where page renderers and formatters draw: paths, fills and strokes, colours, text, images,
/// clipping and transforms, in points with the origin at the top-left of the page.
/// It wraps the cairo context of the page being written; no C type shows through.
public final class GraphicsContext {
    /// The cairo context, for code inside the package (handlers drawing glyphs directly).
    /// Reaching for it counts as marking the sheet: the assembler then keeps cairo's page.
    package var cairo: OpaquePointer { marked = true; return raw }
    /// The context itself, for calls that leave no mark (state, transforms, status).
    package let raw: OpaquePointer
    /// Whether anything may have been drawn on the sheet since `marked` was last cleared.
    package var marked = false
    package let fonts: FontSystem
    private lazy var textLayout = TextLayout(fonts: fonts)

    package init(surface: OpaquePointer, fonts: FontSystem) {
        raw = cairo_create(surface)
        self.fonts = fonts
    }

    deinit { FontEngineLock.held { cairo_destroy(raw) } }

    // MARK: State and transforms

    /// Saves the graphics state; pair with `restoreState()`.
    public func saveState() { cairo_save(raw) }
    public func restoreState() { cairo_restore(raw) }

    /// Runs `body` between saveState() and restoreState().
    public func withSavedState<T>(_ body: () throws -> T) rethrows -> T {
        saveState(); defer { restoreState() }
        return try body()
    }

    public func translateBy(x: Double, y: Double) { cairo_translate(raw, x, y) }
    public func scaleBy(x: Double, y: Double) { cairo_scale(raw, x, y) }
    /// Rotates by `angle` radians, clockwise on the page (y grows downwards).
    public func rotate(by angle: Double) { cairo_rotate(raw, angle) }

    // MARK: Colour and line

    public func setFillColor(_ color: Color) { fillColor = color }
    public func setStrokeColor(_ color: Color) { strokeColor = color }
    public func setLineWidth(_ width: Double) { cairo_set_line_width(raw, width) }
    public func setLineDash(_ lengths: [Double], phase: Double = 0) { cairo_set_dash(raw, lengths, Int32(lengths.count), phase) }
    /// Round joins and ends (routes, outlines) instead of mitred corners and square-cut ends.
    public func setRoundLineJoinsAndCaps() {
        cairo_set_line_join(raw, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(raw, CAIRO_LINE_CAP_ROUND)
    }

    private var fillColor = Color.black
    private var strokeColor = Color.black

    private func use(_ c: Color) { cairo_set_source_rgba(cairo, c.red, c.green, c.blue, c.alpha) }
    /// Draws what follows (text, glyph runs) in `c`.
    package func useColor(_ c: Color) { use(c) }

    // MARK: Paths

    public func move(to p: CGPoint) { cairo_move_to(cairo, p.x, p.y) }
    public func addLine(to p: CGPoint) { cairo_line_to(cairo, p.x, p.y) }
    public func addCurve(to p: CGPoint, control1 c1: CGPoint, control2 c2: CGPoint) {
        cairo_curve_to(cairo, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
    }
    public func addRect(_ r: CGRect) { cairo_rectangle(cairo, r.minX, r.minY, r.width, r.height) }
    public func addEllipse(in r: CGRect) {
        guard r.width > 0, r.height > 0 else { return }
        cairo_save(raw)
        cairo_translate(cairo, r.midX, r.midY)
        cairo_scale(cairo, r.width / 2, r.height / 2)
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, 0, 0, 1, 0, 2 * .pi)
        cairo_restore(raw)
    }
    public func closePath() { cairo_close_path(cairo) }

    /// Fills the current path with the fill colour and clears it, unless `keepingPath` (to
    /// stroke the same path next). `evenOdd`: inner rings are holes whichever way they run.
    public func fillPath(evenOdd: Bool = false, keepingPath: Bool = false) {
        use(fillColor)
        cairo_set_fill_rule(cairo, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        if keepingPath { cairo_fill_preserve(cairo) } else { cairo_fill(cairo) }
    }
    /// Strokes the current path with the stroke colour and clears it.
    public func strokePath() { use(strokeColor); cairo_stroke(cairo) }
    public func fill(_ r: CGRect) { addRect(r); fillPath() }
    public func stroke(_ r: CGRect) { addRect(r); strokePath() }
    public func strokeLine(from a: CGPoint, to b: CGPoint) { move(to: a); addLine(to: b); strokePath() }

    /// Limits later drawing to `r` (until the state is restored).
    public func clip(to r: CGRect) { addRect(r); cairo_clip(cairo) }

    // MARK: Text

    /// Draws one paragraph of text with its top-left at `point`, unwrapped.
    public func draw(_ text: String, at point: CGPoint, font: Font, color: Color = .black) {
        let layout = prepare(text, font: font, width: nil, alignment: .left)
        use(color)
        layout.draw(at: point, on: cairo)
    }

    /// Draws text wrapped to `rect`'s width, aligned, clipped to the rect; returns the height used.
    @discardableResult
    public func draw(_ text: String, in rect: CGRect, font: Font, color: Color = .black,
                     alignment: TextAlignment = .left) -> Double {
        let layout = prepare(text, font: font, width: rect.width, alignment: alignment)
        withSavedState {
            clip(to: rect)
            use(color)
            layout.draw(at: rect.origin, on: cairo)
        }
        return layout.size.height
    }

    /// The size text takes in `font`, wrapped to `width` when one is given.
    public func size(of text: String, font: Font, width: Double? = nil) -> CGSize {
        prepare(text, font: font, width: width, alignment: .left).size
    }

    private func prepare(_ text: String, font: Font, width: Double?, alignment: TextAlignment) -> TextLayout {
        let layout = textLayout
        layout.setFont(font)
        layout.setWidth(width)
        layout.setWrap(.wordChar)
        layout.setAlignment(alignment)
        layout.setText(text)
        return layout
    }

    // MARK: Placed content

    /// Collects the placements of the sheet being drawn when the job assembles PDF objects;
    /// nil when the writer streams straight out of cairo.
    package var placements: [Placement]?
    /// The sheet's height, for turning cairo's top-down space into PDF's bottom-up one.
    package var sheetHeight: Double = 0
    /// The paper of the page being drawn, as its renderer set it (a cell's in a photo grid).
    package var paperRect: CGRect?
    /// The outline entries (bookmarks) of the sheet being drawn, with their height in PDF space;
    /// nil when the writer keeps none.
    package var outline: [(title: String, level: Int, top: Double)]?

    /// Where a link goes: a URI, or a destination some page names (`addDestination`).
    public enum LinkTarget: Sendable, Equatable {
        case uri(String)
        case destination(String)
    }

    /// The links and named destinations of the sheet being drawn, in PDF space; nil when the
    /// writer keeps none.
    package var links: [(box: CGRect, target: LinkTarget)]?
    package var destinations: [(name: String, top: Double)]?

    /// Makes `rect` (in the current coordinates) of this page a link to `target`. Ignored by
    /// writers that keep no links (raster output).
    public func addLink(to target: LinkTarget, over rect: CGRect) {
        links?.append((CGRect(enclosing: rect.corners.map(sheetPoint)), target))
    }

    /// `p` (in the current coordinates) in the sheet's PDF space (from its bottom-left corner).
    private func sheetPoint(_ p: CGPoint) -> CGPoint {
        var m = cairo_matrix_t()
        cairo_get_matrix(raw, &m)
        return CGPoint(x: m.xx * p.x + m.xy * p.y + m.x0, y: sheetHeight - (m.yx * p.x + m.yy * p.y + m.y0))
    }

    /// Names height `y` (in the current coordinates) of this page as a destination links can go
    /// to (`LinkTarget.destination`). The first page to name it keeps it.
    public func addDestination(_ name: String, at y: Double) {
        destinations?.append((name, sheetPoint(CGPoint(x: 0, y: y)).y))
    }

    /// Writes the sheet's links and destinations as cairo's own PDF tags (the streamed writer).
    package func writeLinkTags() {
        func quoted(_ s: String) -> String {
            "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        }
        for destination in destinations ?? [] {
            cairo_tag_begin(raw, CAIRO_TAG_DEST, "name=\(quoted(destination.name)) x=0 y=\(sheetHeight - destination.top)")
            cairo_tag_end(raw, CAIRO_TAG_DEST)
        }
        for link in links ?? [] {
            let box = link.box
            let area = "rect=[\(box.minX) \(sheetHeight - box.maxY) \(box.width) \(box.height)]"
            let target = switch link.target {
            case .uri(let uri): "uri=\(quoted(uri))"
            case .destination(let name): "dest=\(quoted(name))"
            }
            cairo_tag_begin(raw, CAIRO_TAG_LINK, "\(area) \(target)")
            cairo_tag_end(raw, CAIRO_TAG_LINK)
        }
    }

    /// Adds an entry to the PDF's outline (a bookmark, as a heading makes): `title` at `level`
    /// (1 at the top), going to height `y` (in the current coordinates) of this page. Ignored
    /// by writers that keep no outline (raster output).
    public func addOutlineEntry(_ title: String, level: Int, at y: Double) {
        outline?.append((title, level, sheetPoint(CGPoint(x: 0, y: y)).y))
    }

    /// Places `content` (a page of a PDF, an image stored as it came) stretched over `rect`,
    /// under the current transform. It is written as a reference to the object, never redrawn,
    /// and sits beneath everything drawn with this context on the same page. The context's clip
    /// does not apply to it; `clip` (in the same coordinates as `rect`) does.
    /// The formatter or renderer must say `placesContent`.
    public func place(_ content: PlacedContent, in rect: CGRect, clippedTo clip: CGRect? = nil) throws {
        guard placements != nil else {
            throw PrintError(.renderingFailed, "placed content needs a job that assembles PDF objects: the formatter or renderer must say placesContent")
        }
        var m = cairo_matrix_t()
        cairo_get_matrix(raw, &m)
        let box = content.objectBox
        let toRect = PDFMatrix(a: rect.width / box.width, b: 0, c: 0, d: -rect.height / box.height, e: rect.minX, f: rect.maxY)
        let ctm = PDFMatrix(a: m.xx, b: m.yx, c: m.xy, d: m.yy, e: m.x0, f: m.y0)
        let flip = PDFMatrix(a: 1, b: 0, c: 0, d: -1, e: 0, f: sheetHeight)
        let toSheet = ctm.concatenating(flip)
        let matrix = content.objectToBox.concatenating(toRect).concatenating(toSheet)
        let corners = clip.map { c in
            [CGPoint(x: c.minX, y: c.minY), CGPoint(x: c.maxX, y: c.minY), CGPoint(x: c.maxX, y: c.maxY), CGPoint(x: c.minX, y: c.maxY)]
                .map(toSheet.apply(to:))
        }
        placements!.append(Placement(content: content, matrix: matrix, clip: corners))
    }

    // MARK: Images

    /// Draws a PNG image scaled to fill `rect`.
    public func drawPNG(at path: String, in rect: CGRect) throws {
        let image = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(image) }
        let status = cairo_surface_status(image)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PrintError(.invalidInput, path: path, "cannot read PNG: \(String(cString: cairo_status_to_string(status)))",
                             status: Int32(status.rawValue))
        }
        let w = Double(cairo_image_surface_get_width(image)), h = Double(cairo_image_surface_get_height(image))
        withSavedState {
            cairo_translate(cairo, rect.minX, rect.minY)
            cairo_scale(cairo, rect.width / w, rect.height / h)
            cairo_set_source_surface(cairo, image, 0, 0)
            cairo_paint(cairo)
        }
    }
}
