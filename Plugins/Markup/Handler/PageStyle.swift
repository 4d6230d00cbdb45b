import Foundation
import HandlerSupport
import MarkupProtocol

/// A document's own page setup, from its CSS `@page` rules: what WebKit reads but does not
/// apply. The paginator applies it under swiftprint's one precedence rule (a job's media or
/// margins win; the document's come next).
public struct PageStyle: Equatable, Sendable {
    /// Size, orientation and margins, for the job's paper.
    public var setup = DocumentPageSetup()
    /// How much further down the first page's content starts (`@page :first { margin-top }`
    /// beyond the other pages' top margin): UIKit's `contentInsets.top`.
    public var firstPageExtraTop: Double = 0
    /// The left and right margins of `@page :left` and `@page :right` (a book's binding
    /// margins), where they give them.
    public struct SideMargins: Equatable, Sendable {
        public var left: Double?
        public var right: Double?
        var isEmpty: Bool { left == nil && right == nil }
    }
    public var leftPages = SideMargins()
    public var rightPages = SideMargins()

    public init() {}

    /// Where page `index` (from 0; the first is a right-hand page) starts across the paper
    /// `paper`, when the job's page area `area` follows the document's own margins (those of its
    /// right-hand pages): a left-hand page at its own left margin. Nil: where it is.
    func pageAreaMinX(forPage index: Int, paper: CGRect, area: CGRect) -> Double? {
        guard index % 2 == 1, !leftPages.isEmpty || !rightPages.isEmpty, !sideMarginsChangeTheWidth,
              let baseLeft = setup.marginLeft, abs((area.minX - paper.minX) - baseLeft) < 0.5 else { return nil }
        return paper.minX + (leftPages.left ?? baseMargins.left ?? baseLeft)
    }

    /// The `@page` rule's own left and right margins, before the right-hand pages' took their place.
    private var baseMargins = SideMargins()

    /// Whether left-hand and right-hand pages are of different widths: WebKit lays every page
    /// out at one width, so then their side margins are not applied.
    var sideMarginsChangeTheWidth: Bool {
        guard !leftPages.isEmpty || !rightPages.isEmpty else { return false }
        let base = (baseMargins.left ?? 36.0, baseMargins.right ?? 36.0)
        let left = (leftPages.left ?? base.0) + (leftPages.right ?? base.1)
        let right = (rightPages.left ?? base.0) + (rightPages.right ?? base.1)
        return abs(left - right) > 0.5
    }

    /// The page style of rules as WebKit's CSSOM gives them, later rules winning as in the cascade.
    /// `:left`/`:right` rules give their left and right margins only (every page is the same
    /// size here).
    package init(rules: [PageStyleReport.Rule]) {
        self.init()
        var firstTop: Double?
        for rule in rules {
            let selector = rule.selector.trimmingCharacters(in: .whitespaces).lowercased()
            if selector.isEmpty {
                if let s = Self.size(from: rule.size) { setup.size = s.size; setup.orientation = s.orientation }
                setup.marginTop = Self.length(rule.marginTop) ?? setup.marginTop
                setup.marginRight = Self.length(rule.marginRight) ?? setup.marginRight
                setup.marginBottom = Self.length(rule.marginBottom) ?? setup.marginBottom
                setup.marginLeft = Self.length(rule.marginLeft) ?? setup.marginLeft
            } else if selector == ":first" {
                firstTop = Self.length(rule.marginTop) ?? firstTop
            } else if selector == ":left" || selector == ":right" {
                var side = selector == ":left" ? leftPages : rightPages
                side.left = Self.length(rule.marginLeft) ?? side.left
                side.right = Self.length(rule.marginRight) ?? side.right
                if selector == ":left" { leftPages = side } else { rightPages = side }
            }
        }
        if let firstTop { firstPageExtraTop = max(0, firstTop - (setup.marginTop ?? 0)) }
        // A book's pages: the job's margins are those of its right-hand pages (the first page
        // is one); left-hand pages are moved to their own margin as they are placed.
        baseMargins = SideMargins(left: setup.marginLeft, right: setup.marginRight)
        if (!leftPages.isEmpty || !rightPages.isEmpty) && !sideMarginsChangeTheWidth {
            setup.marginLeft = rightPages.left ?? setup.marginLeft ?? 36
            setup.marginRight = rightPages.right ?? setup.marginRight ?? 36
        }
    }

    /// A CSS length in points: px (96 to the inch), pt, pc, in, cm, mm, Q; a bare 0.
    package static func length(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !t.isEmpty else { return nil }
        if t == "0" { return 0 }
        let units: [(String, Double)] = [("px", 0.75), ("pt", 1), ("pc", 12), ("in", 72), ("cm", 72 / 2.54),
                                         ("mm", 72 / 25.4), ("q", 72 / 101.6)]
        for (suffix, scale) in units where t.hasSuffix(suffix) {
            guard let v = Double(t.dropLast(suffix.count)), v.isFinite, v >= 0 else { return nil }
            return v * scale
        }
        return nil
    }

    /// CSS's page-size keywords (css-page-3), by the PWG name of the same size. (WebKit's CSS
    /// parser drops other names, such as A6, before swiftprint sees them: give lengths.)
    static let pageSizeNames: [String: String] = [
        "a5": "iso_a5_148x210mm", "a4": "iso_a4_210x297mm", "a3": "iso_a3_297x420mm",
        "b5": "iso_b5_176x250mm", "b4": "iso_b4_250x353mm",
        "jis-b5": "jis_b5_182x257mm", "jis-b4": "jis_b4_257x364mm",
        "letter": "na_letter_8.5x11in", "legal": "na_legal_8.5x14in", "ledger": "na_ledger_11x17in",
    ]

    /// The `size` descriptor: `auto`, `landscape`, `A5 landscape`, `210mm 148mm`, `5in`.
    /// Returns nil for `auto`, nothing, or what it cannot read; no size but an orientation for
    /// a bare `portrait`/`landscape` (which turns the job's own paper).
    package static func size(from text: String) -> (size: CGSize?, orientation: PrintInfo.Orientation?)? {
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard !words.isEmpty, words != ["auto"] else { return nil }
        var orientation: PrintInfo.Orientation?
        var named: CGSize?
        var lengths: [Double] = []
        for word in words {
            switch word {
            case "landscape": orientation = .landscape
            case "portrait": orientation = .portrait
            default:
                if let pwg = pageSizeNames[word], let media = MediaSize.named(pwg) { named = media.size }
                else if let l = length(word), l > 0 { lengths.append(l) }
                else { return nil }
            }
        }
        var size: CGSize?
        if let named { size = named }
        else if lengths.count == 1 { size = CGSize(width: lengths[0], height: lengths[0]) }
        else if lengths.count == 2 { size = CGSize(width: lengths[0], height: lengths[1]) }
        guard var s = size else { return orientation == nil ? nil : (nil, orientation) }
        if let orientation, (orientation == .landscape) != (s.width > s.height) {
            s = CGSize(width: s.height, height: s.width)
        }
        return (s, orientation)
    }
}
