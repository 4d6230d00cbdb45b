import Foundation
import HandlerSupport
import MarkupProtocol

/// The document's characters found, in order, among the characters of its print (the page map
/// from the job's own print, `ElementPageMap(plain:documentText:)`): a walk through both texts,
/// folded alike (`TextFolding`), that passes over generated content, text painted apart (floats,
/// positioned boxes), hyphens the print added and lines the page cut off at its right edge.
/// It fails (`TextNotFound`) where the two disagree, for the caller to make the marked print.
struct PrintTextAlignment {
    typealias TextNotFound = ElementPageMap.TextNotFound

    /// The document's characters, folded, and where each UTF-16 offset of its text falls among them.
    let documentScalars: [UInt32]
    private let indexAt: [Int]
    /// The print's characters, page after page, folded, and each one's page and box.
    let printed: [UInt32]
    let places: [(page: Int32, box: CGRect)]
    /// Each page's width, in points.
    private let widths: [Double]
    /// The pages of the print.
    let pageCount: Int
    /// Where generated content sits in the document's characters, and its text when the style
    /// states it.
    private let gaps: [(at: Int, text: [UInt32]?)]
    /// Text painted apart: its range of the document's characters, and whether it was found.
    private var apart: [(range: Range<Int>, found: Bool)]
    /// By first character, the indices into `apart`.
    private let apartStarting: [UInt32: [Int]]

    /// Each document character's place in `printed`, or -1.
    private(set) var found: [Int]
    /// The walk's place: in the document's characters, in the print's, in `gaps`, in `apart`.
    private var i = 0, j = 0, g = 0, nextApart = 0

    init(plain: ElementPageMap.PlainPrintText, documentText: DocumentText) throws(TextNotFound) {
        var folding = TextFolding()
        var documentScalars: [UInt32] = [], indexAt: [Int] = []
        indexAt.reserveCapacity(documentText.text.utf16.count + 1)
        documentScalars.reserveCapacity(documentText.text.utf16.count)
        for scalar in documentText.text.unicodeScalars {
            for _ in 0..<scalar.utf16.count { indexAt.append(documentScalars.count) }
            folding.append(scalar, to: &documentScalars)
        }
        indexAt.append(documentScalars.count)
        self.documentScalars = documentScalars
        self.indexAt = indexAt

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
        self.printed = printed
        self.places = places
        widths = plain.widths
        pageCount = drawn.count

        var gaps: [(at: Int, text: [UInt32]?)] = []
        for (n, offset) in documentText.gaps.enumerated() {
            guard let at = Self.index(offset, in: indexAt) else { continue }
            let literal = n < documentText.gapTexts.count ? documentText.gapTexts[n] : nil
            gaps.append((at, literal.map { text in
                var folded: [UInt32] = []
                for scalar in text.unicodeScalars { folding.append(scalar, to: &folded) }
                return folded
            }))
        }
        self.gaps = gaps
        found = [Int](repeating: -1, count: documentScalars.count)
        apart = documentText.displaced.compactMap { pair in
            guard pair.count == 2, let a = Self.index(pair[0], in: indexAt), let b = Self.index(pair[1], in: indexAt), a < b else { return nil }
            return (a..<b, false)
        }
        var apartStarting: [UInt32: [Int]] = [:]
        for n in apart.indices { apartStarting[documentScalars[apart[n].range.lowerBound], default: []].append(n) }
        self.apartStarting = apartStarting
    }

    /// The document character at UTF-16 offset `utf16` of its text.
    func index(_ utf16: Int) -> Int? { Self.index(utf16, in: indexAt) }

    private static func index(_ utf16: Int, in indexAt: [Int]) -> Int? { utf16 >= 0 && utf16 < indexAt.count ? indexAt[utf16] : nil }

    /// Some characters around `at`, for messages.
    private func context(_ scalars: [UInt32], _ at: Int) -> String {
        String(String.UnicodeScalarView(scalars[max(0, at - 12)..<min(scalars.count, at + 40)].compactMap(Unicode.Scalar.init)))
    }

    /// Finds every document character in the print, in order; throws where the two disagree.
    mutating func walk() throws(TextNotFound) {
        while i < documentScalars.count {
            while nextApart < apart.count, apart[nextApart].range.upperBound <= i { nextApart += 1 }
            if nextApart < apart.count, apart[nextApart].range.lowerBound <= i {
                // Text painted apart is left out of the walk, and found where the print holds it.
                i = apart[nextApart].range.upperBound
                while g < gaps.count, gaps[g].at < i { g += 1 }
                continue
            }
            if g < gaps.count, gaps[g].at <= i { try passGeneratedContent() }
            if takeApart() {
                continue
            } else if j < printed.count, documentScalars[i] == printed[j] {
                found[i] = j
                i += 1; j += 1
            } else if j < printed.count, ElementPageMap.hyphens.contains(printed[j]) {
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
        let rest = printed[j...].filter { !ElementPageMap.hyphens.contains($0) }
        guard rest.isEmpty || (gaps.last?.at == documentScalars.count && rest.count <= ElementPageMap.largestGap) else {
            throw TextNotFound(description: "the print holds \(rest.count) characters after the document's text")
        }
    }

    /// Generated content at the walk's place: text the style states is passed over as it is;
    /// any other (a counter, a list's marker) is found by what follows it.
    private mutating func passGeneratedContent() throws(TextNotFound) {
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
        guard unknown else { return }
        let next = g < gaps.count ? gaps[g].at : documentScalars.count
        let k = min(32, next - i)
        let needle = documentScalars[i..<(i + k)]
        let limit = min(printed.count - k, j + ElementPageMap.largestGap)
        // The first place it is found: generated content is short, and holds what follows it
        // only by chance; for a short piece of text found far on, too much could be chance.
        let at = limit >= j ? (j...limit).first { printed[$0] == needle.first! && printed[$0..<($0 + k)].elementsEqual(needle) } : nil
        guard let at else {
            throw TextNotFound(description: "the text after generated content (\"\(context(documentScalars, i))\") is not in the print")
        }
        guard k >= 4 || at - j <= 8 else {
            throw TextNotFound(description: "the text after generated content (\"\(context(documentScalars, i))\") is too short to be sure of")
        }
        j = at
    }

    /// Whether the print's text at the walk's place is that of a box painted apart, not yet
    /// found: then it is taken as found there. (Looked for before the document's own next
    /// character: the two may begin alike.)
    private mutating func takeApart() -> Bool {
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

    /// Where the document's text goes on after a line the page cut off at its right edge, the
    /// print's character `last` ending there: the first place on in the document's text from
    /// which the print's next characters follow.
    private func resumption(after last: Int) -> Int? {
        let place = places[last], width = widths[Int(place.page)]
        guard Double(place.box.maxX) > width - 2 * max(6, Double(place.box.width)) else { return nil }
        // The longest of these that is found (generated content may follow soon).
        for length in [24, 12, 6] {
            let k = min(length, printed.count - last - 1)
            guard k >= 4 else { return nil }
            let needle = printed[(last + 1)..<(last + 1 + k)]
            let limit = min(documentScalars.count - k, i + ElementPageMap.largestGap * 5)
            guard limit > i else { return nil }
            if let at = ((i + 1)...limit).first(where: { documentScalars[$0] == needle.first! && documentScalars[$0..<($0 + k)].elementsEqual(needle) }) {
                return at
            }
        }
        return nil
    }

    /// The top of the line printed character `p` is on: its neighbours in reading order at its height.
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
}
