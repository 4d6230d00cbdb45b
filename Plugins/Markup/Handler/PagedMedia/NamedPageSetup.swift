import Foundation
import HandlerSupport
import MarkupProtocol

/// A named page's own size and margins (`@page wide { size: A4 landscape; margin: 15mm }`).
///
/// WebKit lays a document out at one page size. So swiftprint prints the document again at
/// each such page's size, and takes that print's pages for the runs of elements on that page
/// (each run starts and ends with a forced break, so its pages are the same in any print of
/// the document at that size). Edges it leaves open take the job's margins.
struct NamedPageSetup: Equatable, Sendable {
    var size: CGSize?
    var orientation: PrintInfo.Orientation?
    var top: Double?, right: Double?, bottom: Double?, left: Double?

    /// The rule's `size` and `margin`, `margin-top` … declarations; nil when it sets neither.
    init?(declarations: [String: String]) {
        if let text = declarations["size"], let s = PageStyle.size(from: text) {
            size = s.size
            orientation = s.orientation
        }
        if let shorthand = declarations["margin"] {
            let values = shorthand.split(separator: " ").map { PageStyle.length(String($0)) }
            if !values.contains(where: { $0 == nil }), let edges = EdgeInsets(cssOrder: values.compactMap { $0 }) {
                (top, right, bottom, left) = (edges.top, edges.right, edges.bottom, edges.left)
            }
        }
        top = declarations["margin-top"].flatMap(PageStyle.length) ?? top
        right = declarations["margin-right"].flatMap(PageStyle.length) ?? right
        bottom = declarations["margin-bottom"].flatMap(PageStyle.length) ?? bottom
        left = declarations["margin-left"].flatMap(PageStyle.length) ?? left
        guard size != nil || orientation != nil || top != nil || right != nil || bottom != nil || left != nil else { return nil }
    }

    /// The paper and margins of these pages, given the job's paper and its margins.
    func resolved(paper: CGSize, margins: EdgeInsets) -> (paper: CGSize, margins: EdgeInsets) {
        var size = self.size ?? paper
        if self.size == nil, let orientation, (orientation == .landscape) != (size.width > size.height) {
            size = CGSize(width: size.height, height: size.width)
        }
        return (size, EdgeInsets(top: top ?? margins.top, left: left ?? margins.left,
                                 bottom: bottom ?? margins.bottom, right: right ?? margins.right))
    }
}

/// A page of its own paper or margins (a named page's, by the cascade for its side; a blank
/// page's `:blank` margins): its paper and margins (its sheet's, so that the job's header and
/// footer sit within them too), and the size WebKit lays it out at.
struct OwnPageArea: Sendable {
    var paper: CGSize
    var margins: EdgeInsets
    /// The paper within its margins, less what the job takes from its own pages' area (a header
    /// or footer).
    var pageSize: CGSize
}

extension MarkupTextPrintFormatter {
    /// A page of the job's document: page `page` of WebKit's main print, or of the named
    /// page print `namedPrint`.
    struct PlanPage: Hashable {
        var namedPrint: Int?
        var page: Int
    }

    /// The document printed at a named page's own size, whose pages the runs of that name take.
    struct NamedPrint {
        let name: String
        let rendered: RenderedDocument
        let area: OwnPageArea
    }

    /// Each page's name in a print: that of the first run starting on it, else the page's before.
    static func pageNames(pageCount: Int, map: ElementPageMap, described: Described) -> [String?] {
        var starts: [Int: String] = [:]
        for (i, element) in described.elements.enumerated() where element.rules.contains(described.nameRule) {
            guard i < map.pages.count, let page = map.pages[i], starts[page] == nil else { continue }
            starts[page] = element.attributes[PageStyleReport.pageNameAttribute] ?? ""
        }
        var names: [String?] = [], current: String?
        for page in 0..<pageCount {
            if let name = starts[page] { current = name.isEmpty ? nil : name }
            names.append(current)
        }
        return names
    }

    /// The runs of pages named `name`, in order.
    static func runs(of name: String, in names: [String?]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for (page, n) in names.enumerated() where n == name {
            if let last = runs.last, last.upperBound == page - 1 { runs[runs.count - 1] = last.lowerBound...page } else { runs.append(page...page) }
        }
        return runs
    }

    /// The job's pages when named pages have their own size: the main print's pages, each run
    /// of such a page replaced by the same run's pages in a print at that page's size; and the
    /// page map over them. Without such pages, the main print's pages and map as they are.
    func composeNamedPages(rendered: RenderedDocument, map: ElementPageMap, described: Described) throws
        -> (pages: [PlanPage], prints: [NamedPrint], map: ElementPageMap) {
        let count = map.pageCount
        let unchanged = ((0..<count).map { PlanPage(namedPrint: nil, page: $0) }, [NamedPrint](), map)
        guard !namedPagesSettingTheirSheet.isEmpty else { return unchanged }
        let names = Self.pageNames(pageCount: count, map: map, described: described)
        let used = Set(names.compactMap { $0 }).filter { namedPagesSettingTheirSheet.contains($0) }.sorted()
        guard !used.isEmpty else { return unchanged }
        let file = shownName
        guard !pageSetupTakenByJob else {
            Self.logger.warning("\(file): @page \(used.joined(separator: ", ")) sets its own size or margins, which the job's own paper, orientation or margins replace")
            return unchanged
        }
        let (prints, maps, replaced) = try namedPrints(used, names: names, rendered: rendered, described: described, job: jobSheets(rendered: rendered))
        guard !replaced.isEmpty else { return unchanged }
        let composed = Self.composedMap(map, named: maps, replaced: replaced)
        return (composed.pages, prints, composed.map)
    }

