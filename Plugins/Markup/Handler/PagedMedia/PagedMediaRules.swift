import Foundation
import HandlerSupport

/// What of a document's CSS Paged Media WebKit drops and swiftprint does itself: the page-margin
/// boxes inside `@page` rules (`@top-center { content: counter(page) }`) and `string-set` on
/// elements. WebKit's CSS parser discards both, so they are read from the style sheets' text.
///
/// Read: `@page` rules with no selector, `:first`, `:left`, `:right` and `:blank`, named or not
/// (`wide`, `wide:left`), inside `@media print` or `all` too; in each, the 16 margin boxes with
/// `content` (strings, `counter(page)`, `counter(pages)`, `string(name[, first|start|last|first-except])`),
/// font, colour, alignment, vertical alignment, border and background; and page-level font and
/// colour, which the boxes inherit. `string-set` on any style rule: names with strings,
/// `content()` and `attr()`.
public struct PagedMediaRules: Equatable, Sendable {
    public static func == (a: PagedMediaRules, b: PagedMediaRules) -> Bool {
        a.pageRules == b.pageRules && a.stringSets == b.stringSets && a.targetCounters == b.targetCounters
            && a.sideBreaks.map(\.selector) == b.sideBreaks.map(\.selector) && a.pageResets.map(\.selector) == b.pageResets.map(\.selector)
            && a.pageNames.map(\.selector) == b.pageNames.map(\.selector)
            && a.pageNames.map(\.name) == b.pageNames.map(\.name)
    }

    /// The `@page` rules in source order.
    public var pageRules: [PageRule] = []
    /// The style rules that set named strings, in source order.
    public var stringSets: [StringSetRule] = []
    /// The style rules that put elements on named pages (`page: wide`), in source order.
    public var pageNames: [(selector: String, name: String)] = []
    /// The style rules that start elements on a side (`break-before`/`break-after: left | right |
    /// recto | verso`, and the `page-break-` forms), read here so that `@media print` counts
    /// and `@media screen` does not (WebKit's computed style is the screen's).
    public var sideBreaks: [(selector: String, before: String?, after: String?)] = []
    /// The style rules that reset the page number (`counter-reset: page N`), likewise.
    public var pageResets: [(selector: String, value: Int)] = []
    /// The style rules whose generated content shows the page another element is on
    /// (`a::after { content: target-counter(attr(href), page) }`), in source order.
    public var targetCounters: [TargetCounterRule] = []

    public init() {}

    /// Whether any margin box is given: a document without any is printed as before.
    public var hasMarginBoxes: Bool { pageRules.contains { !$0.boxes.isEmpty } }

    /// The rules of these style sheets (their text), in order.
    public init(styleSheets: [String]) {
        for sheet in styleSheets { read(CSSText.blocks(in: CSSText.withoutComments(sheet))) }
    }

    private mutating func read(_ blocks: [CSSText.Block]) {
        for block in blocks {
            let prelude = block.prelude.trimmingCharacters(in: .whitespacesAndNewlines)
            let lower = prelude.lowercased()
            if lower.hasPrefix("@media") {
                if CSSText.mediaQueriesMatchPrint(String(lower.dropFirst(6))) { read(CSSText.blocks(in: block.body)) }
            } else if lower.hasPrefix("@page") {
                if let rule = PageRule(selectorText: String(prelude.dropFirst(5)), body: block.body) { pageRules.append(rule) }
            } else if !lower.hasPrefix("@") {
                let declarations = CSSText.declarations(block.body)
                // `nav a::after, .toc a::after { … }`: a rule for each selector.
                let selectors = CSSText.split(prelude, on: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                if let value = declarations["string-set"], let rule = StringSetRule(selector: prelude, value: value) {
                    stringSets.append(rule)
                }
                if let content = declarations["content"], content.lowercased().contains("target-counter(") {
                    targetCounters += selectors.compactMap { TargetCounterRule(selector: $0, content: content) }
                }
                let sides: Set<String> = ["left", "right", "recto", "verso"]
                func side(_ names: [String]) -> String? {
                    names.compactMap { declarations[$0]?.trimmingCharacters(in: .whitespaces).lowercased() }.last { sides.contains($0) }
                }
                let before = side(["page-break-before", "break-before"]), after = side(["page-break-after", "break-after"])
                if before != nil || after != nil {
                    sideBreaks += selectors.map { ($0, before, after) }
                }
                if let reset = declarations["counter-reset"] {
                    let words = reset.split(whereSeparator: { $0.isWhitespace }).map(String.init)
                    if let at = words.firstIndex(where: { $0.lowercased() == "page" }) {
                        let value = at + 1 < words.count ? Int(words[at + 1]) ?? 0 : 0
                        pageResets += selectors.map { ($0, value) }
                    }
                }
                if let value = declarations["page"]?.trimmingCharacters(in: .whitespaces).lowercased(), !value.isEmpty,
                   value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
                    pageNames.append((prelude.trimmingCharacters(in: .whitespacesAndNewlines), value))
                }
            }
        }
    }
}

