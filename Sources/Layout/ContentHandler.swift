import Foundation
import PrintModel
import PrintOptions

/// A content handler: reads inputs of some types and lays them out as a print formatter.
/// Handlers live under `Plugins/` and are registered in one place (`HandlerRegistry.standard`).
public protocol ContentHandler: Sendable {
    /// A short name: `text`, `image`, `pdf`.
    var name: String { get }
    /// The UTIs this handler reads, most specific first: `public.plain-text`.
    var contentTypes: [String] { get }
    /// Opens `input` and returns a formatter for it, set up by the job's `settings` (each
    /// handler reads its part: `settings.text`, `settings.placement`, …). Called off the caller's
    /// thread is fine; the formatter is then used on one thread.
    func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter
}

/// The handlers swiftprint knows, in one list.
public struct HandlerRegistry: Sendable {
    public private(set) var handlers: [any ContentHandler]

    public init(_ handlers: [any ContentHandler]) { self.handlers = handlers }

    /// The handler for `uti`, or nil.
    public func handler(for uti: String) -> (any ContentHandler)? {
        handlers.first { $0.contentTypes.contains(uti) }
    }

    /// Every UTI some handler reads (UIKit's printableUTIs).
    public var printableUTIs: [String] { handlers.flatMap(\.contentTypes) }
}
