import Foundation
import PrintGraphics
import PrintModel

/// A page renderer whose header and footer come from templates, as the CLI's `--header` and
/// `--footer` give them: `left|center|right`, each part with `{title}` `{file}` `{page}`
/// `{pages}` `{date}` `{user}`. Only templates that use `{pages}` make the job count pages first.
/// With `onSheet`, they are printed once per side of the sheet instead of on each page (n-up
/// sides then say "side 2 of 6", not each small page's number).
public final class TemplatePageRenderer: PrintPageRenderer {
    public struct Values: Sendable {
        public var title: String
        public var file: String
        public var date: Date
        /// Who prints: the CUPS job's user, or the login name.
        public var user: String
        public init(title: String, file: String, date: Date, user: String = "") {
            self.title = title; self.file = file; self.date = date; self.user = user
        }
    }

    public let headerTemplate: String?
    public let footerTemplate: String?
    public let font: Font
    public let values: Values
    /// Printed on each side of the sheet rather than on each page.
    public let onSheet: Bool
    /// One line of `font` plus a gap to the content; 0 without header and footer.
    public private(set) var band = 0.0

    /// Band height for one line of `font`, plus a gap to the content.
    public init(header: String?, footer: String?, font: Font, values: Values, onSheet: Bool = false) {
        headerTemplate = header.flatMap { $0.isEmpty ? nil : $0 }
        footerTemplate = footer.flatMap { $0.isEmpty ? nil : $0 }
        self.font = font
        self.values = values
        self.onSheet = onSheet
        super.init()
        // Loading fonts costs milliseconds; a job without header or footer does not pay it.
        guard headerTemplate != nil || footerTemplate != nil else { return }
        band = (fonts.metrics(of: font).height * 1.6).rounded(.up)
        guard !onSheet else { return }
        if headerTemplate != nil { headerHeight = band }
        if footerTemplate != nil { footerHeight = band }
    }

    public override var needsPageCountBeforeDrawing: Bool {
        !onSheet && [headerTemplate, footerTemplate].contains { $0?.contains("{pages}") == true }
    }

    /// The header and footer of side `side` (from 0) of `sides`, within `margins` of a sheet of
    /// `size`; the content keeps clear of the bands `sheetBands` gives.
    public func drawOnSheet(side: Int, of sides: Int, size: CGSize, margins: EdgeInsets, context: GraphicsContext) {
        let width = size.width - margins.left - margins.right
        if let headerTemplate {
            draw(headerTemplate, pageIndex: side, pages: sides, in: CGRect(x: margins.left, y: margins.top, width: width, height: band),
                 alignedTop: true, context: context)
        }
        if let footerTemplate {
            draw(footerTemplate, pageIndex: side, pages: sides,
                 in: CGRect(x: margins.left, y: size.height - margins.bottom - band, width: width, height: band), alignedTop: false, context: context)
        }
    }

    /// What n-up cells must leave free at the top and bottom of a sheet for `drawOnSheet`.
    public func sheetBands(margins: EdgeInsets) -> (top: Double, bottom: Double) {
        (headerTemplate == nil ? 0 : margins.top + band, footerTemplate == nil ? 0 : margins.bottom + band)
    }

    public override func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect, context: GraphicsContext) {
        guard let headerTemplate, !onSheet else { return }
        draw(headerTemplate, pageIndex: pageIndex, in: headerRect, alignedTop: true, context: context)
    }

    public override func drawFooterForPage(at pageIndex: Int, in footerRect: CGRect, context: GraphicsContext) {
        guard let footerTemplate, !onSheet else { return }
        draw(footerTemplate, pageIndex: pageIndex, in: footerRect, alignedTop: false, context: context)
    }

    /// The template with its fields filled in for page `pageIndex` (of `pages`, when known).
    public func expand(_ template: String, pageIndex: Int, pages: Int? = nil) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return template
            .replacingOccurrences(of: "{title}", with: values.title)
            .replacingOccurrences(of: "{file}", with: values.file)
            .replacingOccurrences(of: "{page}", with: String(pageIndex + 1))
            .replacingOccurrences(of: "{pages}", with: (pages ?? knownPageCount).map(String.init) ?? "?")
            .replacingOccurrences(of: "{date}", with: formatter.string(from: values.date))
            .replacingOccurrences(of: "{user}", with: values.user)
    }

    private func draw(_ template: String, pageIndex: Int, pages: Int? = nil, in rect: CGRect, alignedTop: Bool, context: GraphicsContext) {
        let parts = template.split(separator: "|", omittingEmptySubsequences: false).map { expand(String($0), pageIndex: pageIndex, pages: pages) }
        let alignments: [TextAlignment] = parts.count == 1 ? [.center] : parts.count == 2 ? [.left, .right] : [.left, .center, .right]
        let lineHeight = context.size(of: "Ag", font: font).height
        let y = alignedTop ? rect.minY : rect.maxY - lineHeight
        for (part, alignment) in zip(parts, alignments) where !part.isEmpty {
            context.draw(part, in: CGRect(x: rect.minX, y: y, width: rect.width, height: lineHeight),
                         font: font, alignment: alignment)
        }
    }
}