/// Which pages an `@page` rule applies to.
public enum PageSelector: Hashable, Sendable {
    case first, left, right, blank
}

/// One `@page` rule: the page-level declarations and those of each margin box it gives.
public struct PageRule: Equatable, Sendable {
    /// All of these must hold for a page (empty: every page).
    public var selectors: Set<PageSelector>
    /// The named page the rule is for (`@page wide`), nil for every page.
    public var name: String?
    public var declarations: [String: String]
    public var boxes: [MarginBoxPosition: [String: String]]

    /// Nil for a rule this reader does not take (several selectors, an unknown pseudo-class).
    init?(selectorText: String, body: String) {
        var selectors = Set<PageSelector>()
        var text = selectorText.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !text.contains(",") else { return nil }
        // `wide`, `wide:first`: a name before the pseudo-classes is a named page.
        let name = text.prefix { $0 != ":" }.trimmingCharacters(in: .whitespaces)
        self.name = name.isEmpty ? nil : name
        text = String(text.drop { $0 != ":" })
        if !text.isEmpty {
            for part in text.split(separator: ":") {
                switch part.trimmingCharacters(in: .whitespaces) {
                case "first": selectors.insert(.first)
                case "left": selectors.insert(.left)
                case "right": selectors.insert(.right)
                case "blank": selectors.insert(.blank)
                default: return nil
                }
            }
        }
        self.selectors = selectors
        var boxes: [MarginBoxPosition: [String: String]] = [:]
        var own = ""
        for item in CSSText.items(in: body) {
            switch item {
            case .declarations(let text): own += text + ";"
            case .block(let block):
                let name = block.prelude.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
                guard name.hasPrefix("@"), let position = MarginBoxPosition(rawValue: String(name.dropFirst())) else { continue }
                boxes[position, default: [:]].merge(CSSText.declarations(block.body)) { $1 }
            }
        }
        declarations = CSSText.declarations(own)
        self.boxes = boxes
    }

    /// How specific the rule is, for the cascade (css-page-3: a page name weighs most, then
    /// `:first` and `:blank`, then `:left` and `:right`).
    var specificity: Int {
        (name == nil ? 0 : 100) + selectors.reduce(0) { $0 + ($1 == .first || $1 == .blank ? 10 : 1) }
    }
}

/// The 16 page-margin boxes of CSS Paged Media, by their at-rule names.
public enum MarginBoxPosition: String, CaseIterable, Hashable, Sendable {
    case topLeftCorner = "top-left-corner", topLeft = "top-left", topCenter = "top-center", topRight = "top-right"
    case topRightCorner = "top-right-corner", rightTop = "right-top", rightMiddle = "right-middle", rightBottom = "right-bottom"
    case bottomRightCorner = "bottom-right-corner", bottomRight = "bottom-right", bottomCenter = "bottom-center"
    case bottomLeft = "bottom-left", bottomLeftCorner = "bottom-left-corner", leftBottom = "left-bottom"
    case leftMiddle = "left-middle", leftTop = "left-top"

