import Foundation

/// Walks a renderer's pages in order, laying out each formatter's share of each page.
package final class PageCursor {
    package struct Page {
        package let index: Int
        package let formatterPages: [ObjectIdentifier: FormattedPage]
    }

    private final class Track {
        let formatter: PrintFormatter
        var stream: FormattedPageStream?
        var pagesDone = 0
        var finished = false
        init(_ f: PrintFormatter) { formatter = f }
    }

    private let renderer: PrintPageRenderer
    private let tracks: [Track]
    private let fixedPageCount: Int?
    private var index = 0

    package init(renderer: PrintPageRenderer, only: PrintFormatter? = nil) throws {
        self.renderer = renderer
        let formatters = only.map { [$0] } ?? renderer.printFormatters
        tracks = formatters.map(Track.init)
        fixedPageCount = formatters.isEmpty ? renderer.numberOfPages : nil
    }

    /// How far the formatters are through their content, when they can tell.
    package var fractionDone: Double? { tracks.compactMap { $0.stream?.fractionDone }.min() }

    /// The next page, laid out; nil after the last.
    package func next() throws -> Page? {
        defer { index += 1 }
        if let fixedPageCount {
            return index < fixedPageCount ? Page(index: index, formatterPages: [:]) : nil
        }
        var pages: [ObjectIdentifier: FormattedPage] = [:]
        var anyPending = false
        for track in tracks where !track.finished {
            let f = track.formatter
            guard index >= f.startPage else { anyPending = true; continue }
            if track.stream == nil {
                track.stream = try f.pageStream(in: LayoutEnvironment(fonts: renderer.fonts, contentArea: renderer.contentArea))
            }
            let rect = f.contentRect(inPageArea: renderer.contentArea, isFirstPage: track.pagesDone == 0)
            if let page = try track.stream!.nextPage(fitting: rect.size) {
                pages[ObjectIdentifier(f)] = page
                track.pagesDone += 1
            } else {
                track.finished = true
                track.stream = nil
            }
        }
        return pages.isEmpty && !anyPending ? nil : Page(index: index, formatterPages: pages)
    }
}
