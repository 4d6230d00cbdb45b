import Foundation
import HandlerSupport
import MarkupProtocol

/// What a document's paged media puts in the margins of each of its pages: the margin boxes
/// its `@page` rules give that page, with their counters and named strings filled in.
struct PageDecorations: Sendable {
    let rules: PagedMediaRules
    let pageCount: Int
    /// Each page's `string-set` assignments, in document order; `atTop` when the element that
    /// makes it is the first thing on its page (for `string(name, start)`; nil: not known, as on
    /// a one-page document, which is mapped without a print — taken as at the top).
    let assignments: [[Assignment]]

    struct Assignment: Sendable {
        var name: String
        var value: String
        var atTop: Bool? = nil
    }
    /// The blank pages put in before a page that must start on the other side (`:blank`).
    let blankPages: Set<Int>
    /// Each page's number (`counter(page)`): one more than the page before, or what an
    /// element's `counter-reset: page N` on it says.
    let pageNumbers: [Int]
    /// Each page's name (`page: wide`), nil for unnamed pages.
    let pageNames: [String?]

    init(rules: PagedMediaRules, pageCount: Int, assignments: [[Assignment]] = [], blankPages: Set<Int> = [],
         pageNumbers: [Int]? = nil, pageNames: [String?]? = nil) {
        self.rules = rules
        self.pageCount = pageCount
        self.assignments = assignments
        self.blankPages = blankPages
        self.pageNumbers = pageNumbers ?? Array(1...max(1, pageCount))
        self.pageNames = pageNames ?? Array(repeating: nil, count: pageCount)
    }

    /// Whether any box shows a named string: then the elements that set them must be placed.
    static func usesStrings(_ rules: PagedMediaRules) -> Bool {
        rules.pageRules.contains { rule in
            rule.boxes.values.contains { ($0["content"].flatMap(MarginBoxContent.parse) ?? []).contains { if case .string = $0 { true } else { false } } }
        }
    }

    /// The generated boxes of page `index` (from 0): text and style.
    func boxes(forPage index: Int) -> [MarginBoxPosition: (text: String, style: MarginBoxStyle)] {
        // The rules for this page, the more specific later, in source order otherwise.
        let name = index < pageNames.count ? pageNames[index] : nil
        let applying = rules.rules(for: PageContext(index: index, isBlank: blankPages.contains(index), name: name))
        var page: [String: String] = [:]
        var boxes: [MarginBoxPosition: [String: String]] = [:]
        for rule in applying {
            page.merge(rule.declarations) { $1 }
            for (position, declarations) in rule.boxes { boxes[position, default: [:]].merge(declarations) { $1 } }
        }
        var result: [MarginBoxPosition: (text: String, style: MarginBoxStyle)] = [:]
        for (position, declarations) in boxes {
            guard let content = declarations["content"].flatMap(MarginBoxContent.parse) else { continue }
            let text = content.map { self.text(of: $0, page: index) }.joined()
            result[position] = (text, MarginBoxStyle(position: position, page: page, box: declarations))
        }
        return result
    }

    private func text(of part: MarginBoxContent, page index: Int) -> String {
        switch part {
        case .text(let s): return s
        case .pageCounter(let style): return Self.format(index < pageNumbers.count ? pageNumbers[index] : index + 1, style)
        case .pagesCounter(let style): return Self.format(pageCount, style)
        case .string(let name, let which): return string(name, which, page: index)
        }
    }

    /// A named string on page `index`, as css-gcpm-3 says for each policy. The entry value is
    /// the last assignment on an earlier page; `start` takes the page's first assignment only
    /// when its element is the first thing on the page.
    func string(_ name: String, _ which: MarginBoxContent.StringPolicy, page index: Int) -> String {
        let entry = assignments.prefix(index).joined().last { $0.name == name }?.value ?? ""
        let here = index < assignments.count ? assignments[index].filter { $0.name == name } : []
        switch which {
        case .first: return here.first?.value ?? entry
        case .start: return here.first.map { $0.atTop ?? true ? $0.value : entry } ?? entry
        case .last: return here.last?.value ?? entry
        case .firstExcept: return here.isEmpty ? entry : ""
        }
    }

    static func format(_ n: Int, _ style: MarginBoxContent.CounterStyle) -> String {
        switch style {
        case .decimal: return String(n)
        case .lowerRoman: return roman(n).lowercased()
        case .upperRoman: return roman(n)
        case .lowerAlpha: return alpha(n)
        case .upperAlpha: return alpha(n).uppercased()
        }
    }

    static func roman(_ n: Int) -> String {
        guard n > 0, n < 4000 else { return String(n) }
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
                                      (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var n = n, out = ""
        for (value, letters) in table { while n >= value { out += letters; n -= value } }
        return out
    }

    static func alpha(_ n: Int) -> String {
        guard n > 0 else { return String(n) }
        var n = n, out = ""
        while n > 0 { n -= 1; out = String(UnicodeScalar(UInt8(97 + n % 26))) + out; n /= 26 }
        return out
    }

    /// Each page's assignments, from the elements that set strings (their rules' indices,
    /// text and attributes, in document order) and the page each starts on.
    static func assignments(rules: [StringSetRule], elements: [PageStyleReport.Element], pages: [Int?],
                            pageCount: Int, atTop: (Int) -> Bool? = { _ in nil }) -> [[Assignment]] {
        var byPage = Array(repeating: [Assignment](), count: pageCount)
        for (i, element) in elements.enumerated() {
            guard i < pages.count, let page = pages[i], page < pageCount else { continue }
            // Of the rules that match, the later sets each name.
            var values: [Assignment] = []
            for ruleIndex in element.rules where ruleIndex < rules.count {
                for (name, parts) in rules[ruleIndex].assignments {
                    let value = parts.map { part -> String in
                        switch part {
                        case .text(let s): s
                        case .elementText: element.text
                        case .attribute(let a): element.attributes[a] ?? ""
                        }
                    }.joined()
                    values.removeAll { $0.name == name }
                    values.append(Assignment(name: name, value: value, atTop: atTop(i)))
                }
            }
            byPage[page] += values
        }
        return byPage
    }
}
