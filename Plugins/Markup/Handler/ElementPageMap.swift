import Foundation
import HandlerSupport
import MarkupProtocol

/// On which of WebKit's pages each of a document's elements starts — what WebKitGTK's print
/// API does not tell, and what running headers (`string-set`), page-based counters, recto and
/// verso breaks and an outline need.
///
/// How, first: the document's text, in document order, is found character by character in the
/// job's own print, read in the order it is drawn (`ElementPageMapFromText.swift`); each element
/// is on the page of its first character. That costs no second print, and holds for most
/// documents (283 of the 348 pages with headings or links of the page-map corpus).
///
/// Where the two do not agree, the document is printed twice at the same page size (the job's
/// own print is the first, when there is one), once as it is and once with each
/// element marked where it starts (`ElementPageMarks`: a 1 px token out of the flow), and poppler
/// reads on which page each token is. The map is kept only when it is exact: every page of the
/// marked print must hold the same text as the plain one, token aside (the same words in the
/// same order, or the same characters at the same places), or it throws — a mark that moved a
/// line would have moved the answer too. WebKit's first print of a document may differ from
/// the prints after it: then the marked print is held against a plain one made after it, and
/// the job places that one.
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
    /// For the elements marked at both ends (links): the boxes of their text, a box a line, on
    /// the pages they are on, in points from the page's top-left corner.
    public let textBoxes: [Int: [(page: Int, box: CGRect)]]

    public init(pageCount: Int, pages: [Int?], tops: [Double?]? = nil, contentTops: [Double?]? = nil,
                textBoxes: [Int: [(page: Int, box: CGRect)]] = [:]) {
        self.pageCount = pageCount; self.pages = pages; self.tops = tops ?? pages.map { _ in nil }
        self.contentTops = contentTops ?? Array(repeating: nil, count: pageCount)
        self.textBoxes = textBoxes
    }

    public static func == (a: ElementPageMap, b: ElementPageMap) -> Bool {
        a.pageCount == b.pageCount && a.pages == b.pages && a.tops == b.tops && a.contentTops == b.contentTops
            && a.textBoxes.mapValues { $0.map(\.page) } == b.textBoxes.mapValues { $0.map(\.page) }
            && a.textBoxes.mapValues { $0.map(\.box) } == b.textBoxes.mapValues { $0.map(\.box) }
    }

    /// Whether element `index` is the first thing on its page (no text above its first line);
    /// nil when the map does not know where it is.
    public func isFirstOnItsPage(_ index: Int) -> Bool? {
        guard index < pages.count, let page = pages[index], let top = tops[index], page < contentTops.count,
              let contentTop = contentTops[page] else { return nil }
        return top <= contentTop + 1
    }

    /// What the map needs of the plain print: each page's text and its characters' boxes in
    /// the order they are drawn (`PDFDrawnText`), and how far down its first text is. Read on a
    /// thread of its own while the renderer reads the document's text (and WebKit makes the
    /// marked print, where that is needed).
    struct PlainPrintText: Sendable {
        let path: String
        /// Each page's text in drawing order, or why it could not be read so.
        let drawn: Result<[(text: String, boxes: [CGRect])], PrintError>
        let contentTops: [Double?]
        /// Each page's width, in points.
        let widths: [Double]

        init(path: String) throws {
            self.path = path
            let pdf = try PDFRasterizer(path: path)
            widths = (0..<pdf.pageCount).map { Double(pdf.pageSize($0).width) }
            do {
                let pages = try FontEngineLock.held { try PDFDrawnText.pages(of: path) }
                drawn = pages.count == pdf.pageCount ? .success(pages)
                    : .failure(PrintError(.renderingFailed, path: path, "poppler's core read \(pages.count) pages, poppler-glib \(pdf.pageCount)"))
            } catch let error as PrintError {
                drawn = .failure(error)
            }
            let pages = (try? drawn.get()) ?? (0..<pdf.pageCount).map { pdf.pageTextLayout($0) }
            // Each page's first text: the topmost box of a visible character.
            contentTops = pages.map { page in
                zip(page.text.unicodeScalars, page.boxes).filter { !$0.0.properties.isWhitespace && !ElementPageMap.isMarkSized($0.1) }
                    .map { Double($0.1.minY) }.min()
            }
        }

        /// What a marked print is compared with: each page's words in poppler's reading order
        /// (as the marked print is read) and its characters where they are drawn, text as small
        /// as a mark left out (`withoutMarkSizedText`).
        func comparison() throws -> (words: [[String]], characters: [[PlacedCharacter]]) {
            let pdf = try PDFRasterizer(path: path)
            let pages = (0..<pdf.pageCount).map { pdf.pageTextLayout($0) }
            return (pages.map { ElementPageMap.words(ElementPageMap.withoutMarkSizedText($0.text, $0.boxes)).map(String.init) },
                    pages.map { page in
                        zip(page.text.unicodeScalars, page.boxes).filter { !$0.0.properties.isWhitespace && !ElementPageMap.isMarkSized($0.1) }
                            .map { PlacedCharacter($0.0, $0.1) }.sorted()
                    })
        }
    }

    /// A visible character of a page and its box, to a hundredth of a point: two prints of one
    /// layout draw each character at the same place, in whatever order poppler reads them
    /// (a mark drawn among a page's lines can change the order in which poppler reads its
    /// columns, and then its words, where nothing moved).
    struct PlacedCharacter: Comparable, Sendable {
        let scalar: UInt32, y: Double, x: Double, width: Double, height: Double

        init(_ scalar: Unicode.Scalar, _ box: CGRect) {
            self.scalar = scalar.value
            y = Double(box.minY); x = Double(box.minX); width = Double(box.width); height = Double(box.height)
        }

        /// By character, then place: two prints of one layout sort alike, their places differing
        /// by far less than any two copies of a character on a page.
        static func < (a: Self, b: Self) -> Bool { (a.scalar, a.y, a.x) < (b.scalar, b.y, b.x) }
        static func == (a: Self, b: Self) -> Bool { a.scalar == b.scalar && a.y == b.y && a.x == b.x }

        /// The same character at the same place, to a hundredth of a point (two prints of one
        /// layout differ by some 0.0001 pt; rounding would split such a pair at a boundary).
        func isAtTheSamePlace(as other: Self) -> Bool {
            scalar == other.scalar && abs(y - other.y) <= 0.01 && abs(x - other.x) <= 0.01
                && abs(width - other.width) <= 0.01 && abs(height - other.height) <= 0.01
        }

        /// Whether two pages' characters, each sorted, are the same at the same places.
        static func samePlaces(_ a: [Self], _ b: [Self]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { $0.isAtTheSamePlace(as: $1) }
        }
    }

    /// Reads the map from a plain print and a marked print of the same document.
    init(plain: PlainPrintText, marked: String, prefix: String, path: String?) throws {
        let markedPDF = try PDFRasterizer(path: marked)
        let compared = try plain.comparison()
        guard compared.words.count == markedPDF.pageCount else {
            throw PrintError(.renderingFailed, path: path,
                             "marking its elements changed how WebKit breaks its pages (\(compared.words.count) pages, then \(markedPDF.pageCount))")
        }
        var found: [Int: Int] = [:], tops: [Int: Double] = [:]
        // Where each start mark begins and each end mark ends (page, point), and each
        // page's characters that are not marks, with their boxes: each mark's first place counts.
        var starts: [Int: (page: Int, at: CGPoint)] = [:], ends: [Int: (page: Int, at: CGPoint)] = [:]
        var characters: [[(offset: Int, scalar: Unicode.Scalar, box: CGRect)]] = []
        for page in 0..<markedPDF.pageCount {
            let marks = try Self.marks(onPage: page, of: markedPDF, prefix: prefix, compared: compared, path: path)
            for (index, start) in marks.starts where found[index] == nil {
                found[index] = page
                if let start {
                    tops[index] = start.top
                    starts[index] = (page, start.at)
                }
            }
            for (index, end) in marks.ends where ends[index] == nil { ends[index] = (page, end) }
            characters.append(marks.characters)
        }
        let textBoxes = Self.linkBoxes(starts: starts, ends: ends, lines: characters.map(Self.lines))
        let count = (found.keys.max() ?? -1) + 1
        self.init(pageCount: markedPDF.pageCount, pages: (0..<count).map { found[$0] }, tops: (0..<count).map { tops[$0] },
                  contentTops: plain.contentTops, textBoxes: textBoxes)
    }

    /// What one page of the marked print holds: each element's start mark (the first on the
    /// page; nil when its box is not read) with the element's top and where the mark begins,
    /// where each end mark ends, and the characters that are not marks.
    struct PageMarks {
        var starts: [(index: Int, start: (top: Double, at: CGPoint)?)] = []
        var ends: [(index: Int, at: CGPoint)] = []
        var characters: [(offset: Int, scalar: Unicode.Scalar, box: CGRect)] = []
    }

    /// The marks of page `page` of the marked print, which must hold what the plain print's
    /// page does (`compared`): else marking moved its text, and there is no exact map.
    static func marks(onPage page: Int, of markedPDF: PDFRasterizer, prefix: String, compared: (words: [[String]], characters: [[PlacedCharacter]]),
                      path: String?) throws -> PageMarks {
        let pattern = ElementPageMarks.tokenPattern(prefix: prefix), endPattern = ElementPageMarks.endTokenPattern(prefix: prefix)
        let (text, charBoxes) = markedPDF.pageTextLayout(page)
        func offset(_ index: String.Index) -> Int { text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index) }
        // Which characters are marks': those of a token drawn as a mark is, 1 px high (the
        // document's own text that happens to read as a token is no mark).
        var isMark = [Bool](repeating: false, count: charBoxes.count)
        func take(_ range: Range<String.Index>) -> Bool {
            let marked = offset(range.lowerBound)..<min(offset(range.upperBound), charBoxes.count)
            guard !marked.isEmpty, charBoxes[marked.lowerBound].height < largestMarkHeight else { return false }
            for i in marked { isMark[i] = true }
            return true
        }
        var marks = PageMarks(), seen: Set<Int> = [], ended: Set<Int> = []
        for match in text.matches(of: pattern) where take(match.range) {
            guard let digits = match.output[1].substring, let index = Int(digits), seen.insert(index).inserted else { continue }
            // The mark is drawn a few px below where the element's first line starts, as far
            // as its row says.
            let row = match.output[2].substring.flatMap { Int($0) } ?? 0
            let at = offset(match.range.lowerBound)
            marks.starts.append((index, at < charBoxes.count
                ? (max(0, charBoxes[at].minY - 0.75 * ElementPageMarks.offset(row: row)), CGPoint(x: charBoxes[at].minX, y: charBoxes[at].minY)) : nil))
        }
        for match in text.matches(of: endPattern) where take(match.range) {
            let at = offset(match.range.lowerBound), last = offset(match.range.upperBound) - 1
            guard let digits = match.output[2].substring, let index = Int(digits), !ended.contains(index), last < charBoxes.count else { continue }
            ended.insert(index)
            // An `E` mark ends where the element does; an `F` mark: the element ends where its
            // last line does.
            let toLineEnd = match.output[1].substring == "F"
            marks.ends.append((index, CGPoint(x: toLineEnd ? .infinity : charBoxes[last].maxX, y: charBoxes[at].minY)))
        }
        for (i, (scalar, box)) in zip(text.unicodeScalars, charBoxes).enumerated()
        where !scalar.properties.isWhitespace && !(i < isMark.count && isMark[i]) && !isMarkSized(box) {
            marks.characters.append((i, scalar, box))
        }
        // The marks are mark-sized: they go with any other text that small.
        let markedWords = words(withoutMarkSizedText(text, charBoxes))
        // The page holds what the plain one does: the same words in the same order, or else
        // the same characters at the same places (read in another order).
        // (Words are compared joined: poppler may read "directories:" and "patch" as one word
        // or two as a mark lies between them or not, where nothing moved.)
        guard markedWords.joined() == compared.words[page].joined()
                || PlacedCharacter.samePlaces(marks.characters.map({ PlacedCharacter($0.scalar, $0.box) }).sorted(), compared.characters[page]) else {
            // The first word that differs, to say where.
            let at = zip(markedWords, compared.words[page]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(markedWords.count, compared.words[page].count)
            let was = at < compared.words[page].count ? "\"\(compared.words[page][at])\"" : "the page's end"
            let became = at < markedWords.count ? "\"\(markedWords[at])\"" : "the page's end"
            throw PrintError(.renderingFailed, path: path,
                             "marking its elements moved the text of page \(page + 1) (\(was) became \(became)): no exact page map")
        }
        return marks
    }

    /// A link's boxes: its text's lines between its two marks (poppler reads the tiny marks
    /// apart from the text, so they are found by where they are, not by the text's order): on
    /// its first line from its start mark on, on its last up to its end mark, the lines between
    /// whole; a box a line.
    static func linkBoxes(starts: [Int: (page: Int, at: CGPoint)], ends: [Int: (page: Int, at: CGPoint)],
                          lines: [[(box: CGRect, characters: [CGRect])]]) -> [Int: [(page: Int, box: CGRect)]] {
        var textBoxes: [Int: [(page: Int, box: CGRect)]] = [:]
        for (index, end) in ends {
            guard let start = starts[index], start.page <= end.page else { continue }
            var boxes: [(page: Int, box: CGRect)] = []
            for page in start.page...end.page {
                // A mark sits a little below its line's top: the lowest line that starts above it
                // and holds that height (the glyph boxes of two lines may overlap). Its line's
                // top is the CSS line box's, which may lie above the glyphs' boxes by the
                // half-leading and more (poppler's boxes for a Type 3 font, which cairo makes of
                // URW's Helvetica and Arial, are as tall as the glyphs): up to half a line.
                func line(at y: CGFloat) -> Int? {
                    lines[page].lastIndex { $0.box.minY - max(1, $0.box.height / 2) <= y && y <= $0.box.maxY }
                }
                let first = page == start.page ? line(at: start.at.y) : 0
                // An `F` mark (the end of a leader's row) sits at the row's bottom, which its
                // padding may put below the last line's glyphs: the last line above it.
                let last = page != end.page ? lines[page].count - 1
                    : end.at.x.isInfinite ? lines[page].lastIndex { $0.box.minY - 1 <= end.at.y } : line(at: end.at.y)
                guard let first, let last, first <= last else { continue }
                for n in first...last {
                    let chars = lines[page][n].characters.filter {
                        (n != first || page != start.page || $0.maxX > start.at.x + 0.5)
                            && (n != last || page != end.page || $0.minX < end.at.x - 0.5)
                    }
                    guard let box = chars.dropFirst().reduce(chars.first, { $0?.union($1) }) else { continue }
                    boxes.append((page, box))
                }
            }
            if !boxes.isEmpty { textBoxes[index] = boxes }
        }
        return textBoxes
    }

    /// A mark's characters are 1 px (0.75 pt) text: poppler's boxes for them are under a point high.
    static let largestMarkHeight: CGFloat = 1.5

    /// Whether a character is drawn as small as a mark. Such characters are left out of both
    /// prints' text when they are compared: poppler may read a mark among a line's words in
    /// pieces ("rgb" read as "rgbDWC5", its "Q" elsewhere), which no token pattern finds, and
    /// a document's own text that small cannot be read on paper anyway. (A mark in pieces
    /// only goes unfound: its element's page stays unknown, never wrong.)
    static func isMarkSized(_ box: CGRect) -> Bool { box.height < largestMarkHeight }

    /// `text` without the characters whose boxes are mark-sized (line breaks and spaces kept).
    static func withoutMarkSizedText(_ text: String, _ boxes: [CGRect]) -> String {
        var kept = String.UnicodeScalarView()
        for (i, scalar) in text.unicodeScalars.enumerated()
        where scalar.properties.isWhitespace || i >= boxes.count || !isMarkSized(boxes[i]) {
            kept.append(scalar)
        }
        return String(kept)
    }

    /// A page's characters in lines, top to bottom: boxes that overlap in height are one line.
    private static func lines(_ characters: [(offset: Int, scalar: Unicode.Scalar, box: CGRect)]) -> [(box: CGRect, characters: [CGRect])] {
        var lines: [(box: CGRect, characters: [CGRect])] = []
        for c in characters.sorted(by: { $0.box.midY < $1.box.midY }) {
            if let i = lines.lastIndex(where: { abs($0.box.midY - c.box.midY) < max(1, min($0.box.height, c.box.height) / 2) }) {
                lines[i].box = lines[i].box.union(c.box)
                lines[i].characters.append(c.box)
            } else {
                lines.append((c.box, [c.box]))
            }
        }
        return lines.sorted { $0.box.minY < $1.box.minY }
    }

    /// A page's words, as poppler reads them; a token removed may leave spacing behind.
    fileprivate static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0.isWhitespace })
    }
}

