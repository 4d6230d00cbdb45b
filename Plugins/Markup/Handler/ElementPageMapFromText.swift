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
    private static let hyphens: Set<UInt32> = [0x2D, 0x2010, 0x2011, 0xAD]

    init(plain: PlainPrintText, documentText: DocumentText) throws(TextNotFound) {
        var folding = TextFolding()
        // The document's characters, and where each UTF-16 offset of its text falls among them.
        var documentScalars: [UInt32] = [], indexAt: [Int] = []
        indexAt.reserveCapacity(documentText.text.utf16.count + 1)
        documentScalars.reserveCapacity(documentText.text.utf16.count)
        for scalar in documentText.text.unicodeScalars {
            for _ in 0..<scalar.utf16.count { indexAt.append(documentScalars.count) }
            folding.append(scalar, to: &documentScalars)
        }
        indexAt.append(documentScalars.count)
        func index(_ utf16: Int) -> Int? { utf16 >= 0 && utf16 < indexAt.count ? indexAt[utf16] : nil }

        // The print's characters, page after page, with their boxes.
        let drawn: [(text: String, boxes: [CGRect])]
        do { drawn = try plain.drawn.get() } catch { throw TextNotFound(description: error.message) }
        var printed: [UInt32] = [], places: [(page: Int32, box: CGRect)] = []
        for (page, content) in drawn.enumerated() {
            for (scalar, box) in zip(content.text.unicodeScalars, content.boxes) {
                let before = printed.count
                folding.append(scalar, to: &printed)
                for _ in before..<printed.count { places.append((Int32(page), box)) }
            }
        }

        // Each document character's place in the print.
        var gaps: [(at: Int, text: [UInt32]?)] = []
        for (n, offset) in documentText.gaps.enumerated() {
            guard let at = index(offset) else { continue }
            let literal = n < documentText.gapTexts.count ? documentText.gapTexts[n] : nil
            gaps.append((at, literal.map { text in
                var folded: [UInt32] = []
                for scalar in text.unicodeScalars { folding.append(scalar, to: &folded) }
                return folded
            }))
        }
        var found = [Int](repeating: -1, count: documentScalars.count)
        var i = 0, j = 0, g = 0
        func context(_ scalars: [UInt32], _ at: Int) -> String {
            String(String.UnicodeScalarView(scalars[max(0, at - 12)..<min(scalars.count, at + 40)].compactMap(Unicode.Scalar.init)))
        }
        /// Where the document's text goes on after a line the page cut off at its right edge,
        /// the print's character `last` ending there: the first place on in the document's
        /// text from which the print's next characters follow.
        func resumption(after last: Int) -> Int? {
            let place = places[last], width = plain.widths[Int(place.page)]
            guard Double(place.box.maxX) > width - 2 * max(6, Double(place.box.width)) else { return nil }
            // The longest of these that is found (generated content may follow soon).
            for length in [24, 12, 6] {
                let k = min(length, printed.count - last - 1)
                guard k >= 4 else { return nil }
                let needle = printed[(last + 1)..<(last + 1 + k)]
                let limit = min(documentScalars.count - k, i + Self.largestGap * 5)
                guard limit > i else { return nil }
                if let at = ((i + 1)...limit).first(where: { documentScalars[$0] == needle.first! && documentScalars[$0..<($0 + k)].elementsEqual(needle) }) {
                    return at
                }
            }
            return nil
        }
        // Text painted apart (a float, a positioned box) is left out of the walk below, and
        // found where the print holds it: where the walk meets text that is not the document's.
        var apart: [(range: Range<Int>, found: Bool)] = documentText.displaced.compactMap { pair in
            guard pair.count == 2, let a = index(pair[0]), let b = index(pair[1]), a < b else { return nil }
            return (a..<b, false)
        }
        var nextApart = 0
        // By first character, those not found yet.
        var apartStarting: [UInt32: [Int]] = [:]
        for n in apart.indices { apartStarting[documentScalars[apart[n].range.lowerBound], default: []].append(n) }
        /// Whether the print's text at `j` is that of a box painted apart, not yet found: then it
        /// is taken as found there. (Looked for before the document's own next character: the
        /// two may begin alike.)
        func takeApart() -> Bool {
            guard j < printed.count, let candidates = apartStarting[printed[j]] else { return false }
            // The document's own text when it reads on here as far as any of them would.
            if i < documentScalars.count {
                let ahead = min(16, documentScalars.count - i, printed.count - j)
                if documentScalars[i..<(i + ahead)].elementsEqual(printed[j..<(j + ahead)]) { return false }
            }
            for n in candidates where !apart[n].found {
                let range = apart[n].range
                guard j + range.count <= printed.count, printed[j..<(j + range.count)].elementsEqual(documentScalars[range]) else { continue }
                for (offset, d) in range.enumerated() { found[d] = j + offset }
                j += range.count
                apart[n].found = true
                return true
            }
            return false
        }
        while i < documentScalars.count {
            while nextApart < apart.count, apart[nextApart].range.upperBound <= i { nextApart += 1 }
            if nextApart < apart.count, apart[nextApart].range.lowerBound <= i {
                i = apart[nextApart].range.upperBound
                while g < gaps.count, gaps[g].at < i { g += 1 }
                continue
            }
            if g < gaps.count, gaps[g].at <= i {
                // Generated content here: text the style states is passed over as it is; any
                // other (a counter, a list's marker) is found by what follows it.
                var unknown = false
                while g < gaps.count, gaps[g].at <= i {
                    if !unknown, let literal = gaps[g].text {
                        if j + literal.count <= printed.count, printed[j..<(j + literal.count)].elementsEqual(literal) { j += literal.count }
                        else { unknown = true }
                    } else {
                        unknown = true
                    }
                    g += 1
                }
                if unknown {
                    let next = g < gaps.count ? gaps[g].at : documentScalars.count
                    let k = min(32, next - i)
                    let needle = documentScalars[i..<(i + k)]
                    let limit = min(printed.count - k, j + Self.largestGap)
                    // The first place it is found: generated content is short, and holds what
                    // follows it only by chance; for a short piece of text found far on, too
                    // much could be chance.
                    let at = limit >= j ? (j...limit).first { printed[$0] == needle.first! && printed[$0..<($0 + k)].elementsEqual(needle) } : nil
                    guard let at else {
                        throw TextNotFound(description: "the text after generated content (\"\(context(documentScalars, i))\") is not in the print")
                    }
                    guard k >= 4 || at - j <= 8 else {
                        throw TextNotFound(description: "the text after generated content (\"\(context(documentScalars, i))\") is too short to be sure of")
                    }
                    j = at
                }
            }
            if takeApart() {
                continue
            } else if j < printed.count, documentScalars[i] == printed[j] {
                found[i] = j
                i += 1; j += 1
            } else if j < printed.count, Self.hyphens.contains(printed[j]) {
                j += 1
            } else if j > 0, j < printed.count, let resumed = resumption(after: j - 1) {
                // A line that runs off the page's right edge: what is past the edge is not
                // drawn (a long line of preformatted text).
                i = resumed
            } else {
                let was = context(documentScalars, i), became = j < printed.count ? context(printed, j) : "the end"
                throw TextNotFound(description: "the print's text is not the document's: \"\(was)\" is \"\(became)\" in the print")
            }
        }
        while j < printed.count, takeApart() {}
        guard apart.allSatisfy(\.found) else {
            throw TextNotFound(description: "the text of a box painted apart (a float, a positioned box) is not in the print")
        }
        let rest = printed[j...].filter { !Self.hyphens.contains($0) }
        guard rest.isEmpty || (gaps.last?.at == documentScalars.count && rest.count <= Self.largestGap) else {
            throw TextNotFound(description: "the print holds \(rest.count) characters after the document's text")
        }

        // The line a printed character is on: its neighbours in reading order at its height.
        func lineTop(_ p: Int) -> Double {
            let (page, box) = places[p]
            var top = box.minY
            func sameLine(_ q: Int) -> Bool {
                places[q].page == page && abs(places[q].box.midY - box.midY) < max(1, min(places[q].box.height, box.height) / 2)
            }
            var q = p - 1
            while q >= 0, sameLine(q) { top = min(top, places[q].box.minY); q -= 1 }
            q = p + 1
            while q < places.count, sameLine(q) { top = min(top, places[q].box.minY); q += 1 }
            return Double(top)
        }

        let count = documentText.starts.count
        var pages = [Int?](repeating: nil, count: count), tops = [Double?](repeating: nil, count: count)
        var textBoxes: [Int: [(page: Int, box: CGRect)]] = [:]
        for e in 0..<count {
            guard let s = index(documentText.starts[e]), let t = index(documentText.ends[e]), documentText.starts[e] >= 0 else { continue }
            // The characters found nearest: a line cut off at the page's edge leaves some out.
            let first = (s..<t).first { found[$0] >= 0 }.map { found[$0] }
            let before = (0..<s).last { found[$0] >= 0 }.map { found[$0] }
            let after = (s..<found.count).first { found[$0] >= 0 }.map { found[$0] }
            let at: Int
            if let first {
                at = first
            } else if s < t, let before {
                // All of its text is past the page's edge, on the line of the last character found.
                at = before
            } else {
                // No text of its own: it shares a line with the text it touches, or lies between
                // two characters of one page.
                if e < documentText.touchesAfter.count, documentText.touchesAfter[e], let after { at = after }
                else if e < documentText.touchesBefore.count, documentText.touchesBefore[e], let before { at = before }
                else if let before, let after, places[before].page == places[after].page { at = after }
                else if before == nil, let after, places[after].page == 0 { at = after }
                else if after == nil, let before, Int(places[before].page) == drawn.count - 1 { at = before }
                else {
                    throw TextNotFound(description: "element \(e) holds no text and lies where two pages meet")
                }
            }
            pages[e] = Int(places[at].page)
            tops[e] = lineTop(at)
            guard e < documentText.boxed.count, documentText.boxed[e], s < t else { continue }
            // A link's boxes: its characters, a box a line.
            var boxes: [(page: Int, box: CGRect)] = []
            var byPage: [Int: [CGRect]] = [:]
            for d in s..<t where found[d] >= 0 { byPage[Int(places[found[d]].page), default: []].append(places[found[d]].box) }
            for page in byPage.keys.sorted() {
                for line in Self.lines(of: byPage[page]!) { boxes.append((page, line)) }
            }
            if !boxes.isEmpty { textBoxes[e] = boxes }
        }
        self.init(pageCount: drawn.count, pages: pages, tops: tops, contentTops: plain.contentTops, textBoxes: textBoxes)
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
