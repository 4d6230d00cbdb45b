import Foundation
import Logging
import HandlerSupport
import MarkupProtocol

/// Lays out HTML, like UIKit's UIMarkupTextPrintFormatter: WebKit (in swiftprint-markup, a
/// process of its own) lays the document out on pages exactly the size of the formatter's
/// content rect, and each of its pages is placed by reference — text stays text, fonts are
/// subset — inside the page renderer's header, footer and insets.
///
/// `contentInsets.top` works as in UIKit (the first page only): the document gets that much
/// blank space at its top. The document's own `@page` size and margins are read first and
/// offered as `documentPageSetup` (the job's paper follows them unless the job sets its own);
/// an `@page :first` top margin adds to `contentInsets.top`.
///
/// Safe by default, for documents from strangers: the page fetches nothing from the network,
/// reads files only from its own folder (none at all for `markupText` without a `baseURL`),
/// and its scripts do not run unless `scriptsEnabled` is set.
public final class MarkupTextPrintFormatter: PrintFormatter {
    /// The HTML, when the formatter was made from text.
    public let markupText: String?
    /// What relative links in `markupText` resolve against; files in its folder may be read.
    public var baseURL: URL?
    /// Whether the page's own scripts run (off by default).
    public var scriptsEnabled = false
    /// Seconds loading and laying the document out may each take.
    public var timeout: Double = JobLimits.defaults.markupSeconds
    /// Bytes of memory each of the renderer's processes (WebKit's included) may use, when this
    /// document starts the renderer.
    package var rendererMemoryBytes = JobLimits.defaults.helperMegabytes << 20

    enum Source {
        /// HTML, and the file it was made from (a Markdown file), which errors name.
        case text(String, madeFrom: String?)
        case file(path: String, displayName: String, readsOwnFolder: Bool)
    }

    let source: Source
    private(set) var pageStyle: PageStyle?
    /// The document's margin boxes and named strings (read with the page style).
    private(set) var pagedMedia = PagedMediaRules()
    /// The elements that set strings, start a side, reset the page number, start a named page,
    /// are linked to or are headings, found before the first print (MarkupPagePlan.swift).
    var described: Described?
    /// The generated content last put into the document.
    var appliedGenerated: [GeneratedContent] = []
    /// This formatter's name for its destinations, apart from another document's in one job.
    private(set) lazy var destinationPrefix = "swiftprint-\(UInt(bitPattern: ObjectIdentifier(self).hashValue))"

    static let logger = Logger(label: "swiftprint.markup")
    var rendered: RenderedDocument?
    /// The named pages whose own rules (`@page wide`, `@page wide:left` …) set a size or margins
    /// (`@page wide { size: A4 landscape }`): those may need a print of their own.
    private(set) var namedPagesSettingTheirSheet: Set<String> = []

    public override var placesContent: Bool { true }

    public override func documentPageSetup() throws -> DocumentPageSetup? { try loadPageStyle().setup }

    /// The folder whose files the page may read, instead of its own (`--allow-files`); only
    /// where it may read local files at all.
    public var allowedFolder: URL?

    /// The page's `document.title` (its `<title>`, white space collapsed), read with its page style.
    public override var documentTitle: String? { loadedTitle }
    private var loadedTitle: String?

    /// The edges the document's margin boxes fill (known once its page style is read).
    public override var documentMarginEdges: PageMarginEdges {
        var edges: PageMarginEdges = []
        for rule in pagedMedia.pageRules {
            for (position, declarations) in rule.boxes where declarations["content"].flatMap(MarginBoxContent.parse) != nil {
                if position.isOnTopEdge { edges.insert(.top) }
                if position.isOnBottomEdge { edges.insert(.bottom) }
            }
        }
        return edges
    }

    /// A formatter for `markupText` (HTML).
    public convenience init(markupText: String) {
        self.init(markupText: markupText, madeFrom: nil)
    }

    /// A formatter for HTML made from the file at `madeFrom` (Markdown), which errors name.
    init(markupText: String, madeFrom: String?) {
        self.markupText = markupText
        source = .text(markupText, madeFrom: madeFrom)
        super.init()
    }

    /// A formatter for an HTML file; `readsOwnFolder` lets the page use files beside it.
    init(file path: String, displayName: String, readsOwnFolder: Bool) {
        markupText = nil
        source = .file(path: path, displayName: displayName, readsOwnFolder: readsOwnFolder)
        super.init()
    }

