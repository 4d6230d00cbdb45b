import Foundation
import HandlerSupport

/// A page as `@page` selectors see it: its name, whether it is the document's first, a
/// left-hand one, or a blank one put in before a page that must start on the other side.
/// (css-page-3: a named page is matched by `:first`, `:left`, `:right` and `:blank` as any
/// other page is, so `@page :left` applies to a left-hand `wide` page as well.)
struct PageContext: Hashable, Sendable {
    var name: String?
    var isFirst: Bool
    var isLeft: Bool
    var isBlank: Bool

    /// Page `index` (from 0) of a document read left to right: the first page is a right-hand one.
    init(index: Int, isBlank: Bool = false, name: String? = nil) {
        self.init(name: name, isFirst: index == 0, isLeft: index % 2 == 1, isBlank: isBlank)
    }

    init(name: String?, isFirst: Bool, isLeft: Bool, isBlank: Bool) {
        self.name = name
        self.isFirst = isFirst
        self.isLeft = isLeft
        self.isBlank = isBlank
    }
}

extension PageRule {
    /// Whether the rule's selector matches `page`.
    func applies(to page: PageContext) -> Bool {
        if let name, name != page.name { return false }
        return selectors.allSatisfy {
            switch $0 {
            case .first: page.isFirst
            case .right: !page.isLeft
            case .left: page.isLeft
            case .blank: page.isBlank
            }
        }
    }
}

extension PagedMediaRules {
    /// The `@page` rules that apply to `page`, in cascade order: less specific first (css-page-3:
    /// a page name outweighs any number of pseudo-classes, `:first` and `:blank` outweigh `:left`
    /// and `:right`), source order among equals. Merging them in this order lets the later win.
    func rules(for page: PageContext) -> [PageRule] {
        pageRules.enumerated().filter { $0.element.applies(to: page) }
            .sorted { ($0.element.specificity, $0.offset) < ($1.element.specificity, $1.offset) }.map(\.element)
    }

    /// The page-level declarations (size, margins, font) of `page` after the cascade;
    /// `withoutUnselected` leaves out the plain `@page` rules, whose size and margins the job's
    /// paper and margins already stand for; `sided: false` leaves out those with `:left` or `:right`.
    func declarations(for page: PageContext, withoutUnselected: Bool = false, sided: Bool = true) -> [String: String] {
        var merged: [String: String] = [:]
        for rule in rules(for: page) where !(withoutUnselected && rule.name == nil && rule.selectors.isEmpty) {
            if !sided && (rule.selectors.contains(.left) || rule.selectors.contains(.right)) { continue }
            merged.merge(Self.longhandMargins(rule.declarations)) { $1 }
        }
        return merged
    }

    /// A rule's declarations with its `margin` shorthand written out as the four longhands, so
    /// that a later rule's `margin-left` overrides only that edge of an earlier `margin`, and a
    /// later `margin` all four of an earlier `margin-left`, as the cascade has it.
    static func longhandMargins(_ declarations: [String: String]) -> [String: String] {
        guard let shorthand = declarations["margin"] else { return declarations }
        var out = declarations
        out["margin"] = nil
        let values = shorthand.split(separator: " ").map(String.init)
        let edges: [String]? = switch values.count {
        case 1: [values[0], values[0], values[0], values[0]]
        case 2: [values[0], values[1], values[0], values[1]]
        case 3: [values[0], values[1], values[2], values[1]]
        case 4: values
        default: nil
        }
        guard let edges else { return declarations }
        // Longhands in the same rule override the shorthand (declared after it or not: a
        // dictionary keeps no order, and authors write the shorthand first).
        for (edge, value) in zip(["margin-top", "margin-right", "margin-bottom", "margin-left"], edges) where declarations[edge] == nil {
            out[edge] = value
        }
        return out
    }
}
