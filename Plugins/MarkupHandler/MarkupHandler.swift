import Foundation
import SwiftPrintCore

/// HTML documents, laid out by WebKitGTK offscreen in swiftprint-markup (started on the first
/// markup document and reused), as `MarkupTextPrintFormatter` pages.
///
/// Options read, by name: `scripts` (the page's own scripts run; off by default),
/// `markup-timeout` (seconds for loading, and for laying out, each; default 60), `local-files`
/// (`folder`, the default: the page may read files in its own folder; `none`: nothing local,
/// which the CUPS filter always sets).
public struct MarkupHandler: ContentHandler {
    public let name = "markup"
    public let contentTypes = ["public.html"]

    public init() {}

    public func makeFormatter(for input: PrintInput, options: HandlerOptions, info: PrintInfo) throws -> PrintFormatter {
        let formatter = MarkupTextPrintFormatter(file: input.path, displayName: input.displayName,
                                                 readsOwnFolder: try Self.readsOwnFolder(options))
        try Self.configure(formatter, options: options)
        return formatter
    }

    static func readsOwnFolder(_ options: HandlerOptions) throws -> Bool {
        switch options["local-files"] ?? "folder" {
        case "folder": return true
        case "none": return false
        case let v: throw PrintError(.invalidOption, "local-files \"\(v)\" is not valid (folder or none)")
        }
    }

    static func configure(_ formatter: MarkupTextPrintFormatter, options: HandlerOptions) throws {
        formatter.scriptsEnabled = options["scripts"] == "true"
        if let t = options["markup-timeout"] {
            guard let seconds = Double(t), seconds > 0, seconds <= 3600 else {
                throw PrintError(.invalidOption, "markup-timeout \"\(t)\" is not valid (seconds, more than 0, at most 3600)")
            }
            formatter.timeout = seconds
        }
    }
}
