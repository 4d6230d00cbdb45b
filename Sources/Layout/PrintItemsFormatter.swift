import Foundation
import PrintGraphics

/// Several formatters one after the other, each starting on a new page: UIKit's printingItems,
/// for every kind of content. Pages are numbered continuously across the items.
public final class PrintItemsFormatter: PrintFormatter {
    public let items: [PrintFormatter]

    public init(_ items: [PrintFormatter]) {
        self.items = items
        super.init()
    }

    public override var placesContent: Bool { items.contains { $0.placesContent } }

    /// Items laid out on their own, each with its own fonts.
    public override func makePageStream() throws -> FormattedPageStream {
        ItemStream(items: items, environment: nil)
    }

    /// Every item lays itself out with the renderer's fonts, as one formatter would: the job
    /// embeds each font once, whichever items draw with it.
    public override func makePageStream(in environment: LayoutEnvironment) throws -> FormattedPageStream {
        ItemStream(items: items, environment: environment)
    }

    private final class ItemStream: FormattedPageStream, ProgressEstimating {
        let items: [PrintFormatter]
        let environment: LayoutEnvironment?
        var index = 0
        var current: FormattedPageStream?

        /// Whether the current item has given no page yet.
        var fresh = true

        init(items: [PrintFormatter], environment: LayoutEnvironment?) { self.items = items; self.environment = environment }

        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            while index < items.count {
                if current == nil {
                    current = try items[index].pageStream(in: environment)
                    fresh = true
                }
                if let page = try current!.nextPage(fitting: size) {
                    defer { fresh = false }
                    return fresh && index > 0 ? FirstPageOfDocument(page: page) : page
                }
                current = nil
                index += 1
            }
            return nil
        }

        var fractionDone: Double? {
            guard !items.isEmpty else { return nil }
            let within = current?.fractionDone ?? 0
            return (Double(index) + within) / Double(items.count)
        }
    }
}

/// A page that begins a document of a `PrintItemsFormatter`; otherwise the page itself.
private struct FirstPageOfDocument: FormattedPage {
    let page: FormattedPage
    func draw(in context: GraphicsContext, rect: CGRect) throws { try page.draw(in: context, rect: rect) }
    var sheet: SheetRequest { page.sheet }
    var startsDocument: Bool { true }
}
