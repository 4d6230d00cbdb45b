import Foundation
import HandlerSupport
import MarkupProtocol

/// The page map read from the job's own print alone, where the document allows an exact answer:
/// the document's text (`DocumentText`, in document order) is found, character by character,
/// in the text poppler reads from WebKit's pages. Where every character of the document is
/// found in order, each element is on the page of its first character, and a link's boxes are
/// those of its characters. Where the two do not agree (a print whose reading order is not the
/// document's: columns, floats, positioned boxes; print-only style; text drawn as images), or
/// an element with no text sits where two pages meet, there is no exact answer here: the
/// caller makes the marked print instead.
extension ElementPageMap {
    /// Why the job's own print could not answer; said in the log, and the marked print is made.
    struct TextNotFound: Error, CustomStringConvertible {
        let description: String
    }

    /// The most characters generated content (a list's marker, `::before`) may show in one place.
    static let largestGap = 200
    /// Hyphens a print may hold where the document has none (a word broken at a line's end).
    static let hyphens: Set<UInt32> = [0x2D, 0x2010, 0x2011, 0xAD]

    init(plain: PlainPrintText, documentText: DocumentText) throws(TextNotFound) {
        var text = try PrintTextAlignment(plain: plain, documentText: documentText)
        try text.walk()
        let count = documentText.starts.count
        var pages = [Int?](repeating: nil, count: count), tops = [Double?](repeating: nil, count: count)
        var textBoxes: [Int: [(page: Int, box: CGRect)]] = [:]
        for e in 0..<count {
            guard let s = text.index(documentText.starts[e]), let t = text.index(documentText.ends[e]), documentText.starts[e] >= 0 else { continue }
            let at = try Self.placeOfElement(e, characters: s..<t, text: text, documentText: documentText)
            pages[e] = Int(text.places[at].page)
            tops[e] = text.lineTop(at)
            guard e < documentText.boxed.count, documentText.boxed[e], s < t else { continue }
            // A link's boxes: its characters, a box a line.
            var boxes: [(page: Int, box: CGRect)] = []
            var byPage: [Int: [CGRect]] = [:]
            for d in s..<t where text.found[d] >= 0 { byPage[Int(text.places[text.found[d]].page), default: []].append(text.places[text.found[d]].box) }
            for page in byPage.keys.sorted() {
                for line in Self.lines(of: byPage[page]!) { boxes.append((page, line)) }
            }
            if !boxes.isEmpty { textBoxes[e] = boxes }
        }
        self.init(pageCount: text.pageCount, pages: pages, tops: tops, contentTops: plain.contentTops, textBoxes: textBoxes)
    }

    /// The printed character element `e` is placed by: its first found (a line cut off at the
    /// page's edge leaves some out); with all of its text past the edge, the last found before
    /// it; with no text of its own, the text it touches, or text on both sides on one page.
    private static func placeOfElement(_ e: Int, characters: Range<Int>, text: PrintTextAlignment,
                                       documentText: DocumentText) throws(TextNotFound) -> Int {
        let (s, t) = (characters.lowerBound, characters.upperBound), found = text.found
        if let first = (s..<t).first(where: { found[$0] >= 0 }) { return found[first] }
        let before = (0..<s).last { found[$0] >= 0 }.map { found[$0] }
        let after = (s..<found.count).first { found[$0] >= 0 }.map { found[$0] }
        // All of its text is past the page's edge, on the line of the last character found.
        if s < t, let before { return before }
        if e < documentText.touchesAfter.count, documentText.touchesAfter[e], let after { return after }
        if e < documentText.touchesBefore.count, documentText.touchesBefore[e], let before { return before }
        if let before, let after, text.places[before].page == text.places[after].page { return after }
        if before == nil, let after, text.places[after].page == 0 { return after }
        if after == nil, let before, Int(text.places[before].page) == text.pageCount - 1 { return before }
        throw TextNotFound(description: "element \(e) holds no text and lies where two pages meet")
    }

    /// Character boxes in lines, top to bottom (boxes that overlap in height are one line), each
    /// line the union of its boxes.
    static func lines(of boxes: [CGRect]) -> [CGRect] {
        var lines: [CGRect] = []
        for box in boxes.sorted(by: { $0.midY < $1.midY }) {
            if let i = lines.lastIndex(where: { abs($0.midY - box.midY) < max(1, min($0.height, box.height) / 2) }) {
                lines[i] = lines[i].union(box)
            } else {
                lines.append(box)
            }
        }
        return lines.sorted { $0.minY < $1.minY }
    }
}

/// Characters as the comparison of a document's text with its print sees them: white space,
/// soft hyphens, invisible format characters and combining marks left out (a print does not
/// show them, or poppler reads them in another order); compatibility forms unfolded (a
/// ligature's glyph reads as "ﬁ", the text has "fi"); case folded (`text-transform`,
/// `small-caps`).
struct TextFolding {
    private var cache: [UInt32: [UInt32]] = [:]

    mutating func append(_ scalar: Unicode.Scalar, to out: inout [UInt32]) {
        let v = scalar.value
        if v < 0x80 {
            // ASCII: only letters change.
            if v <= 0x20 || v == 0x7F { return }
            out.append(v >= 0x41 && v <= 0x5A ? v + 0x20 : v)
            return
        }
        if let folded = cache[v] { out.append(contentsOf: folded); return }
        var folded: [UInt32] = []
        if !Self.isLeftOut(scalar) {
            for s in String(scalar).precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars where !Self.isLeftOut(s) {
                folded.append(s.value)
            }
        }
        cache[v] = folded
        out.append(contentsOf: folded)
    }

    private static func isLeftOut(_ s: Unicode.Scalar) -> Bool {
        let p = s.properties
        switch p.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return p.isWhitespace || p.isDefaultIgnorableCodePoint
        }
    }
}
