import Foundation
import Logging
import HandlerSupport

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
    public var timeout: Double = 60

    enum Source {
        /// HTML, and the file it was made from (a Markdown file), which errors name.
        case text(String, madeFrom: String?)
        case file(path: String, displayName: String, readsOwnFolder: Bool)
    }

    let source: Source
    private(set) var pageStyle: PageStyle?
    /// The document's margin boxes and named strings (read with the page style).
    private(set) var pagedMedia = PagedMediaRules()
    /// The elements that set strings, start a side, reset the page number or start a named
    /// page, found before the first print.
    private var described: Described?
    /// The generated content last put into the document.
    private var appliedGenerated: [GeneratedContent] = []

    struct Described {
        var elements: [PageStyleReport.Element]
        /// The selector that finds them all, in document order.
        var selector: String
        /// Where the rules sit in each element's `rules`: the string sets first, then the page
        /// names, the target counters, and the side, page reset, page name and target marks.
        var stringSets: [StringSetRule]
        var pageNameRules: Int
        var targetCounters: [TargetCounterRule]
        var firstTargetCounter: Int { stringSets.count + pageNameRules }
        var sideRule: Int { firstTargetCounter + targetCounters.count }
        var resetRule: Int { sideRule + 1 }
        var nameRule: Int { sideRule + 2 }
        var targetRule: Int { sideRule + 3 }
        /// h1 … h6, for the PDF outline: level n is `firstHeadingRule + n - 1`.
        var firstHeadingRule: Int { sideRule + 4 }
        var headingRules: Range<Int> { firstHeadingRule..<(firstHeadingRule + 6) }
        /// Links (`a[href]`), made links of the PDF.
        var linkRule: Int { firstHeadingRule + 6 }
        var hasLinks: Bool { elements.contains { $0.rules.contains(linkRule) } }
    }

    /// The elements that become links of the PDF.
    static let linkSelector = "a[href]"

    /// What a link's `href` goes to in the PDF: a place in the document (`#id`), or an
    /// address of a scheme a reader opens; nil for anything else (relative files, scripts).
    static func linkTarget(_ href: String, document: String) -> GraphicsContext.LinkTarget? {
        if href.hasPrefix("#") {
            let id = String(href.dropFirst()).removingPercentEncoding ?? String(href.dropFirst())
            return id.isEmpty ? nil : .destination(destinationName(id, document: document))
        }
        let scheme = href.prefix { $0 != ":" }.lowercased()
        return href.contains(":") && ["http", "https", "mailto", "ftp", "tel"].contains(scheme) ? .uri(href) : nil
    }

    static func destinationName(_ id: String, document: String) -> String { "\(document)#\(id)" }

    /// This formatter's name for its destinations, apart from another document's in one job.
    private lazy var destinationPrefix = "swiftprint-\(UInt(bitPattern: ObjectIdentifier(self).hashValue))"

    private func describeElements() throws -> Described {
        let sets = PageDecorations.usesStrings(pagedMedia) ? pagedMedia.stringSets : []
        let counters = pagedMedia.targetCounters
        let attributes = Set(sets.flatMap { $0.assignments.flatMap { $0.value.compactMap { part -> String? in
            if case .attribute(let name) = part { name } else { nil }
        } } } + counters.flatMap(\.attributes) + ["id", "href"])
        let names = pagedMedia.pageNames
        // The rules, in the order `Described` counts them.
        var selectors: [String] = sets.map(\.selector)
        selectors += names.map(\.selector)
        selectors += counters.map(\.selector)
        selectors += [PageStyleReport.sideSelector, PageStyleReport.pageResetSelector, PageStyleReport.pageNameSelector,
                      PageStyleReport.targetSelector]
        selectors += (1...6).map { "h\($0)" }
        selectors.append(Self.linkSelector)
        var links: [[String]] = counters.flatMap { rule in rule.parts.compactMap { part -> [String]? in
            if case .targetPage(let attribute, _) = part { [rule.selector, attribute] } else { nil }
        } }
        links.append([Self.linkSelector, "href"])
        let sideRules = pagedMedia.sideBreaks.map { [$0.selector, $0.before ?? "", $0.after ?? ""] }
        let resetRules = pagedMedia.pageResets.map { [$0.selector, String($0.value)] }
        let reply = try renderer(.describeElements) { [selectors, links, sideRules, resetRules] in
            $0.task.ruleSelectors = selectors
            $0.task.attributeNames = attributes.sorted()
                + [PageStyleReport.sideAttribute, PageStyleReport.pageResetAttribute, PageStyleReport.pageNameAttribute]
            $0.task.pageNames = names.map { [$0.selector, $0.name] }
            $0.task.targetLinks = links
            $0.task.sideRules = sideRules
            $0.task.resetRules = resetRules
        }
        return Described(elements: reply.answer?.elements ?? [], selector: reply.answer?.elementsSelector ?? "",
                         stringSets: sets, pageNameRules: names.count, targetCounters: counters)
    }

    /// Whether a plan's `target-counter()` numbers differ from those the document shows.
    func targetCountersWouldChange(_ plan: PagePlan) -> Bool {
        described?.targetCounters.isEmpty == false && plan.generated != appliedGenerated
    }

    /// Puts the page numbers a plan found into the document's `target-counter()` content;
    /// true when that changed what the document shows (it must then be printed again).
    func applyTargetCounters(_ plan: PagePlan) throws -> Bool {
        guard let described, !described.targetCounters.isEmpty, plan.generated != appliedGenerated else { return false }
        _ = try renderer(.setGeneratedContent) { $0.task.generated = plan.generated }
        appliedGenerated = plan.generated
        rendered = nil
        return true
    }
    static let logger = Logger(label: "swiftprint.markup")
    private var rendered: RenderedDocument?

    public override var placesContent: Bool { true }

    public override func documentPageSetup() throws -> DocumentPageSetup? { try loadPageStyle().setup }

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
        contentInsets.top += style.firstPageExtraTop
        pagedMedia = PagedMediaRules(styleSheets: reply.answer?.styleTexts ?? [])
        if style.sideMarginsChangeTheWidth {
            Self.logger.warning("\(errorPath ?? displayName): its left-hand and right-hand pages (@page :left, :right) are of different widths, which WebKit cannot lay out: their side margins are not applied")
        }
        // WebKit lays the whole document out at one page size: a named page's own is not kept.
        for rule in pagedMedia.pageRules where rule.name != nil && rule.declarations.keys.contains(where: { $0 == "size" || $0.hasPrefix("margin") }) {
            Self.logger.warning("\(errorPath ?? displayName): @page \(rule.name!) sets its own size or margins, which are not applied: its pages keep the document's")
        }
        pageStyle = style
        return style
    }

    /// The request fields that say which document, how loaded.
    private func request(_ operation: MarkupTask.Operation) throws -> HelperRequest<MarkupTask> {
        var task = MarkupTask(operation: operation, timeout: timeout)
        var input: String?
        task.scripts = scriptsEnabled
        switch source {
        case .text(let html, _):
            task.html = html
            if let baseURL {
                task.baseURL = baseURL.absoluteString
                task.allowedFolderURL = baseURL.deletingLastPathComponent().absoluteString
            } else {
                task.baseURL = try Self.emptyFolderURL().appendingPathComponent("document.html").absoluteString
            }
        case .file(let path, _, let readsOwnFolder):
            // Absolute: a shared renderer does not run in this process's folder.
            let url = URL(fileURLWithPath: path).standardizedFileURL
            input = url.path
            if readsOwnFolder {
                task.baseURL = url.absoluteString
                task.allowedFolderURL = url.deletingLastPathComponent().absoluteString
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
        let reply = try MarkupRendererProcess.shared.send(r, path: errorPath ?? displayName)
        Self.logger.debug("WebKit \(operation): \(reply.failure == nil ? "done" : "failed") in \(ContinuousClock.now - started)")
        if let failure = reply.failure {
            var error = failure.error
            error.path = errorPath
            throw error
        }
        return reply
    }

    /// An empty folder of this process's own, to load documents from when they may read nothing.
    private static func emptyFolderURL() throws -> URL {
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
        // qpdf maps the file, so the scratch copy can go as soon as it is open.
        let document = try QPDFDocument(path: scratch.scratchPath!)
        guard document.pageCount > 0 else { throw PrintError(.noContent, path: errorPath, "WebKit printed no pages") }
        // WebKit embeds each TrueType face whole (half a megabyte apiece under a subset name).
        let started = ContinuousClock.now
        let fonts = try document.subsetEmbeddedFonts()
        let why = fonts.keptWhole.map { "; all kept whole: \($0)" } ?? ""
        Self.logger.debug(
            "\(fonts.fonts) fonts subset, \(fonts.bytesBefore) -> \(fonts.bytesAfter) bytes in \(ContinuousClock.now - started)\(why)")
        let result = RenderedDocument(pageSize: pageSize, firstPageTopInset: firstPageTopInset, document: document,
                                      print: keep ? kept : nil)
        rendered = result
        return result
    }

    /// The document is loaded here, as its pages are about to be laid out, and not when the
    /// formatter is made: in a job of several documents the one web view then loads each once,
    /// right before printing it, instead of loading them all and the earlier ones again.
    public override func makePageStream() throws -> FormattedPageStream {
        try loadPageStyle()
        return MarkupPageStream(formatter: self)
    }

    /// The pages a rendered document prints as: WebKit's, with a blank page before each that
    /// must start on the other side (`break-before`/`break-after: left | right | recto |
    /// verso`, which WebKit prints as plain page breaks), and their margin boxes.
    struct PagePlan {
        /// Each page of the job's document: a page of WebKit's (its index), or nil for a blank one.
        var slots: [Int?]
        var decorations: PageDecorations?
        /// The content of the document's `target-counter()` rules, with the pages found.
        var generated: [GeneratedContent] = []
        /// The headings that start on each page (by page), for the PDF outline, with how far down.
        var headings: [Int: [(title: String, level: Int, top: Double?)]] = [:]
        /// Each page's links (boxes on WebKit's page) and the destinations it names.
        var links: [Int: [(box: CGRect, target: GraphicsContext.LinkTarget)]] = [:]
        var destinations: [Int: [(name: String, top: Double)]] = [:]
    }

    /// Plans the pages of `rendered`. Where elements start is asked of the page map (two more
    /// prints) only when some element sets a string, needs a side, resets the page number or
    /// starts a named page.
    func plan(for rendered: RenderedDocument) throws -> PagePlan {
        let count = rendered.document.pageCount
        guard let described, !described.elements.isEmpty, !described.selector.isEmpty else {
            return PagePlan(slots: Array(0..<count), decorations: pagedMedia.hasMarginBoxes ? PageDecorations(rules: pagedMedia, pageCount: count) : nil)
        }
        let elements = described.elements
        // On a one-page document every element shown is on that page: no print needed. (An
        // element hidden by print-only style counts as shown there.)
        let map: ElementPageMap
        do {
            // Links need their boxes, which only a print tells, even on one page.
            map = count == 1 && !described.hasLinks
                ? ElementPageMap(pageCount: 1, pages: elements.map { $0.shown == false ? nil : 0 })
                : try elementPages(matching: described.selector, pageSize: rendered.pageSize, firstPageTopInset: rendered.firstPageTopInset,
                                   plainPrint: rendered.print?.path, endsOf: Self.linkSelector)
        } catch let error as PrintError where error.code == .renderingFailed {
            // No exact map: WebKit's pages as they are, without what needs one (named strings,
            // sides, page numbers set by elements, the outline), and the job says so.
            Self.logger.warning("\(errorPath ?? displayName): \(error.message); printed without running strings, recto/verso pages or bookmarks")
            return PagePlan(slots: Array(0..<count), decorations: pagedMedia.hasMarginBoxes ? PageDecorations(rules: pagedMedia, pageCount: count) : nil)
        }
        guard map.pageCount == count else {
            throw PrintError(.renderingFailed, path: errorPath, "WebKit printed \(map.pageCount) pages when placing its elements, \(count) before")
        }
        func marked(_ rule: Int, _ attribute: String) -> [(page: Int, value: String)] {
            elements.indices.compactMap { i in
                guard elements[i].rules.contains(rule), i < map.pages.count, let page = map.pages[i] else { return nil }
                return (page, elements[i].attributes[attribute] ?? "")
            }
        }
        // The side each of WebKit's pages must start on: that of the first element on it that asks.
        var sides: [Int: String] = [:]
        for (page, side) in marked(described.sideRule, PageStyleReport.sideAttribute) where sides[page] == nil { sides[page] = side }
        var slots: [Int?] = []
        for page in 0..<count {
            // The first page is a right-hand one (left to right).
            let wantsRight: Bool? = switch sides[page] {
            case "right"?, "recto"?: true
            case "left"?, "verso"?: false
            default: nil
            }
            if let wantsRight, (slots.count % 2 == 0) != wantsRight { slots.append(nil) }
            slots.append(page)
        }
        var position: [Int: Int] = [:]
        for (index, slot) in slots.enumerated() { if let slot { position[slot] = index } }
        // Page numbers: one more each page, blank ones too; an element's reset gives its page N.
        var resets: [Int: Int] = [:]
        for (page, value) in marked(described.resetRule, PageStyleReport.pageResetAttribute) {
            if let at = position[page], let n = Int(value) { resets[at] = n }
        }
        var numbers: [Int] = [], n = 0
        for index in slots.indices { n = resets[index] ?? (n + 1); numbers.append(n) }
        // target-counter(): each link's text with the number of the page its target starts on.
        var targetNumbers: [String: Int] = [:]
        for i in elements.indices where elements[i].rules.contains(described.targetRule) {
            if i < map.pages.count, let page = map.pages[i], let at = position[page], let id = elements[i].attributes["id"], targetNumbers[id] == nil {
                targetNumbers[id] = numbers[at]
            }
        }
        let generated = described.targetCounters.enumerated().map { k, rule in
            GeneratedContent(selector: rule.selector, pseudo: rule.pseudo, texts: elements.filter { $0.rules.contains(described.firstTargetCounter + k) }.map { element in
                rule.parts.map { part -> String in
                    switch part {
                    case .text(let s): s
                    case .leader: " "
                    case .attribute(let a): element.attributes[a] ?? ""
                    case .targetPage(let a, let style):
                        (element.attributes[a].flatMap { $0.hasPrefix("#") ? targetNumbers[String($0.dropFirst()).removingPercentEncoding ?? ""] : nil })
                            .map { PageDecorations.format($0, style) } ?? ""
                    }
                }.joined()
            })
        }
        // The outline: each heading on the page it starts on, at the level of its h1 … h6.
        var headings: [Int: [(title: String, level: Int, top: Double?)]] = [:]
        for i in elements.indices where i < map.pages.count {
            guard let page = map.pages[i], let at = position[page], !elements[i].text.isEmpty,
                  let rule = elements[i].rules.first(where: { described.headingRules.contains($0) }) else { continue }
            headings[at, default: []].append((elements[i].text, rule - described.firstHeadingRule + 1, i < map.tops.count ? map.tops[i] : nil))
        }
        // Links: each `a[href]` over its text, to a URI or to the element its fragment names.
        var links: [Int: [(box: CGRect, target: GraphicsContext.LinkTarget)]] = [:]
        var destinations: [Int: [(name: String, top: Double)]] = [:]
        for i in elements.indices {
            if elements[i].rules.contains(described.targetRule), let id = elements[i].attributes["id"], !id.isEmpty,
               i < map.pages.count, let page = map.pages[i], let at = position[page] {
                destinations[at, default: []].append((Self.destinationName(id, document: destinationPrefix), i < map.tops.count ? map.tops[i] ?? 0 : 0))
            }
            guard elements[i].rules.contains(described.linkRule),
                  let target = Self.linkTarget(elements[i].attributes["href"] ?? "", document: destinationPrefix) else { continue }
            for (page, box) in map.textBoxes[i] ?? [] {
                if let at = position[page] { links[at, default: []].append((box, target)) }
            }
        }
        guard pagedMedia.hasMarginBoxes else {
            return PagePlan(slots: slots, decorations: nil, generated: generated, headings: headings, links: links, destinations: destinations)
        }
        // Page names: that of the run the page starts in; a blank page takes the page's before it.
        var nameStarts: [Int: String] = [:]
        // A page takes the name of the first run on it.
        for (page, name) in marked(described.nameRule, PageStyleReport.pageNameAttribute) {
            if let at = position[page], nameStarts[at] == nil { nameStarts[at] = name }
        }
        var names: [String?] = [], current: String?
        for index in slots.indices {
            if let name = nameStarts[index] { current = name.isEmpty ? nil : name }
            names.append(current)
        }
        let pages = map.pages.map { $0.flatMap { position[$0] } }
        let assignments = PageDecorations.assignments(rules: described.stringSets, elements: elements, pages: pages, pageCount: slots.count,
                                                      atTop: { map.isFirstOnItsPage($0) })
        let blank = Set(slots.indices.filter { slots[$0] == nil })
        return PagePlan(slots: slots, decorations: PageDecorations(rules: pagedMedia, pageCount: slots.count, assignments: assignments,
                                                                   blankPages: blank, pageNumbers: numbers, pageNames: names),
                        generated: generated, headings: headings, links: links, destinations: destinations)
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
                document = rendered
                plan = planned
            }
            guard let document, let plan, next < plan.slots.count else { return nil }
            defer { next += 1 }
            return MarkupPage(content: try plan.slots[next].map { try PlacedContent(page: $0, of: document.document) },
                              size: document.pageSize, index: next, decorations: plan.decorations,
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
            var area = CGRect(x: rect.minX, y: rect.maxY - size.height, width: size.width, height: size.height)
            // A left-hand or right-hand page of a book sits at its own side's margin.
            if let paper = context.paperRect, let x = style?.pageAreaMinX(forPage: index, paper: paper, area: area) { area.origin.x = x }
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