    /// The margin the box sits in.
    public enum Edge: Sendable { case top, right, bottom, left, corner }
    public var edge: Edge {
        switch self {
        case .topLeft, .topCenter, .topRight: .top
        case .bottomLeft, .bottomCenter, .bottomRight: .bottom
        case .leftTop, .leftMiddle, .leftBottom: .left
        case .rightTop, .rightMiddle, .rightBottom: .right
        default: .corner
        }
    }

    /// The boxes of the top margin, corners included: those a header replaces.
    var isOnTopEdge: Bool { [.topLeftCorner, .topLeft, .topCenter, .topRight, .topRightCorner].contains(self) }
    var isOnBottomEdge: Bool { [.bottomLeftCorner, .bottomLeft, .bottomCenter, .bottomRight, .bottomRightCorner].contains(self) }

    /// Where its text sits by default (css-page-3's table of initial values).
    var defaultTextAlign: TextAlignment {
        switch self {
        case .topLeft, .bottomLeft: .left
        case .topRight, .bottomRight: .right
        case .topLeftCorner, .bottomLeftCorner: .right
        case .topRightCorner, .bottomRightCorner: .left
        default: .center
        }
    }

    var defaultVerticalAlign: MarginBoxStyle.VerticalAlign {
        switch self {
        case .leftTop, .rightTop: .top
        case .leftBottom, .rightBottom: .bottom
        default: .middle
        }
    }
}

/// A style rule's `string-set`: the names it sets on each element its selector matches.
public struct StringSetRule: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        case text(String)
        /// `content()`, `content(text)`: the element's text.
        case elementText
        case attribute(String)
    }

    public var selector: String
    public var assignments: [(name: String, value: [Part])]

    init?(selector: String, value: String) {
        self.selector = selector.trimmingCharacters(in: .whitespacesAndNewlines)
        assignments = []
        guard value.trimmingCharacters(in: .whitespaces).lowercased() != "none" else { return nil }
        for item in CSSText.split(value, on: ",") {
            let tokens = CSSText.tokens(item)
            guard case .identifier(let name)? = tokens.first else { continue }
            var parts: [Part] = []
            for token in tokens.dropFirst() {
                switch token {
                case .string(let s): parts.append(.text(s))
                case .function("content", let args) where args.isEmpty || args == ["text"]: parts.append(.elementText)
                case .function("attr", let args) where args.count == 1: parts.append(.attribute(args[0]))
                default: break
                }
            }
            assignments.append((name.lowercased(), parts))
        }
        if assignments.isEmpty { return nil }
    }

    public static func == (a: StringSetRule, b: StringSetRule) -> Bool {
        a.selector == b.selector && a.assignments.map(\.name) == b.assignments.map(\.name)
            && a.assignments.map(\.value) == b.assignments.map(\.value)
    }
}

