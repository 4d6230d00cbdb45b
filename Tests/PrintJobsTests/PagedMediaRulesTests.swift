import Foundation
import SwiftPrint
import Testing

/// The CSS reader behind margin boxes and running strings, on the forms style sheets take.
@Suite struct PagedMediaRulesTests {
    @Test func pageRulesWithBoxesAreReadThroughCommentsAndMedia() throws {
        let rules = PagedMediaRules(styleSheets: ["""
            /* a comment with { braces } and @page inside */
            @media screen { @page { @top-center { content: "screen only" } } }
            @media print, all { @page :FIRST { @top-center { content: "a \\"quoted\\" {brace}" !important } } }
            @page { margin: 20mm; font-size: 9pt; @bottom-right { content: "p. " counter(page, upper-roman) " / " counter(pages) } }
            @page :left:blank { @left-middle { content: string(title, last) } }
            @page chapter { @top-left { content: "named" } }
            @page a, b { @top-left { content: "two selectors: not read" } }
            """])
        #expect(rules.pageRules.count == 4, "\(rules.pageRules.map(\.selectors))")
        #expect(rules.hasMarginBoxes)
        let first = try #require(rules.pageRules.first)
        #expect(first.selectors == [.first] && first.boxes[.topCenter]?["content"] == #""a \"quoted\" {brace}""#)
        #expect(rules.pageRules[1].declarations["font-size"] == "9pt" && rules.pageRules[1].boxes[.bottomRight] != nil)
        #expect(rules.pageRules[2].selectors == [.left, .blank])
        #expect(rules.pageRules[3].name == "chapter")
    }

    @Test func stringSetsPageNamesAndTargetCountersAreRead() throws {
        let rules = PagedMediaRules(styleSheets: ["""
            h1 { string-set: chapter content(), running "Ch. " content(text) }
            .x { string-set: none }
            figure { string-set: caption attr(title) }
            .appendix { page: wide }
            .plain { page: auto }
            nav a::after { content: " " leader('.') " " target-counter(attr(href), page, lower-roman) }
            nav b::before { content: "no counter" }
            """])
        #expect(rules.stringSets.map(\.selector) == ["h1", "figure"])
        #expect(rules.stringSets[0].assignments.map(\.name) == ["chapter", "running"])
        #expect(rules.stringSets[0].assignments[1].value == [.text("Ch. "), .elementText])
        #expect(rules.stringSets[1].assignments[0].value == [.attribute("title")])
        #expect(rules.pageNames.map(\.name) == ["wide", "auto"])
        let toc = try #require(rules.targetCounters.first)
        #expect(rules.targetCounters.count == 1 && toc.selector == "nav a" && toc.pseudo == "after")
        #expect(toc.parts == [.text(" "), .leader("."), .text(" "), .targetPage(attribute: "href", style: .lowerRoman)])
        #expect(toc.drawnLeader == ".")
    }

    /// `leader()`'s three keywords and a string; swiftprint draws a leader that opens an
    /// `::after` (after blank text at most), and prints any other as a space.
    @Test func leadersAreReadWithWhatTheyRepeat() throws {
        func rule(_ css: String) throws -> TargetCounterRule {
            try #require(PagedMediaRules(styleSheets: [css]).targetCounters.first)
        }
        #expect(try rule("a::after { content: leader(dotted) target-counter(attr(href), page) }").drawnLeader == ". ")
        #expect(try rule("a::after { content: leader(solid) target-counter(attr(href), page) }").drawnLeader == "_")
        #expect(try rule("a::after { content: leader(space) target-counter(attr(href), page) }").drawnLeader == " ")
        #expect(try rule("a::after { content: leader('\\2014 ') target-counter(attr(href), page) }").drawnLeader == "\u{2014}")
        #expect(try rule("a::after { content: leader(\".\") \" p. \" target-counter(attr(href), page) }").drawnLeader == ".")
        #expect(try rule("a::after { content: \"see\" leader('.') target-counter(attr(href), page) }").drawnLeader == nil)
        #expect(try rule("a::before { content: leader('.') target-counter(attr(href), page) }").drawnLeader == nil)
        #expect(try rule("a::after { content: leader('.') target-counter(attr(href), page) leader('.') }").drawnLeader == nil)
        #expect(try rule("a::after { content: target-counter(attr(href), page) }").drawnLeader == nil)
    }

    @Test func aDocumentWithoutPagedMediaHasNone() {
        let rules = PagedMediaRules(styleSheets: ["body { color: red } @page { margin: 1in }", ""])
        #expect(!rules.hasMarginBoxes && rules.stringSets.isEmpty && rules.targetCounters.isEmpty)
    }

    /// Media queries as CSS reads them; a rule's selectors one by one; `!important` only at the
    /// end and outside strings; `attr()` with a type.
    @Test func theFinerPointsOfTheSyntax() throws {
        let rules = PagedMediaRules(styleSheets: ["""
            @media not print { @page { @top-left { content: "not for print" } } }
            @media (min-width: 1px) { @page { @top-center { content: "no type: all" } } }
            @media only print and (color) { @page :first { @top-right { content: "x !important" ! important } } }
            @media screen { h1 { string-set: t content() } }
            nav a::after, .toc a::after { content: target-counter(attr(href url), page) }
            """])
        #expect(rules.pageRules.count == 2, "\(rules.pageRules)")
        #expect(rules.pageRules[0].boxes[.topCenter]?["content"] == #""no type: all""#)
        #expect(rules.pageRules[1].boxes[.topRight]?["content"] == #""x !important""#)
        #expect(rules.stringSets.isEmpty, "a screen rule is not for print")
        #expect(rules.targetCounters.map(\.selector) == ["nav a", ".toc a"])
        #expect(rules.targetCounters.first?.parts == [.targetPage(attribute: "href", style: .decimal)])
    }
}
