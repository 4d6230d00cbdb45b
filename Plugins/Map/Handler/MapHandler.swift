import Foundation
import Logging
import HandlerSupport
import MapProtocol

/// Maps — GeoJSON, GPX, map descriptions and MBTiles overviews — drawn by `swiftprint-map` in a
/// process of its own. The map engine (`MapEngine` in Plugins/Map/Engine: GRDB and SQLite for
/// MBTiles, libxml2 for GPX, gdk-pixbuf for tiles, tile downloads) then loads only for map jobs;
/// every other job starts without it (~3 MB less at its peak), and untrusted map files are parsed
/// outside the job's process. The helper draws each sheet's map as a PDF page, which this places
/// by reference, never redrawn. The job's settings go to the helper as JSON, typed as they are.
public struct MapHandler: ContentHandler {
    public let name = "map"
    public let contentTypes = ["public.geojson", "com.topografix.gpx", "org.swiftprint.map-description", "org.mapbox.mbtiles"]

    public init() {}

    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        MapHelperFormatter(path: input.path, head: input.head, settings: settings)
    }
}

/// Lays out the helper's pages: one per sheet (a poster's sheets, or the one map).
final class MapHelperFormatter: PrintFormatter {
    let path: String
    let settings: JobSettings
    /// The document's first bytes, when detection read them already.
    let head: Data?
    /// The helper's drawings by content area and margin, kept for the job's second pass (a job
    /// that counts pages first) and for every sheet of a poster.
    private var drawings: [Drawing: QPDFDocument] = [:]
    struct Drawing: Hashable { var width, height, margin: Double }
    private let logger = Logger(label: "swiftprint.map")

    init(path: String, head: Data?, settings: JobSettings) {
        self.path = path
        self.head = head
        self.settings = settings
        super.init()
    }

    override var placesContent: Bool { true }

    /// A map description may name its paper and orientation. The job chooses its paper before
    /// the map is drawn, so these two keys are read here; the helper reads the rest.
    override func documentPageSetup() throws -> DocumentPageSetup? {
        struct PaperKeys: Decodable { var paper: String?; var orientation: String? }
        guard String(decoding: head ?? ContentDetector.head(of: path), as: UTF8.self).contains("\"swiftprint-map\""),
              let data = FileBytes.read(path),
              let keys = try? JSONDecoder().decode(PaperKeys.self, from: data) else { return nil }
        return try DocumentPageSetup.named(paper: keys.paper, orientation: keys.orientation, path: path)
    }

    /// With no renderer (one document of several), no margin yet: the map is drawn again with
    /// the page's real one.
    override func makePageStream() throws -> FormattedPageStream { PageStream(formatter: self, margin: 0) }

    /// The space above the content area, where a poster prints its marks.
    override func makePageStream(in environment: LayoutEnvironment) throws -> FormattedPageStream {
        PageStream(formatter: self, margin: Double(contentRect(inPageArea: environment.contentArea, isFirstPage: true).minY))
    }

    final class PageStream: FormattedPageStream {
        let formatter: MapHelperFormatter
        /// Every sheet, drawn for the first page's content area as the map is planned once.
        var sheets: (document: QPDFDocument, drawing: Drawing)?
        var next = 0
        /// The space above the content area on the first page.
        let margin: Double
        init(formatter: MapHelperFormatter, margin: Double) { self.formatter = formatter; self.margin = margin }

        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            if sheets == nil {
                let drawing = Drawing(width: Double(size.width), height: Double(size.height), margin: margin)
                sheets = (try formatter.document(for: drawing), drawing)
            }
            guard let sheets, next < sheets.document.pageCount else { return nil }
            defer { next += 1 }
            return SheetPage(formatter: formatter, index: next, drawing: sheets.drawing,
                             content: try PlacedContent(page: next, of: sheets.document))
        }
    }

    /// One sheet's map: the helper's page is the content area with the margin around it.
    struct SheetPage: FormattedPage {
        let formatter: MapHelperFormatter
        let index: Int
        let drawing: Drawing
        let content: PlacedContent

        func draw(in context: GraphicsContext, rect: CGRect) throws {
            var drawing = drawing
            drawing.margin = Double(rect.minY)
            let content = drawing == self.drawing ? content : try PlacedContent(page: index, of: formatter.document(for: drawing))
            try context.place(content, in: rect.insetBy(dx: -drawing.margin, dy: -drawing.margin))
        }
    }

    /// The helper's drawing of every sheet for `drawing`'s content area and margin.
    func document(for drawing: Drawing) throws -> QPDFDocument {
        if let document = drawings[drawing] { return document }
        let request = HelperRequest(input: path, task: MapDrawingTask(width: drawing.width, height: drawing.height, margin: drawing.margin,
                                                                      map: settings.map, limits: settings.limits, localFiles: settings.localFiles))
        let (document, reply) = try HelperProgram.makePDF("swiftprint-map", environmentVariable: "SWIFTPRINT_MAP_HELPER",
                                                          doing: "draw maps", path: path, request: request,
                                                          limits: ChildProcess.Limits(helper: settings.limits))
        // Warnings once per job, from its first drawing.
        if drawings.isEmpty {
            for warning in reply.warnings { logger.warning("\(warning)") }
        }
        drawings[drawing] = document
        return document
    }
}