/// A style rule whose `::before` or `::after` content shows the page of the element a link
/// points to: WebKit drops the whole declaration (it knows no `target-counter()`), so swiftprint
/// puts the numbers in once it knows where the targets print.
public struct TargetCounterRule: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        case text(String)
        case attribute(String)
        /// The page of the element whose id the attribute (`href`, `#id`) names.
        case targetPage(attribute: String, style: MarginBoxContent.CounterStyle)
        /// `leader()`, with the text it repeats (`.` for `dotted`, `_` for `solid`, a space for
        /// `space`, else its string).
        case leader(String)
    }

    /// The selector of the elements (without the pseudo-element).
    public var selector: String
    public var pseudo: String
    public var parts: [Part]

    init?(selector: String, content: String) {
        let trimmed = selector.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.contains(","), let range = trimmed.range(of: "::?(after|before)$", options: [.regularExpression, .caseInsensitive])
        else { return nil }
        self.selector = String(trimmed[..<range.lowerBound])
        pseudo = trimmed[range].lowercased().hasSuffix("before") ? "before" : "after"
        parts = []
        for token in CSSText.tokens(content) {
            switch token {
            case .string(let s): parts.append(.text(s))
            case .function("attr", let args) where args.count == 1:
                parts.append(.attribute(Self.attributeName(args[0])))
            case .function("leader", let args):
                let fill = switch args.first.flatMap({ CSSText.tokens($0).first }) {
                case .identifier(let name)? where name.lowercased() == "solid": "_"
                case .identifier(let name)? where name.lowercased() == "space": " "
                case .string(let s)? where !s.isEmpty: s
                default: ". "  // dotted
                }
                parts.append(.leader(fill))
            case .function("target-counter", let args) where args.count >= 2 && args[1].lowercased() == "page":
                guard case .function("attr", let inner)? = CSSText.tokens(args[0]).first, inner.count == 1 else { return nil }
                let attribute = Self.attributeName(inner[0])
                guard !attribute.isEmpty else { return nil }
                let style = args.count > 2 ? MarginBoxContent.CounterStyle(rawValue: args[2].lowercased()) ?? .decimal : .decimal
                parts.append(.targetPage(attribute: attribute, style: style))
            default: break
            }
        }
        guard parts.contains(where: { if case .targetPage = $0 { true } else { false } }) else { return nil }
    }

    /// The attribute an `attr()` names: its first word (`attr(href url)` reads `href`).
    static func attributeName(_ argument: String) -> String { String(argument.split(separator: " ").first ?? "") }

    /// The text a leader repeats when swiftprint can draw it: a leader that opens an `::after`
    /// content (blank text before it at most) fills the rest of the element's last line, the
    /// content after it at the line's end. Elsewhere a leader prints as a space.
    public var drawnLeader: String? {
        guard pseudo == "after", let at = parts.firstIndex(where: { if case .leader = $0 { true } else { false } }),
              case .leader(let fill) = parts[at],
              parts[..<at].allSatisfy({ if case .text(let s) = $0 { s.allSatisfy(\.isWhitespace) } else { false } }),
              !parts[(at + 1)...].contains(where: { if case .leader = $0 { true } else { false } }) else { return nil }
        return fill
    }

    /// The attributes the rule reads.
    var attributes: [String] {
        parts.compactMap {
            switch $0 {
            case .attribute(let a), .targetPage(let a, _): a
            default: nil
            }
        }
    }
}

/// What a margin box's `content` is made of.
public enum MarginBoxContent: Equatable, Sendable {
    case text(String)
    case pageCounter(style: CounterStyle)
    case pagesCounter(style: CounterStyle)
    case string(name: String, which: StringPolicy)

    public enum CounterStyle: String, Sendable { case decimal, lowerRoman = "lower-roman", upperRoman = "upper-roman", lowerAlpha = "lower-alpha", upperAlpha = "upper-alpha" }
    /// Which of a page's assignments `string()` takes (css-gcpm-3).
    public enum StringPolicy: String, Sendable { case first, start, last, firstExcept = "first-except" }

    /// The parts of a `content` value; nil for `none`, `normal` or nothing this reader takes.
    static func parse(_ value: String) -> [MarginBoxContent]? {
        var parts: [MarginBoxContent] = []
        for token in CSSText.tokens(value) {
            switch token {
            case .string(let s): parts.append(.text(s))
            case .function("counter", let args) where !args.isEmpty:
                let style = args.count > 1 ? CounterStyle(rawValue: args[1].lowercased()) ?? .decimal : .decimal
                switch args[0].lowercased() {
                case "page": parts.append(.pageCounter(style: style))
                case "pages": parts.append(.pagesCounter(style: style))
                default: break
                }
            case .function("string", let args) where !args.isEmpty:
                let which = args.count > 1 ? StringPolicy(rawValue: args[1].lowercased()) ?? .first : .first
                parts.append(.string(name: args[0].lowercased(), which: which))
            default: break
            }
        }
        return parts.isEmpty ? nil : parts
    }
}
