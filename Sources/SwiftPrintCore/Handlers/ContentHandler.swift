import Foundation

/// An input to print: a file, standard input, or bytes, with what is known of its type.
public struct PrintInput: Sendable {
    /// The file's path, or `-` for standard input.
    public var path: String
    /// Bytes given directly (a Swift value), instead of a file.
    public var data: Data?
    /// The name people know it by: the file name, `stdin`, or a caller's choice.
    public var displayName: String
    /// The MIME type the sender declared (CUPS's CONTENT_TYPE). Used when swiftprint prints
    /// that type; otherwise the content is detected as usual.
    public var declaredMIMEType: String?

    public init(path: String) {
        self.path = path
        displayName = path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent
    }

    public init(data: Data, name: String) {
        path = name; self.data = data; displayName = name
    }
}

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
