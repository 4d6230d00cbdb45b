import Foundation

/// A page renderer whose header and footer come from templates, as the CLI's `--header` and
/// `--footer` give them: `left|center|right`, each part with `{title}` `{file}` `{page}`
/// `{pages}` `{date}`. Only templates that use `{pages}` make the job count pages first.
public final class TemplatePageRenderer: PrintPageRenderer {
    public struct Values: Sendable {
        public var title: String
        public var file: String
        public var date: Date
        public init(title: String, file: String, date: Date) { self.title = title; self.file = file; self.date = date }
    }

    public let headerTemplate: String?
    public let footerTemplate: String?
    public let font: Font
    public let values: Values

    /// Band height for one line of `font`, plus a gap to the content.
    public init(header: String?, footer: String?, font: Font, values: Values) {
        headerTemplate = header.flatMap { $0.isEmpty ? nil : $0 }
        footerTemplate = footer.flatMap { $0.isEmpty ? nil : $0 }
        self.font = font
        self.values = values
        super.init()
        // Loading fonts costs milliseconds; a job without header or footer does not pay it.
        guard headerTemplate != nil || footerTemplate != nil else { return }
        let band = (fonts.metrics(of: font).height * 1.6).rounded(.up)
        if headerTemplate != nil { headerHeight = band }
        if footerTemplate != nil { footerHeight = band }
    }

    public override var needsPageCountBeforeDrawing: Bool {
        [headerTemplate, footerTemplate].contains { $0?.contains("{pages}") == true }
    }

    public override func drawHeaderForPage(at pageIndex: Int, in headerRect: CGRect, context: GraphicsContext) {
        guard let headerTemplate else { return }
        draw(headerTemplate, pageIndex: pageIndex, in: headerRect, alignedTop: true, context: context)
    }

    public override func drawFooterForPage(at pageIndex: Int, in footerRect: CGRect, context: GraphicsContext) {
        guard let footerTemplate else { return }
        draw(footerTemplate, pageIndex: pageIndex, in: footerRect, alignedTop: false, context: context)
    }

    /// The template with its fields filled in for page `pageIndex`.
    public func expand(_ template: String, pageIndex: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return template
            .replacingOccurrences(of: "{title}", with: values.title)
            .replacingOccurrences(of: "{file}", with: values.file)
            .replacingOccurrences(of: "{page}", with: String(pageIndex + 1))
            .replacingOccurrences(of: "{pages}", with: knownPageCount.map(String.init) ?? "?")
            .replacingOccurrences(of: "{date}", with: formatter.string(from: values.date))
    }

    private func draw(_ template: String, pageIndex: Int, in rect: CGRect, alignedTop: Bool, context: GraphicsContext) {
        let parts = template.split(separator: "|", omittingEmptySubsequences: false).map { expand(String($0), pageIndex: pageIndex) }
        let alignments: [TextAlignment] = parts.count == 1 ? [.center] : parts.count == 2 ? [.left, .right] : [.left, .center, .right]
        let lineHeight = context.size(of: "Ag", font: font).height
        let y = alignedTop ? rect.minY : rect.maxY - lineHeight
        for (part, alignment) in zip(parts, alignments) where !part.isEmpty {
            context.draw(part, in: CGRect(x: rect.minX, y: y, width: rect.width, height: lineHeight),
                         font: font, alignment: alignment)
        }
    }
}
