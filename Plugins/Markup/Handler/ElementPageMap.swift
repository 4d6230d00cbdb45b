import Foundation
import HandlerSupport

/// On which of WebKit's pages each of a document's elements starts — what WebKitGTK's print
/// API does not tell, and what running headers (`string-set`), page-based counters, recto and
/// verso breaks and an outline need.
///
/// How: the document is printed twice at the same page size (the job's own print is the first,
/// when there is one), once as it is and once with each
/// element marked where it starts (`ElementPageMarks`: a 1 px token out of the flow), and poppler
/// reads on which page each token is. The map is kept only when it is exact: every page of the
/// marked print must hold the same text as the plain one, token aside, or it throws — a mark
/// that moved a line would have moved the answer too.
public struct ElementPageMap: Sendable, Equatable {
    /// Pages WebKit printed.
    public let pageCount: Int
    /// For the elements the selector matched, in document order: the page (from 0) each starts
    /// on; nil for an element that prints nowhere (`display: none`, clipped away).
    public let pages: [Int?]
    /// How far down its page each element starts, in points from the top of WebKit's page
    /// (the top of its first line, to a point or so); nil where unknown.
    public let tops: [Double?]
    /// For each page, how far down its first text starts (points from the top); nil for a page
    /// with no text or where unknown.
    public let contentTops: [Double?]

    public init(pageCount: Int, pages: [Int?], tops: [Double?]? = nil, contentTops: [Double?]? = nil) {
        self.pageCount = pageCount; self.pages = pages; self.tops = tops ?? pages.map { _ in nil }
        self.contentTops = contentTops ?? Array(repeating: nil, count: pageCount)
    }

    /// Whether element `index` is the first thing on its page (no text above its first line);
    /// nil when the map does not know where it is.
    public func isFirstOnItsPage(_ index: Int) -> Bool? {
        guard index < pages.count, let page = pages[index], let top = tops[index], page < contentTops.count,
              let contentTop = contentTops[page] else { return nil }
        return top <= contentTop + 1
    }

    /// Reads the map from a plain print and a marked print of the same document.
    init(plain: String, marked: String, prefix: String, path: String?) throws {
        let pattern = ElementPageMarks.tokenPattern(prefix: prefix)
        let plainPDF = try PDFRasterizer(path: plain), markedPDF = try PDFRasterizer(path: marked)
        guard plainPDF.pageCount == markedPDF.pageCount else {
            throw PrintError(.renderingFailed, path: path,
                             "marking its elements changed how WebKit breaks its pages (\(plainPDF.pageCount) pages, then \(markedPDF.pageCount))")
        }
        var found: [Int: Int] = [:], tops: [Int: Double] = [:], contentTops: [Double?] = []
        for page in 0..<markedPDF.pageCount {
            let (text, charTops) = markedPDF.pageTextLayout(page)
            for match in text.matches(of: pattern) {
                guard let digits = match.output[1].substring, let index = Int(digits), found[index] == nil else { continue }
                found[index] = page
                // The mark is drawn 2 px (1.5 pt) below where the element's first line starts.
                let offset = text.unicodeScalars.distance(from: text.startIndex, to: match.range.lowerBound)
                if offset < charTops.count { tops[index] = max(0, charTops[offset] - 1.5) }
            }
            let unmarked = text.replacing(pattern, with: "")
            let (plainText, plainTops) = plainPDF.pageTextLayout(page)
            // The page's first text: the topmost box of a visible character.
            contentTops.append(zip(plainText.unicodeScalars, plainTops).filter { !$0.0.properties.isWhitespace }.map(\.1).min())
            guard Self.words(unmarked) == Self.words(plainText) else {
                throw PrintError(.renderingFailed, path: path, "marking its elements moved the text of page \(page + 1): no exact page map")
            }
        }
        let count = (found.keys.max() ?? -1) + 1
        self.init(pageCount: plainPDF.pageCount, pages: (0..<count).map { found[$0] }, tops: (0..<count).map { tops[$0] },
                  contentTops: contentTops)
    }

    /// A page's words, as poppler reads them; a token removed may leave spacing behind.
    private static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0.isWhitespace })
    }
}

extension MarkupTextPrintFormatter {
    /// Where the elements `selector` matches start among the pages WebKit prints for pages of
    /// `pageSize` points (the first `firstPageTopInset` further down), as the formatter prints
    /// them. Elements past the last one found are missing from `pages`.
    public func elementPages(matching selector: String, pageSize: CGSize, firstPageTopInset: Double = 0) throws -> ElementPageMap {
        try elementPages(matching: selector, pageSize: pageSize, firstPageTopInset: firstPageTopInset, plainPrint: nil)
    }

    /// The same, with `plainPrint` the document's own print at that size when there is one
    /// already (the print the job places): then only the marked one is printed.
    func elementPages(matching selector: String, pageSize: CGSize, firstPageTopInset: Double, plainPrint: String?) throws -> ElementPageMap {
        try loadPageStyle()
        let plain = try OutputFile.scratch(prefix: "swiftprint-markup-plain-")
        let marked = try OutputFile.scratch(prefix: "swiftprint-markup-marked-")
        defer { plain.removeScratch(); marked.removeScratch() }
        try plain.commit()
        try marked.commit()
        let prints: [(OutputFile, String?)] = plainPrint == nil ? [(plain, nil), (marked, selector)] : [(marked, selector)]
        let prefix = ElementPageMarks.newPrefix()
        for (scratch, mark) in prints {
            _ = try renderer(.print) {
                $0.output = scratch.scratchPath!
                $0.task.pageWidth = pageSize.width
                $0.task.pageHeight = pageSize.height
                $0.task.firstPageTopInset = firstPageTopInset
                $0.task.markSelector = mark
                $0.task.markPrefix = prefix
            }
        }
        return try ElementPageMap(plain: plainPrint ?? plain.scratchPath!, marked: marked.scratchPath!, prefix: prefix, path: errorPath)
    }
}
