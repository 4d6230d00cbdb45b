import Foundation
import HandlerSupport
import MarkupProtocol

// What a markup document's pages are beyond WebKit's: the elements swiftprint finds in the
// loaded document (`Described`), and the plan made from where they print (`PagePlan`): blank
// pages for recto and verso, page numbers and names, margin boxes with their strings, the
// numbers of target-counter(), bookmarks and links.
extension MarkupTextPrintFormatter {
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

    func describeElements() throws -> Described {
        let sets = PageDecorations.usesStrings(pagedMedia) ? pagedMedia.stringSets : []
        let counters = pagedMedia.targetCounters
        let attributes = Set(sets.flatMap { $0.assignments.flatMap { $0.value.compactMap { part -> String? in
            if case .attribute(let name) = part { name } else { nil }
        } } } + counters.flatMap(\.attributes) + ["id", "name", "href"])
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

    /// The pages a rendered document prints as: WebKit's, with a blank page before each that
    /// must start on the other side (`break-before`/`break-after: left | right | recto |
    /// verso`, which WebKit prints as plain page breaks), and their margin boxes.
    struct PagePlan {
        /// Each page of the job's document: one of `pages` (its index), or nil for a blank one.
        var slots: [Int?]
        /// WebKit's pages the job takes, from its main print and its named pages' own prints.
        var pages: [PlanPage]
        var namedPrints: [NamedPrint] = []
        /// The sheet of each page (by index in `slots`) not laid out as the job's others are: a
        /// page from a named page's print, a blank page of `:blank` margins.
        var ownAreas: [Int: OwnPageArea] = [:]
        var decorations: PageDecorations?
        /// The content of the document's `target-counter()` rules, with the pages found.
        var generated: [GeneratedContent] = []
        /// The headings that start on each page (by page), for the PDF outline, with how far down.
        var headings: [Int: [(title: String, level: Int, top: Double?)]] = [:]
        /// Each page's links (boxes on WebKit's page) and the destinations it names.
        var links: [Int: [(box: CGRect, target: GraphicsContext.LinkTarget)]] = [:]
        var destinations: [Int: [(name: String, top: Double)]] = [:]
        /// WebKit's print the plan is for when it is not the one it was made for: the page
        /// map holds for a plain print made after the marked one (`elementPages`).
        var reprinted: RenderedDocument?
    }

    /// WebKit's pages as they are, with the document's margin boxes.
    private func unplanned(pageCount count: Int) -> PagePlan {
        PagePlan(slots: Array(0..<count), pages: (0..<count).map { PlanPage(namedPrint: nil, page: $0) },
                 decorations: pagedMedia.hasMarginBoxes ? PageDecorations(rules: pagedMedia, pageCount: count) : nil)
    }

    /// Plans the pages of `rendered`. Where elements start is asked of the page map (one more
    /// print, none for a page without links) only when some element sets a string, needs a
    /// side, resets the page number, starts a named page, is a link's target, a heading or a link.
    func plan(for asked: RenderedDocument) throws -> PagePlan {
        let count = asked.document.pageCount
        guard let described, !described.elements.isEmpty, !described.selector.isEmpty else {
            return unplanned(pageCount: count)
        }
        guard let (printed, rendered, reprinted) = try elementMap(for: asked, described: described) else { return unplanned(pageCount: count) }
        // Named pages of their own size take their pages from prints at that size: from here
        // on, pages are the job's (`composed.pages`), not the main print's.
        let composed = try composeNamedPages(rendered: rendered, map: printed, described: described)
        let map = composed.map
        let (slots, position, numbers) = Self.slots(map: map, described: described)
        let links = Self.links(map: map, described: described, position: position, prefix: destinationPrefix)
        var plan = PagePlan(slots: slots, pages: composed.pages, namedPrints: composed.prints, decorations: nil,
                            generated: Self.generatedContent(map: map, described: described, position: position, numbers: numbers),
                            headings: Self.outline(map: map, described: described, position: position),
                            links: links.links, destinations: links.destinations, reprinted: reprinted)
        if !pageSetupTakenByJob && (!composed.prints.isEmpty || slots.contains(nil)) {
            // A page's margins are those of its side too, known now that blank pages are in.
            plan.ownAreas = ownAreas(slots: slots, pages: composed.pages, prints: composed.prints, job: jobSheets(rendered: rendered))
        }
        guard pagedMedia.hasMarginBoxes else { return plan }
        // Page names: that of the run the page starts in. A blank page has none: it holds no
        // element to take one from (as in WeasyPrint, whose blank pages are unnamed).
        let pageNames = Self.pageNames(pageCount: map.pageCount, map: map, described: described)
        let names = slots.map { $0.flatMap { pageNames[$0] } }
        let pages = map.pages.map { $0.flatMap { position[$0] } }
        let assignments = PageDecorations.assignments(rules: described.stringSets, elements: described.elements, pages: pages, pageCount: slots.count,
                                                      atTop: { map.isFirstOnItsPage($0) })
        let blank = Set(slots.indices.filter { slots[$0] == nil })
        plan.decorations = PageDecorations(rules: pagedMedia, pageCount: slots.count, assignments: assignments,
                                           blankPages: blank, pageNumbers: numbers, pageNames: names)
        return plan
    }

    /// Where the described elements are in WebKit's print of `asked` (and the print the map
    /// holds for, when it had to be made again); nil when no exact map can be had, and the job
    /// is printed as WebKit's pages are.
    private func elementMap(for asked: RenderedDocument, described: Described) throws
        -> (map: ElementPageMap, rendered: RenderedDocument, reprinted: RenderedDocument?)? {
        var rendered = asked, reprinted: RenderedDocument?
        let elements = described.elements
        // On a one-page document every element shown is on that page: no print needed. (An
        // element hidden by print-only style counts as shown there.)
        let printed: ElementPageMap
        do {
            // Links need their boxes, which only a print tells, even on one page.
            if rendered.document.pageCount == 1 && !described.hasLinks {
                printed = ElementPageMap(pageCount: 1, pages: elements.map { $0.shown == false ? nil : 0 })
            } else {
                let placed = try elementPages(matching: described.selector, pageSize: rendered.pageSize, firstPageTopInset: rendered.firstPageTopInset,
                                              plainPrint: rendered.print?.path, endsOf: Self.linkSelector)
                printed = placed.map
                if let reprint = placed.reprint {
                    rendered = try renderedDocument(reprint, pageSize: rendered.pageSize, firstPageTopInset: rendered.firstPageTopInset, keepingPrint: true)
                    reprinted = rendered
                }
            }
        } catch let error as PrintError where error.code == .renderingFailed {
            // No exact map: WebKit's pages as they are, without what needs one (named strings,
            // sides, page numbers set by elements, the outline), and the job says so.
            let sizes = namedPagesSettingTheirSheet.isEmpty ? "" : ", named pages' own sizes"
            Self.logger.warning("\(shownName): \(error.message); printed without running strings, recto/verso pages\(sizes) or bookmarks")
            return nil
        }
        guard printed.pageCount == rendered.document.pageCount else {
            throw PrintError(.renderingFailed, path: errorPath,
                             "WebKit printed \(printed.pageCount) pages when placing its elements, \(rendered.document.pageCount) before")
        }
        return (printed, rendered, reprinted)
    }

    /// The pages of the elements `rule` matches, each with its `attribute`.
    private static func marked(_ rule: Int, _ attribute: String, map: ElementPageMap, described: Described) -> [(page: Int, value: String)] {
        let elements = described.elements
        return elements.indices.compactMap { i in
            guard elements[i].rules.contains(rule), i < map.pages.count, let page = map.pages[i] else { return nil }
            return (page, elements[i].attributes[attribute] ?? "")
        }
    }

    /// The job's pages: each of WebKit's pages (by index) or a blank one put in so that a page
    /// starts on the side it asks for; where each of WebKit's pages went; each page's number
    /// (one more each page, blank ones too; an element's reset gives its page N).
    private static func slots(map: ElementPageMap, described: Described) -> (slots: [Int?], position: [Int: Int], numbers: [Int]) {
        // The side each of WebKit's pages must start on: that of the first element on it that asks.
        var sides: [Int: String] = [:]
        for (page, side) in marked(described.sideRule, PageStyleReport.sideAttribute, map: map, described: described) where sides[page] == nil {
            sides[page] = side
        }
        var slots: [Int?] = []
        for page in 0..<map.pageCount {
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
        var resets: [Int: Int] = [:]
        for (page, value) in marked(described.resetRule, PageStyleReport.pageResetAttribute, map: map, described: described) {
            if let at = position[page], let n = Int(value) { resets[at] = n }
        }
        var numbers: [Int] = [], n = 0
        for index in slots.indices { n = resets[index] ?? (n + 1); numbers.append(n) }
        return (slots, position, numbers)
    }

    /// target-counter(): each link's text with the number of the page its target starts on.
    private static func generatedContent(map: ElementPageMap, described: Described, position: [Int: Int], numbers: [Int]) -> [GeneratedContent] {
        let elements = described.elements
        var targetNumbers: [String: Int] = [:]
        for i in elements.indices where elements[i].rules.contains(described.targetRule) {
            if i < map.pages.count, let page = map.pages[i], let at = position[page], let id = elements[i].attributes["id"], targetNumbers[id] == nil {
                targetNumbers[id] = numbers[at]
            }
        }
        return described.targetCounters.enumerated().map { k, rule in
            // A leader swiftprint draws stands for itself and what comes before it.
            let leader = rule.drawnLeader
            let parts = leader == nil ? rule.parts : Array(rule.parts.drop { if case .leader = $0 { false } else { true } }.dropFirst())
            return GeneratedContent(selector: rule.selector, pseudo: rule.pseudo, texts: elements.filter { $0.rules.contains(described.firstTargetCounter + k) }.map { element in
                parts.map { part -> String in
                    switch part {
                    case .text(let s): s
                    case .leader: " "
                    case .attribute(let a): element.attributes[a] ?? ""
                    case .targetPage(let a, let style):
                        (element.attributes[a].flatMap { $0.hasPrefix("#") ? targetNumbers[String($0.dropFirst()).removingPercentEncoding ?? ""] : nil })
                            .map { PageDecorations.format($0, style) } ?? ""
                    }
                }.joined()
            }, leader: leader)
        }
    }

    /// The outline: each heading on the page it starts on, at the level of its h1 … h6.
    private static func outline(map: ElementPageMap, described: Described, position: [Int: Int]) -> [Int: [(title: String, level: Int, top: Double?)]] {
        let elements = described.elements
        var headings: [Int: [(title: String, level: Int, top: Double?)]] = [:]
        for i in elements.indices where i < map.pages.count {
            guard let page = map.pages[i], let at = position[page], !elements[i].text.isEmpty,
                  let rule = elements[i].rules.first(where: { described.headingRules.contains($0) }) else { continue }
            headings[at, default: []].append((elements[i].text, rule - described.firstHeadingRule + 1, i < map.tops.count ? map.tops[i] : nil))
        }
        return headings
    }

    /// Links: each `a[href]` over its text, to a URI or to the element its fragment names; and
    /// the destinations, each link target by its id or (an `a`, as old pages name their
    /// anchors) its name.
    private static func links(map: ElementPageMap, described: Described, position: [Int: Int], prefix: String)
        -> (links: [Int: [(box: CGRect, target: GraphicsContext.LinkTarget)]], destinations: [Int: [(name: String, top: Double)]]) {
        let elements = described.elements
        var links: [Int: [(box: CGRect, target: GraphicsContext.LinkTarget)]] = [:]
        var destinations: [Int: [(name: String, top: Double)]] = [:]
        for i in elements.indices {
            if elements[i].rules.contains(described.targetRule), i < map.pages.count, let page = map.pages[i], let at = position[page] {
                for id in Set([elements[i].attributes["id"], elements[i].attributes["name"]].compactMap { $0 }) where !id.isEmpty {
                    destinations[at, default: []].append((destinationName(id, document: prefix), i < map.tops.count ? map.tops[i] ?? 0 : 0))
                }
            }
            guard elements[i].rules.contains(described.linkRule),
                  let target = linkTarget(elements[i].attributes["href"] ?? "", document: prefix) else { continue }
            for (page, box) in map.textBoxes[i] ?? [] {
                if let at = position[page] { links[at, default: []].append((box, target)) }
            }
        }
        return (links, destinations)
    }
}
