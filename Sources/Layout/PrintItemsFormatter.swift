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

    /// Each item lays itself out with its own fonts (`makePageStream()`), not the renderer's
    /// environment: one font map for the whole job would embed the same fonts, but it changes a
    /// mixed job's bytes, so it waits for a deliberate re-record of OutputIdentityTests.
    public override func makePageStream() throws -> FormattedPageStream {
        ItemStream(items: items)
    }

    private final class ItemStream: FormattedPageStream, ProgressEstimating {
        let items: [PrintFormatter]
        var index = 0
        var current: FormattedPageStream?

        /// Whether the current item has given no page yet.
        var fresh = true

        init(items: [PrintFormatter]) { self.items = items }

        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            while index < items.count {
                if current == nil { current = try items[index].makePageStream(); fresh = true }
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
