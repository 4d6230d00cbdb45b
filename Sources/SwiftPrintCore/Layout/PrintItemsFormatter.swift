import Foundation

/// Several formatters one after the other, each starting on a new page: UIKit's printingItems,
/// for every kind of content. Pages are numbered continuously across the items.
public final class PrintItemsFormatter: PrintFormatter {
    public let items: [PrintFormatter]

    public init(_ items: [PrintFormatter]) {
        self.items = items
        super.init()
    }

    public override var placesContent: Bool { items.contains { $0.placesContent } }

    public override func makePageStream() throws -> FormattedPageStream {
        ItemStream(items: items)
    }

    private final class ItemStream: FormattedPageStream, ProgressEstimating {
        let items: [PrintFormatter]
        var index = 0
        var current: FormattedPageStream?

        init(items: [PrintFormatter]) { self.items = items }

        func nextPage(fitting size: CGSize) throws -> FormattedPage? {
            while index < items.count {
                if current == nil { current = try items[index].makePageStream() }
                if let page = try current!.nextPage(fitting: size) { return page }
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