    var displayName: String {
        switch source {
        case .text: "markup text"
        case .file(_, let name, _): name
        }
    }

    /// The name of the document `markupText` was made from (a Markdown file's), as people know it.
    var documentName: String?

    /// The file errors name: the HTML file, or the Markdown file `markupText` came from.
    var errorPath: String? {
        switch source {
        case .file(let path, _, _): path
        case .text(_, let madeFrom): madeFrom
        }
    }

    /// Loads the document and reads its @page rules (once); an @page :first top margin is
    /// added to `contentInsets.top`.
    @discardableResult
    public func loadPageStyle() throws -> PageStyle {
        if let pageStyle { return pageStyle }
        let reply = try renderer(.load)
        let style = PageStyle(rules: reply.answer?.rules ?? [])
        warnNotLoaded(reply.answer?.notLoaded ?? [])
        loadedTitle = reply.answer.map(\.title)?.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if loadedTitle?.isEmpty == true { loadedTitle = nil }
        contentInsets.top += style.firstPageExtraTop
        pagedMedia = PagedMediaRules(styleSheets: reply.answer?.styleTexts ?? [])
        if style.sideMarginsChangeTheWidth {
            Self.logger.warning("\(shownName): its left-hand and right-hand pages (@page :left, :right) are of different widths, which WebKit cannot lay out: their side margins are not applied")
        }
        // What such a page's size and margins are is the cascade's, page by page (NamedPageSheets.swift).
        for rule in pagedMedia.pageRules {
            if let name = rule.name, NamedPageSetup(declarations: rule.declarations) != nil { namedPagesSettingTheirSheet.insert(name) }
        }
        pageStyle = style
        return style
    }

    /// The request fields that say which document, how loaded.
    private func request(_ operation: MarkupTask.Operation) throws -> HelperRequest<MarkupTask> {
        var task = MarkupTask(operation: operation, timeout: timeout)
        var input: String?
        task.scripts = scriptsEnabled
        task.owner = destinationPrefix
        switch source {
        case .text(let html, _):
            task.html = html
            if let baseURL {
                task.baseURL = baseURL.absoluteString
                task.allowedFolderURL = readableFolder?.absoluteString
            } else {
                task.baseURL = try Self.emptyFolderURL().appendingPathComponent("document.html").absoluteString
            }
        case .file(let path, _, let readsOwnFolder):
            // Absolute: a shared renderer does not run in this process's folder.
            let url = URL(fileURLWithPath: path).standardizedFileURL
            input = url.path
            if readsOwnFolder {
                task.baseURL = url.absoluteString
                task.allowedFolderURL = readableFolder?.absoluteString
            } else {
                // Nothing local may be read (a CUPS job: the spool folder holds other users'
                // jobs): the page is loaded as if it sat alone in an empty folder.
                task.baseURL = try Self.emptyFolderURL().appendingPathComponent(url.lastPathComponent).absoluteString
            }
        }
        return HelperRequest(input: input, task: task)
    }

    func renderer(_ operation: MarkupTask.Operation,
                          configure: (inout HelperRequest<MarkupTask>) -> Void = { _ in }) throws -> HelperReply<PageStyleReport> {
        var r = try request(operation)
        configure(&r)
        let started = ContinuousClock.now
        let reply = try MarkupRendererProcess.shared.send(r, path: errorPath ?? displayName,
                                                          limits: ChildProcess.Limits(memoryBytes: rendererMemoryBytes))
        Self.logger.debug("WebKit \(operation): \(reply.failure == nil ? "done" : "failed") in \(ContinuousClock.now - started)")
        if let failure = reply.failure {
            var error = failure.error
            error.path = errorPath
            throw error
        }
        return reply
    }

    /// An empty folder of this process's own, to load documents from when they may read nothing.
    static func emptyFolderURL() throws -> URL {
        try emptyFolder.get()
    }

