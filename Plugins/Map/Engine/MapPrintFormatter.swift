import Foundation
import Logging
import HandlerSupport

/// A map: tiles from a `TileSource` under vector features, fitted to the page, with a scale bar,
/// the numeric scale, a north arrow and the tiles' attribution (always printed). UIKit prints an
/// MKMapView through a view print formatter; this is that for swiftprint.
///
/// The tile zoom follows from the scale and the resolution: the coarsest zoom whose pixels are
/// no coarser than the print's dots (`WebMercator.zoom(forScale:dpi:latitude:)`), at `tileDPI`
/// when set ("screen-equivalent": 96 keeps a map's labels the size they are on screen), capped
/// at the source's highest zoom (tiles are then enlarged) and never below its lowest.
public final class MapPrintFormatter: PrintFormatter {
    /// What part of the world the map shows.
    public enum Framing: Sendable {
        /// The smallest map holding the box, with a margin; the scale is rounded up to two
        /// significant figures (1:23,456 becomes 1:24,000).
        case fit(GeoBox)
        /// Centred there, at scale 1:`scale`.
        case scale(center: GeoCoordinate, scale: Double)
        /// Centred there, with tiles of zoom `zoom` printed at `tileDPI` (or `dpi`).
        case zoom(center: GeoCoordinate, zoom: Int)
    }

    public let source: TileSource
    public var features: [MapFeature]
    public var framing: Framing
    /// The resolution the map is made for, dots per inch.
    public var dpi: Double = 300
    /// Tile pixels per inch on paper, when not `dpi`.
    public var tileDPI: Double?
    public var title: String?
    /// Printed under the map; the source's own attribution when nil. Never left out: a map
    /// with no attribution at all says "Map tiles: unattributed source".
    public var attribution: String?
    public var missingTiles: MissingTilePolicy = .placeholder
    /// At most this many tiles per map, over all its sheets (`JobLimits.tilesPerJob`).
    public var tileLimit = JobLimits.defaults.tilesPerJob
    /// Lines of latitude and longitude, when set.
    var grid: MapGrid?
    /// Draws a lat/lon grid, `spacing` degrees apart (nil: three to eight lines across).
    public func showGrid(spacing: Double? = nil) { grid = MapGrid(spacing: spacing) }
    /// Printed over several sheets, when set.
    public var poster: MapPoster?
    /// The paper and orientation the map asks for (a map description's), under the job's own.
    public var pageSetup: DocumentPageSetup?
    /// The tile source's file, for messages.
    let sourcePath: String
    private let logger = Logger(label: "swiftprint.map")

    public init(source: TileSource, sourcePath: String, features: [MapFeature] = [], framing: Framing) {
        self.source = source
        self.sourcePath = sourcePath
        self.features = features
        self.framing = framing
        super.init()
    }

    public override var placesContent: Bool { true }

    public override func documentPageSetup() throws -> DocumentPageSetup? { pageSetup }

    public override func makePageStream() throws -> FormattedPageStream { MapPageStream(formatter: self) }

