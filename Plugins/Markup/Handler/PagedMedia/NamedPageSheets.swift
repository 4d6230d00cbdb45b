import Foundation
import HandlerSupport

/// The paper and margins of one page: a sheet of the job.
struct PageSheet: Equatable, Sendable {
    var paper: CGSize
    var margins: EdgeInsets

    /// The paper within its margins, less `taken` (what the job's header or footer takes).
    func contentSize(less taken: CGSize) -> CGSize {
        CGSize(width: paper.width - margins.left - margins.right - taken.width,
               height: paper.height - margins.top - margins.bottom - taken.height)
    }

    func isSame(as other: PageSheet) -> Bool {
        abs(paper.width - other.paper.width) < 0.5 && abs(paper.height - other.paper.height) < 0.5
            && abs(margins.top - other.margins.top) < 0.5 && abs(margins.left - other.margins.left) < 0.5
            && abs(margins.bottom - other.margins.bottom) < 0.5 && abs(margins.right - other.margins.right) < 0.5
    }

    static func sameSize(_ a: CGSize, _ b: CGSize) -> Bool { abs(a.width - b.width) < 0.5 && abs(a.height - b.height) < 0.5 }
}

extension MarkupTextPrintFormatter {
    /// The job's own pages: their paper and margins (a right-hand page's, when the document's
    /// `:left` and `:right` margins are applied), those of its left-hand pages, and what its
    /// own pages' area leaves out of the margins (a header or footer).
    struct JobSheets {
        var right: PageSheet
        var left: PageSheet
        var taken: CGSize
    }

    func jobSheets(rendered: RenderedDocument) -> JobSheets {
        let renderer = printPageRenderer
        let paper = renderer?.paperRect ?? CGRect(origin: .zero, size: MediaSize.a4.size)
        let printable = renderer?.printableRect ?? paper.insetBy(dx: 36, dy: 36)
        let margins = EdgeInsets(top: printable.minY - paper.minY, left: printable.minX - paper.minX,
                                 bottom: paper.maxY - printable.maxY, right: paper.maxX - printable.maxX)
        let taken = CGSize(width: printable.width - rendered.pageSize.width, height: printable.height - rendered.pageSize.height)
        // A left-hand page of a book is moved to its own margin as it is placed (PageStyle).
        var left = margins
        if let x = pageStyle?.pageAreaMinX(forPage: 1, paper: paper, area: printable) {
            left.left = x - paper.minX
            left.right = margins.left + margins.right - left.left
        }
        return JobSheets(right: PageSheet(paper: paper.size, margins: margins), left: PageSheet(paper: paper.size, margins: left), taken: taken)
    }

    /// The sheet of a page (a named one, a blank one): the size and margins the `@page` rules
    /// that match it give (`wide`, `:left`, `wide:left`, `:blank` …, in the cascade's order), over
    /// the job's paper and margins for its side, which stand for the plain `@page` rule's. `sided: false` leaves out the
    /// `:left` and `:right` rules (for pages whose sides cannot be told apart in one print).
    func sheet(for page: PageContext, job: JobSheets, sided: Bool = true) -> PageSheet {
        let declarations = pagedMedia.declarations(for: page, withoutUnselected: true, sided: sided)
        let base = page.isLeft && sided ? job.left : job.right
        guard let setup = NamedPageSetup(declarations: declarations) else { return base }
        let resolved = setup.resolved(paper: base.paper, margins: base.margins)
        return PageSheet(paper: resolved.paper, margins: resolved.margins)
    }

    /// The sheet a named page's print is laid out for: its right-hand pages', when its left-hand
    /// pages are of the same size within their margins (a book's mirrored margins); else one
    /// without the `:left`/`:right` margins (WebKit lays a print out at one size), which the job
    /// warns of. Nil when the named page is laid out as the document's other pages are.
    func namedPrintSheet(_ name: String, job: JobSheets) -> PageSheet? {
        let right = sheet(for: PageContext(name: name, isFirst: false, isLeft: false, isBlank: false), job: job)
        let left = sheet(for: PageContext(name: name, isFirst: false, isLeft: true, isBlank: false), job: job)
        if right.isSame(as: job.right) && left.isSame(as: job.left) { return nil }
        if PageSheet.sameSize(right.contentSize(less: job.taken), left.contentSize(less: job.taken)) { return right }
        Self.logger.warning("\(shownName): @page \(name)'s left-hand and right-hand pages are of different widths, which WebKit cannot lay out: their :left and :right margins are not applied")
        return sheet(for: PageContext(name: name, isFirst: false, isLeft: false, isBlank: false), job: job, sided: false)
    }

    /// The paper, margins and page size of each page of the job not laid out as its others are:
    /// a page from a named page's print takes its own sheet by the cascade (its side, `:first`),
    /// where its page fits it, else the print's; a blank page (unnamed, as in WeasyPrint: it
    /// holds no element to take a name from) takes its own by `:blank` and its side, where that
    /// differs from the job's.
    func ownAreas(slots: [Int?], pages: [PlanPage], prints: [NamedPrint], job: JobSheets) -> [Int: OwnPageArea] {
        var areas: [Int: OwnPageArea] = [:]
        for (index, slot) in slots.enumerated() {
            guard let slot else {
                let own = sheet(for: PageContext(index: index, isBlank: true), job: job)
                let size = own.contentSize(less: job.taken)
                if !own.isSame(as: index % 2 == 1 ? job.left : job.right), size.width >= 36, size.height >= 36 {
                    areas[index] = OwnPageArea(paper: own.paper, margins: own.margins, pageSize: size)
                }
                continue
            }
            guard let k = pages[slot].namedPrint else { continue }
            let print = prints[k].area
            let own = sheet(for: PageContext(index: index, name: prints[k].name), job: job)
            areas[index] = PageSheet.sameSize(own.contentSize(less: job.taken), print.pageSize)
                ? OwnPageArea(paper: own.paper, margins: own.margins, pageSize: print.pageSize) : print
        }
        return areas
    }
}