    /// One replaced run of the main print: its pages there, the named print instead (by index
    /// into the prints) and its pages in that print.
    typealias ReplacedRun = (main: ClosedRange<Int>, print: Int, pages: ClosedRange<Int>)

    /// The prints of the named pages `used` at their own sizes, each with its page map, and the
    /// runs of the main print they replace. A named page whose size leaves no room, whose print
    /// has no exact map, or whose runs print differently at that size keeps the document's size.
    private func namedPrints(_ used: [String], names: [String?], rendered: RenderedDocument, described: Described, job: JobSheets) throws
        -> (prints: [NamedPrint], maps: [ElementPageMap], replaced: [ReplacedRun]) {
        let file = shownName
        var prints: [NamedPrint] = [], maps: [ElementPageMap] = []
        var replaced: [ReplacedRun] = []
        for name in used {
            guard let own = namedPrintSheet(name, job: job) else { continue }
            let size = own.contentSize(less: job.taken)
            guard size.width >= 36, size.height >= 36 else {
                Self.logger.warning("\(file): @page \(name) leaves no room within its margins; its pages keep the document's size")
                continue
            }
            var print = try printDocument(pageSize: size, firstPageTopInset: rendered.firstPageTopInset)
            let named: ElementPageMap
            do {
                let placed = try elementPages(matching: described.selector, pageSize: size, firstPageTopInset: rendered.firstPageTopInset,
                                              plainPrint: print.print?.path, endsOf: Self.linkSelector)
                named = placed.map
                // The map holds for WebKit's second plain print at that size: that one is placed.
                if let reprint = placed.reprint {
                    print = try renderedDocument(reprint, pageSize: size, firstPageTopInset: rendered.firstPageTopInset, keepingPrint: true)
                }
            } catch let error as PrintError where error.code == .renderingFailed {
                Self.logger.warning("\(file): @page \(name)'s own size is not applied: \(error.message)")
                continue
            }
            let mainRuns = Self.runs(of: name, in: names)
            let namedRuns = Self.runs(of: name, in: Self.pageNames(pageCount: named.pageCount, map: named, described: described))
            guard mainRuns.count == namedRuns.count else {
                Self.logger.warning("\(file): @page \(name)'s own size is not applied: its runs of elements print differently at that size")
                continue
            }
            let index = prints.count
            prints.append(NamedPrint(name: name, rendered: print, area: OwnPageArea(paper: own.paper, margins: own.margins, pageSize: size)))
            maps.append(named)
            for (main, pages) in zip(mainRuns, namedRuns) { replaced.append((main, index, pages)) }
        }
        return (prints, maps, replaced)
    }

    /// The job's pages, the main print's with each replaced run's pages from its named print
    /// instead, and the page map over them: each element where it starts (in a replaced run,
    /// where the named print has it), each page's content top, each link's boxes.
    private static func composedMap(_ map: ElementPageMap, named maps: [ElementPageMap], replaced: [ReplacedRun])
        -> (pages: [PlanPage], map: ElementPageMap) {
        let count = map.pageCount
        // The pages in order, and where each source page went.
        var pages: [PlanPage] = [], position: [PlanPage: Int] = [:]
        func add(_ p: PlanPage) { position[p] = pages.count; pages.append(p) }
        var page = 0
        while page < count {
            if let run = replaced.first(where: { $0.main.lowerBound == page }) {
                for p in run.pages { add(PlanPage(namedPrint: run.print, page: p)) }
                page = run.main.upperBound + 1
            } else {
                add(PlanPage(namedPrint: nil, page: page))
                page += 1
            }
        }
        // Each element where it starts among them: in a replaced run, where the named print has it.
        func run(containing page: Int) -> ReplacedRun? {
            replaced.first { $0.main.contains(page) }
        }
        var elementPages: [Int?] = [], tops: [Double?] = []
        for i in map.pages.indices {
            guard let page = map.pages[i] else { elementPages.append(nil); tops.append(nil); continue }
            if let run = run(containing: page) {
                let named = maps[run.print]
                if i < named.pages.count, let p = named.pages[i], run.pages.contains(p) {
                    elementPages.append(position[PlanPage(namedPrint: run.print, page: p)])
                    tops.append(i < named.tops.count ? named.tops[i] : nil)
                } else {
                    elementPages.append(position[PlanPage(namedPrint: run.print, page: run.pages.lowerBound)])
                    tops.append(nil)
                }
            } else {
                elementPages.append(position[PlanPage(namedPrint: nil, page: page)])
                tops.append(i < map.tops.count ? map.tops[i] : nil)
            }
        }
        let contentTops = pages.map { p -> Double? in
            let source = p.namedPrint.map { maps[$0] } ?? map
            return p.page < source.contentTops.count ? source.contentTops[p.page] : nil
        }
        // A link's boxes on the pages each print gives the job.
        var textBoxes: [Int: [(page: Int, box: CGRect)]] = [:]
        for (i, boxes) in map.textBoxes {
            for (page, box) in boxes where run(containing: page) == nil {
                if let at = position[PlanPage(namedPrint: nil, page: page)] { textBoxes[i, default: []].append((at, box)) }
            }
        }
        for (k, named) in maps.enumerated() {
            for (i, boxes) in named.textBoxes {
                for (page, box) in boxes {
                    if let at = position[PlanPage(namedPrint: k, page: page)] { textBoxes[i, default: []].append((at, box)) }
                }
            }
        }
        return (pages, ElementPageMap(pageCount: pages.count, pages: elementPages, tops: tops, contentTops: contentTops, textBoxes: textBoxes))
    }
}
