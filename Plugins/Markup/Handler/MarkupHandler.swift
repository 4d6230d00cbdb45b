import Foundation
import HandlerSupport

/// HTML documents, laid out by WebKitGTK offscreen in swiftprint-markup (started on the first
/// markup document and reused), as `MarkupTextPrintFormatter` pages.
///
/// Reads `settings.markup` (scripts), `settings.limits` (the time for loading and for laying
/// out, each 60 s by default; the renderer's memory) and `settings.localFiles` (the page may read files in its own folder, or, in a CUPS
/// job, nothing local).
public struct MarkupHandler: ContentHandler {
    public let name = "markup"
    public let contentTypes = ["public.html"]

    public init() {}

    public func makeFormatter(for input: PrintInput, settings: JobSettings) throws -> PrintFormatter {
        let formatter = MarkupTextPrintFormatter(file: input.path, displayName: input.displayName,
                                                 readsOwnFolder: settings.localFiles == .documentFolder)
        Self.configure(formatter, settings: settings)
        if settings.localFiles == .documentFolder, let folder = settings.markup.allowedFolder {
            formatter.allowedFolder = URL(fileURLWithPath: folder, isDirectory: true)
        }
        return formatter
    }

    static func configure(_ formatter: MarkupTextPrintFormatter, settings: JobSettings) {
        formatter.scriptsEnabled = settings.markup.scripts
        formatter.timeout = settings.limits.markupSeconds
        formatter.rendererMemoryBytes = settings.limits.helperMegabytes << 20
    }
}