    private static let emptyFolder: Result<URL, Error> = Result {
        let path = try TemporaryFiles.makePrivateDirectory(prefix: "swiftprint-markup-empty-")
        atexit { if let url = try? MarkupTextPrintFormatter.emptyFolder.get() { rmdir(url.path) } }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    // MARK: Pages

    /// A scratch file removed when the last holder lets it go.
    final class KeptScratch {
        let file: OutputFile
        init(_ file: OutputFile) { self.file = file }
        var path: String? { file.scratchPath }
        deinit { file.removeScratch() }
    }

    /// The document printed by WebKit for pages of `pageSize` points, the first of which starts
    /// `firstPageTopInset` further down.
    struct RenderedDocument {
        let pageSize: CGSize
        let firstPageTopInset: Double
        let document: QPDFDocument
        /// WebKit's PDF as it printed it, kept while the page map may need it as its plain print.
        let print: KeptScratch?
    }

    func render(pageSize: CGSize, firstPageTopInset: Double) throws -> RenderedDocument {
        if let rendered, rendered.pageSize == pageSize, rendered.firstPageTopInset == firstPageTopInset { return rendered }
        let result = try printDocument(pageSize: pageSize, firstPageTopInset: firstPageTopInset)
        rendered = result
        return result
    }

    /// The document printed at `pageSize`, as `render` does, without keeping it as the
    /// formatter's print (a named page's print at its own size).
    func printDocument(pageSize: CGSize, firstPageTopInset: Double) throws -> RenderedDocument {
        try loadPageStyle()
        // Marks the elements that start a side, a page number or a named page (and breaks the
        // page before each change of name) before anything is printed.
        if described == nil { described = try describeElements() }
        let scratch = try OutputFile.scratch(prefix: "swiftprint-markup-")
        // The page map reads this print again when elements are to be placed; else it goes.
        let keep = described?.elements.isEmpty == false
        // Removed when the last holder lets it go, or at once when the page map will not read it.
        let kept = KeptScratch(scratch)
        try scratch.commit()
        _ = try renderer(.print) {
            $0.output = scratch.scratchPath!
            $0.task.pageWidth = pageSize.width
            $0.task.pageHeight = pageSize.height
            $0.task.firstPageTopInset = firstPageTopInset
        }
        return try renderedDocument(kept, pageSize: pageSize, firstPageTopInset: firstPageTopInset, keepingPrint: keep)
    }

    /// The document WebKit printed to `print`: its pages opened and their fonts cut down, and
    /// the file itself kept as long as the result when `keepingPrint`.
    func renderedDocument(_ print: KeptScratch, pageSize: CGSize, firstPageTopInset: Double, keepingPrint keep: Bool) throws -> RenderedDocument {
        // qpdf maps the file, so the scratch copy can go as soon as it is open.
        let document = try QPDFDocument(path: print.path!)
        guard document.pageCount > 0 else { throw PrintError(.noContent, path: errorPath, "WebKit printed no pages") }
        // WebKit embeds each TrueType face whole (half a megabyte apiece under a subset name).
        let started = ContinuousClock.now
        let fonts = try document.subsetEmbeddedFonts()
        let why = fonts.keptWhole.map { "; all kept whole: \($0)" } ?? ""
        Self.logger.debug(
            "\(fonts.fonts) fonts subset, \(fonts.bytesBefore) -> \(fonts.bytesAfter) bytes in \(ContinuousClock.now - started)\(why)")
        return RenderedDocument(pageSize: pageSize, firstPageTopInset: firstPageTopInset, document: document,
                                print: keep ? print : nil)
    }

    /// The document is loaded here, as its pages are about to be laid out, and not when the
    /// formatter is made: in a job of several documents the one web view then loads each once,
    /// right before printing it, instead of loading them all and the earlier ones again.
    public override func makePageStream() throws -> FormattedPageStream {
        try loadPageStyle()
        return MarkupPageStream(formatter: self)
    }

    final class MarkupPageStream: FormattedPageStream, ProgressEstimating {
        let formatter: MarkupTextPrintFormatter
        var document: RenderedDocument?
        var plan: PagePlan?
        var next = 0

        init(formatter: MarkupTextPrintFormatter) { self.formatter = formatter }

        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            if document == nil {
                // The first page is shorter by the top inset; WebKit lays out every page at
                // the later pages' height and leaves the inset blank on the first.
                let height = min(size.height + formatter.contentInsets.top, formatter.maximumContentHeight)
                let pageSize = CGSize(width: size.width, height: height)
                var rendered = try formatter.render(pageSize: pageSize, firstPageTopInset: height - size.height)
                var planned = try formatter.plan(for: rendered)
                // Page numbers put into the text (a table of contents) may move what follows:
                // printed again until they hold (three rounds at most).
                var settled = false
                for _ in 0..<3 {
                    guard try formatter.applyTargetCounters(planned) else { settled = true; break }
                    rendered = try formatter.render(pageSize: pageSize, firstPageTopInset: height - size.height)
                    planned = try formatter.plan(for: rendered)
                }
                if !settled, formatter.targetCountersWouldChange(planned) {
                    MarkupTextPrintFormatter.logger.warning(
                        "\(formatter.errorPath ?? formatter.displayName): the page numbers of its target-counter() content did not settle in three prints; some may be a page off")
                }
                // The plan may be for WebKit's second print of the document (ElementPageMap):
                // that one is placed.
                if let reprinted = planned.reprinted { rendered = reprinted; formatter.rendered = reprinted }
                document = rendered
                plan = planned
            }
            guard let document, let plan, next < plan.slots.count else { return nil }
            defer { next += 1 }
            // A page of WebKit's main print, or of the print at its named page's own size.
            let source = plan.slots[next].map { plan.pages[$0] }
            let print = source?.namedPrint.map { plan.namedPrints[$0] }
            let placed = try source.map { try PlacedContent(page: $0.page, of: (print?.rendered ?? document).document) }
            // A named page's paper and margins, by the cascade for its side; a blank page's by
            // `:blank` (MarkupPagePlan.swift).
            let area = plan.ownAreas[next]
            return MarkupPage(content: placed, size: area?.pageSize ?? document.pageSize, ownArea: area, index: next, decorations: plan.decorations,
                              edgesTaken: formatter.marginEdgesTakenByJob, headings: plan.headings[next] ?? [],
                              style: formatter.pageStyle, links: plan.links[next] ?? [], destinations: plan.destinations[next] ?? [])
        }

        var fractionDone: Double? {
            plan.map { Double(next) / Double(max(1, $0.slots.count)) }
        }
    }

