import ArgumentParser
import SwiftPrint

/// HTML and Markdown (`MarkupOptions`).
struct MarkupFlags: JobFlagGroup {
    static let declarations = MarkupOptions.all
    @Flag(name: MarkupOptions.scripts.flag, help: MarkupOptions.scripts.argumentHelp) var scripts = false
    @Option(name: MarkupOptions.timeout.flag, help: MarkupOptions.timeout.argumentHelp) var markupTimeout: String?
}