    final class MapPageStream: FormattedPageStream {
        let formatter: MapPrintFormatter
        var plan: MapPlan?
        var sheet = 0
        init(formatter: MapPrintFormatter) { self.formatter = formatter }
        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            if plan == nil { plan = try formatter.plan(sheet: size) }
            guard let plan, sheet < (formatter.poster?.sheets ?? 1) else { return nil }
            defer { sheet += 1 }
            return try formatter.page(plan, sheet: sheet)
        }
    }

    // MARK: Layout

    /// The map laid out once for the whole job: on one page, or on a poster's canvas.
    struct MapPlan {
        let layout: MapLayout
        /// The printable area of one sheet.
        let sheetSize: CGSize
    }

    /// One sheet: its window of the map and the tiles under that window.
    struct MapPage: FormattedPage {
        let formatter: MapPrintFormatter
        let layout: MapLayout
        /// The sheet's column, row and window on the canvas (a poster's), or nil.
        let sheet: (column: Int, row: Int, offset: CGPoint)?
        let sheetSize: CGSize
        let mosaic: TileMosaic?
        let content: PlacedContent?

        /// The sheet's window in the formatter's (canvas) coordinates.
        var window: CGRect { CGRect(origin: sheet?.offset ?? .zero, size: sheetSize) }

        func draw(in context: GraphicsContext, rect: CGRect) throws {
            try formatter.draw(self, in: context, origin: rect.origin)
        }
    }

    static let titleFont = Font("Sans Bold 14")!
    static let legendFont = Font("Sans 8")!
    static let legendHeight = 34.0
    /// At most this many poster sheets per map (`JobLimits.sheetsPerPoster`).
    public var sheetLimit = JobLimits.defaults.sheetsPerPoster

    func plan(sheet size: CGSize) throws -> MapPlan {
        if let poster, poster.sheets > sheetLimit {
            // The document's limit, not the tiles' file's: the path is the document's, filled in above.
            throw JobLimits.crossed(LimitOptions.maxSheets, path: nil,
                                    "a poster of \(poster.columns) × \(poster.rows) sheets is more than the limit of \(sheetLimit)")
        }
        if let poster, poster.overlap * 2 >= min(size.width, size.height) {
            throw PrintError(.invalidOption, path: sourcePath, "the poster's overlap leaves no room on the sheet")
        }
        let canvas = poster?.canvasSize(sheet: size) ?? size
        let titleHeight = title == nil ? 0 : 24.0
        let mapRect = CGRect(x: 0, y: titleHeight, width: canvas.width, height: canvas.height - titleHeight - Self.legendHeight)
        guard mapRect.width > 36, mapRect.height > 36 else {
            throw PrintError(.invalidOption, path: sourcePath, "the page leaves no room for a map")
        }
        let layout = try MapLayout(framing: framing, mapSize: mapRect.size, dpi: tileDPI ?? dpi, info: source.info,
                                   origin: mapRect.origin, path: sourcePath)
        let plan = MapPlan(layout: layout, sheetSize: size)
        // The tiles of every sheet, counted before any is asked for: the limit is the job's.
        let tiles = (0..<(poster?.sheets ?? 1)).reduce(0) { sum, index in
            guard let visible = visibleRect(plan, sheet: index) else { return sum }
            let w = layout.mosaicWindow(covering: visible)
            // Saturating: a sheet of a map spanning the world many times over counts up to 2^55.
            let (total, overflow) = sum.addingReportingOverflow(TileMosaic.tileCount(zoom: layout.zoom, x0: w.x0, y0: w.y0, width: w.width, height: w.height))
            return overflow ? .max : total
        }
        if tiles > tileLimit {
            let sheets = poster.map { " over its \($0.sheets) sheets" } ?? ""
            throw JobLimits.crossed(LimitOptions.maxTiles, path: nil,
                                    "the map needs \(tiles) tiles at zoom \(layout.zoom)\(sheets), more than the limit of \(tileLimit)")
        }
        return plan
    }

    /// The part of the map sheet `index` shows, nil when it shows none.
    private func visibleRect(_ plan: MapPlan, sheet index: Int) -> CGRect? {
        let sheet = poster?.sheet(index, size: plan.sheetSize)
        let visible = plan.layout.mapRect.intersection(CGRect(origin: sheet?.offset ?? .zero, size: plan.sheetSize))
        return visible.isNull || visible.width <= 0 || visible.height <= 0 ? nil : visible
    }

    func page(_ plan: MapPlan, sheet index: Int) throws -> MapPage {
        let layout = plan.layout
        let sheet = poster?.sheet(index, size: plan.sheetSize)
        guard let visible = visibleRect(plan, sheet: index) else {
            return MapPage(formatter: self, layout: layout, sheet: sheet, sheetSize: plan.sheetSize, mosaic: nil, content: nil)
        }
        let w = layout.mosaicWindow(covering: visible)
        let mosaic = try TileMosaic(source: source, zoom: layout.zoom, x0: w.x0, y0: w.y0, width: w.width, height: w.height,
                                    missingTiles: missingTiles, tileLimit: tileLimit, sourcePath: sourcePath)
        if !mosaic.missing.isEmpty {
            let which = sheet.map { " on sheet \(MapPoster.label(column: $0.column, row: $0.row))" } ?? ""
            logger.warning("\(sourcePath): \(mosaic.missing.count) tiles missing at zoom \(layout.zoom)\(which): \(mosaic.missing.prefix(8).map(\.description).joined(separator: ", "))")
        }
        let content = PlacedContent(image: mosaic, naturalSize: CGSize(width: w.width, height: w.height))
        return MapPage(formatter: self, layout: layout, sheet: sheet, sheetSize: plan.sheetSize, mosaic: mosaic, content: content)
    }

    // MARK: Drawing

    func draw(_ page: MapPage, in context: GraphicsContext, origin: CGPoint) throws {
        let layout = page.layout
        let window = page.window
        context.saveState()
        defer { context.restoreState() }
        context.translateBy(x: origin.x - window.minX, y: origin.y - window.minY)
        context.clip(to: window)
        let map = layout.mapRect
        let visible = map.intersection(window)
        if let title {
            context.draw(title, in: CGRect(x: 0, y: 0, width: map.width, height: 22), font: Self.titleFont)
        }
        if let mosaic = page.mosaic, let content = page.content {
            try context.place(content, in: layout.rect(ofMosaic: mosaic), clippedTo: visible)
        }
        context.withSavedState {
            context.clip(to: map)
            grid?.draw(in: context, layout: layout, font: Self.legendFont)
            drawFeatures(in: context, layout: layout)
            drawNorthArrow(in: context, at: CGPoint(x: map.maxX - 22, y: map.minY + 10))
            if let missing = page.mosaic?.missing.count, missing > 0 {
                let note = "Incomplete: \(missing) tile\(missing == 1 ? "" : "s") missing"
                let s = context.size(of: note, font: Self.legendFont)
                context.setFillColor(Color(white: 1, alpha: 0.85))
                context.fill(CGRect(x: visible.minX + 6, y: visible.maxY - s.height - 10, width: s.width + 8, height: s.height + 4))
                context.draw(note, at: CGPoint(x: visible.minX + 10, y: visible.maxY - s.height - 8), font: Self.legendFont,
                             color: Color(red: 0.8, green: 0, blue: 0))
            }
        }
        context.setStrokeColor(.black)
        context.setLineWidth(0.75)
        context.stroke(map)
        drawLegend(in: context, layout: layout, below: map)
        if let poster, let sheet = page.sheet {
            context.restoreState()
            context.saveState()
            context.translateBy(x: origin.x, y: origin.y)
            poster.drawMarks(in: context, column: sheet.column, row: sheet.row, size: page.sheetSize, margin: origin.y, font: Self.legendFont)
        }
    }

    private func drawFeatures(in context: GraphicsContext, layout: MapLayout) {
        context.setRoundLineJoinsAndCaps()
        for feature in features {
            let style = feature.style
            let stroke = (Color(parsing: style.stroke) ?? .red).withAlpha(style.strokeOpacity)
            switch feature.geometry {
            case .line(let points):
                guard let first = points.first else { continue }
                context.move(to: layout.pagePoint(first))
                for p in points.dropFirst() { context.addLine(to: layout.pagePoint(p)) }
                context.setStrokeColor(stroke)
                context.setLineWidth(style.strokeWidth)
                context.strokePath()
            case .polygon(let rings):
                for ring in rings {
                    guard let first = ring.first else { continue }
                    context.move(to: layout.pagePoint(first))
                    for p in ring.dropFirst() { context.addLine(to: layout.pagePoint(p)) }
                    context.closePath()
                }
                context.setFillColor((Color(parsing: style.fill) ?? .red).withAlpha(style.fillOpacity))
                context.fillPath(evenOdd: true, keepingPath: true)
                context.setStrokeColor(stroke)
                context.setLineWidth(style.strokeWidth)
                context.strokePath()
            case .point(let p):
                let c = layout.pagePoint(p)
                context.addEllipse(in: CGRect(x: c.x - 4, y: c.y - 4, width: 8, height: 8))
                context.setFillColor(Color(parsing: style.markerColor) ?? .red)
                context.fillPath()
                context.addEllipse(in: CGRect(x: c.x - 4, y: c.y - 4, width: 8, height: 8))
                context.setStrokeColor(.white)
                context.setLineWidth(1.2)
                context.strokePath()
            }
        }
        // Labels over every line and marker: right of their marker, or left of it where the
        // map's edge would cut them, on a pale box so that they read over tiles and lines.
        for feature in features {
            guard case .point(let p) = feature.geometry, let label = feature.label, !label.isEmpty else { continue }
            let c = layout.pagePoint(p)
            let size = context.size(of: label, font: Self.legendFont)
            let x = c.x + 6 + size.width > layout.mapRect.maxX ? c.x - 6 - size.width : c.x + 6
            context.setFillColor(Color(white: 1, alpha: 0.7))
            context.fill(CGRect(x: x - 1.5, y: c.y - 5, width: size.width + 3, height: size.height))
            context.draw(label, at: CGPoint(x: x, y: c.y - 5), font: Self.legendFont)
        }
    }

    private func drawNorthArrow(in context: GraphicsContext, at top: CGPoint) {
        context.move(to: top)
        context.addLine(to: CGPoint(x: top.x + 6, y: top.y + 16))
        context.addLine(to: CGPoint(x: top.x, y: top.y + 12))
        context.addLine(to: CGPoint(x: top.x - 6, y: top.y + 16))
        context.closePath()
        context.setFillColor(.black)
        context.fillPath()
        let s = context.size(of: "N", font: Self.legendFont)
        context.draw("N", at: CGPoint(x: top.x - s.width / 2, y: top.y + 17), font: Self.legendFont)
    }

    /// Under the map: the scale bar and the numeric scale on the left, the attribution on the right.
    private func drawLegend(in context: GraphicsContext, layout: MapLayout, below map: CGRect) {
        let top = map.maxY + 6
        let bar = ScaleBar(scale: layout.scale, maximumLength: map.width / 4)
        let segment = bar.length / 4
        for i in 0..<4 {
            let r = CGRect(x: map.minX + Double(i) * segment, y: top + 10, width: segment, height: 4)
            context.setFillColor(i % 2 == 0 ? .black : .white)
            context.fill(r)
        }
        context.setStrokeColor(.black)
        context.setLineWidth(0.5)
        context.stroke(CGRect(x: map.minX, y: top + 10, width: bar.length, height: 4))
        // The bar's start is the map's edge, so "0" sits just inside it rather than centred on it.
        context.draw("0", at: CGPoint(x: map.minX, y: top), font: Self.legendFont)
        let end = bar.label
        let endSize = context.size(of: end, font: Self.legendFont)
        context.draw(end, at: CGPoint(x: map.minX + bar.length - endSize.width / 2, y: top), font: Self.legendFont)
        let scaleText = "1:\(layout.scale.formatted(.number.grouping(.automatic).precision(.fractionLength(0))))"
            + String(format: "  (true at %.2f° %@; tiles z%d)", abs(layout.center.latitude), layout.center.latitude >= 0 ? "N" : "S", layout.zoom)
        context.draw(scaleText, at: CGPoint(x: map.minX, y: top + 16), font: Self.legendFont)

        let text = (attribution ?? source.info.attribution).flatMap { $0.isEmpty ? nil : $0 } ?? "Map tiles: unattributed source"
        let left = map.minX + max(bar.length + 24, 170)
        let box = CGRect(x: left, y: top, width: map.maxX - left, height: Self.legendHeight - 6)
        // Fitted: smaller type before it is cut, never below 5 pt.
        var size = 8.0
        while size > 5, context.size(of: text, font: Font("Sans \(size)")!, width: box.width).height > box.height { size -= 0.5 }
        context.draw(text, in: box, font: Font("Sans \(size)")!, alignment: .right)
    }
}

/// A scale bar's length: the longest round ground distance (1, 2 or 5 × 10ⁿ metres) whose bar
/// is no longer than `maximumLength` points at scale 1:`scale`.
struct ScaleBar {
    let metres: Double
    let length: Double

    init(scale: Double, maximumLength: Double) {
        let metresPerPoint = scale * 0.0254 / 72
        let most = maximumLength * metresPerPoint
        var best = 1.0
        var magnitude = 1.0
        while magnitude <= most {
            for m in [1.0, 2.0, 5.0] where m * magnitude <= most { best = m * magnitude }
            magnitude *= 10
        }
        metres = best
        length = best / metresPerPoint
    }

    var label: String { metres >= 1000 ? "\((metres / 1000).formatted()) km" : "\(Int(metres)) m" }
}

extension Color {
    func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }
}