    struct MarkupPage: FormattedPage {
        /// WebKit's page; nil for a blank page put in so that the next starts on its side.
        let content: PlacedContent?
        let size: CGSize
        /// The page's own paper and margins, when it has them (a named page's, a blank page's).
        let ownArea: OwnPageArea?
        var sheet: SheetRequest { ownArea.map { .paper($0.paper, margins: $0.margins) } ?? .jobPaper }
        /// The page's place in its document (from 0), and the document's margin boxes.
        let index: Int
        let decorations: PageDecorations?
        /// Edges the job's own header or footer takes: the document's boxes there are left out.
        let edgesTaken: PageMarginEdges
        /// The headings that start on the page: bookmarks to where they start (the page's top
        /// when unknown).
        let headings: [(title: String, level: Int, top: Double?)]
        /// The document's page style, for its `:left`/`:right` margins.
        let style: PageStyle?
        /// The page's links (boxes on WebKit's page) and the destinations it names.
        let links: [(box: CGRect, target: GraphicsContext.LinkTarget)]
        let destinations: [(name: String, top: Double)]

        func draw(in context: GraphicsContext, rect: CGRect) throws {
            // Bottom-aligned: on the first page the blank inset rises above the shorter rect.
            // (A named page's sheet has its own paper and margins: its rect is within them.)
            var area = CGRect(x: rect.minX, y: rect.maxY - size.height, width: size.width, height: size.height)
            if ownArea == nil, let paper = context.paperRect, let x = style?.pageAreaMinX(forPage: index, paper: paper, area: area) {
                // A left-hand or right-hand page of a book sits at its own side's margin.
                area.origin.x = x
            }
            if let content { try context.place(content, in: area) }
            for heading in headings { context.addOutlineEntry(heading.title, level: heading.level, at: area.minY + (heading.top ?? 0)) }
            for link in links { context.addLink(to: link.target, over: link.box.offsetBy(dx: area.minX, dy: area.minY)) }
            for destination in destinations { context.addDestination(destination.name, at: area.minY + destination.top) }
            // The margin boxes fill the paper around the page area, drawn as text.
            guard let decorations, let paper = context.paperRect else { return }
            let generated = decorations.boxes(forPage: index).filter { position, _ in
                !(edgesTaken.contains(.top) && position.isOnTopEdge) && !(edgesTaken.contains(.bottom) && position.isOnBottomEdge)
            }
            let boxes = MarginBoxLayout.place(generated, paper: paper, area: area) {
                context.size(of: $0, font: $1)
            }
            for box in boxes { box.draw(in: context) }
        }
    }
}
