// SwiftPrint: the public library. It re-exports the core (paper, PrintInfo, formatters, page
// renderers, the PDF writer) and every content handler, and registers the handlers in one place.
@_exported import HandlerSupport
@_exported import PrintJobs
@_exported import TextHandler
@_exported import PDFHandler
@_exported import ImageHandler
@_exported import MarkupHandler
@_exported import MapHandler
@_exported import RasterHandler
@_exported import CUPSClient
@_exported import SwiftPrintDocument

extension HandlerRegistry {
    /// Every handler swiftprint ships. Adding a content type is one folder under Plugins/ and
    /// one line here.
    public static let standard = HandlerRegistry([
        TextHandler(),
        PDFHandler(),
        ImageHandler(),
        MarkupHandler(),
        MarkdownHandler(),
        MapHandler(),
        RasterHandler(),
    ])
}

extension Dispatcher {
    /// Every shipped handler, with libmagic detection (libmagic's database loads on the first
    /// detection; when it cannot, that detection fails with the reason).
    /// `Dispatcher.standard.canPrint(url:)`, `canPrint(data:)` and `printableUTIs` answer
    /// UIKit's questions.
    public static let standard = Dispatcher(registry: .standard, detector: ContentDetector.shared,
                                            converterHandler: { ExternalConverterHandler(command: $0) })
}