extension MarkupTextPrintFormatter {
    /// Where the elements `selector` matches start among the pages WebKit prints for pages of
    /// `pageSize` points (the first `firstPageTopInset` further down), as the formatter prints
    /// them. Elements past the last one found are missing from `pages`.
    public func elementPages(matching selector: String, pageSize: CGSize, firstPageTopInset: Double = 0) throws -> ElementPageMap {
        try elementPages(matching: selector, pageSize: pageSize, firstPageTopInset: firstPageTopInset, plainPrint: nil).map
    }

    /// The same, with `plainPrint` the document's own print at that size when there is one
    /// already (the print the job places): then only the marked one is printed. When the map
    /// holds for another plain print than that one, made after the marked print (`reprint`),
    /// the job is to place that one instead.
    func elementPages(matching selector: String, pageSize: CGSize, firstPageTopInset: Double, plainPrint: String?,
                      endsOf endSelector: String? = nil) throws -> (map: ElementPageMap, reprint: KeptScratch?) {
        try loadPageStyle()
        let plain = try OutputFile.scratch(prefix: "swiftprint-markup-plain-")
        let marked = try OutputFile.scratch(prefix: "swiftprint-markup-marked-")
        defer { plain.removeScratch(); marked.removeScratch() }
        try plain.commit()
        try marked.commit()
        let prefix = ElementPageMarks.newPrefix()
        func print(to scratch: OutputFile, marked: Bool) throws {
            _ = try renderer(.print) {
                $0.output = scratch.scratchPath!
                $0.task.pageWidth = pageSize.width
                $0.task.pageHeight = pageSize.height
                $0.task.firstPageTopInset = firstPageTopInset
                $0.task.markSelector = marked ? selector : nil
                $0.task.markPrefix = prefix
                $0.task.markEndSelector = marked ? endSelector : nil
            }
        }
        if plainPrint == nil { try print(to: plain, marked: false) }
        // The plain print is read while the renderer reads the document's text (and, where
        // that is not enough, while WebKit makes the marked print).
        let plainPath = plainPrint ?? plain.scratchPath!
        let plainText = BackgroundWork { try ElementPageMap.PlainPrintText(path: plainPath) }
        // Waited for even when the marked print fails: it reads a scratch file about to go.
        defer { FontEngineLock.lent { _ = try? plainText.value() } }
        // First from the job's own print: the document's text found in it, in order.
        let reading = ContinuousClock.now
        let text: DocumentText?
        do {
            text = try FontEngineLock.lent {
                try renderer(.readText) {
                    $0.task.elementSelector = selector
                    $0.task.boxSelector = endSelector
                }.answer?.documentText
            }
        } catch let error as PrintError {
            // A shared renderer of an older build does not know the request: the marked print
            // answers instead (and says so if it cannot either).
            Self.logger.debug("page map: the document's text could not be read (\(error.message)): a marked print")
            text = nil
        }
        if let text {
            do {
                let map = try ElementPageMap(plain: FontEngineLock.lent { try plainText.value() }, documentText: text)
                Self.logger.debug("page map: \(map.pages.count) elements on \(map.pageCount) pages, from the print's own text in \(ContinuousClock.now - reading)")
                return (map, nil)
            } catch let notFound as ElementPageMap.TextNotFound {
                Self.logger.debug("page map: not from the print's own text (\(notFound)): a marked print")
            }
        }
        try FontEngineLock.lent { try print(to: marked, marked: true) }
        let started = ContinuousClock.now
        do {
            let map = try ElementPageMap(plain: FontEngineLock.lent { try plainText.value() }, marked: marked.scratchPath!, prefix: prefix, path: errorPath)
            Self.logger.debug("page map: \(map.pages.count) elements on \(map.pageCount) pages, read in \(ContinuousClock.now - started)")
            return (map, nil)
        } catch let error as PrintError where error.code == .renderingFailed {
            // WebKit's first print of a loaded document can differ from every print after it,
            // marks or none (a long table's rows at a page break: CUPS's policies.html), and
            // the plain print is often that first one. Held against a plain print made after
            // the marked one, the map is exact or not for good.
            let again = try OutputFile.scratch(prefix: "swiftprint-markup-")
            let reprint = KeptScratch(again)
            try again.commit()
            try FontEngineLock.lent { try print(to: again, marked: false) }
            let map: ElementPageMap
            do {
                map = try ElementPageMap(plain: ElementPageMap.PlainPrintText(path: again.scratchPath!), marked: marked.scratchPath!,
                                         prefix: prefix, path: errorPath)
            } catch is PrintError { throw error }
            Self.logger.debug("page map: \(map.pages.count) elements on \(map.pageCount) pages of WebKit's second plain print (the first: \(error.message))")
            return (map, reprint)
        }
    }
}
