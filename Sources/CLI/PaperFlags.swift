import ArgumentParser
import SwiftPrint

/// Paper and job flags (`PaperOptions`).
struct PaperFlags: JobFlagGroup {
    static let declarations = PaperOptions.all
    @Option(name: PaperOptions.media.flag, help: PaperOptions.media.argumentHelp) var media: String?
    @Option(name: PaperOptions.orientation.flag, help: PaperOptions.orientation.argumentHelp) var orientation: String?
    @Option(name: PaperOptions.pageRanges.flag, help: PaperOptions.pageRanges.argumentHelp) var pageRanges: String?
    @Option(name: PaperOptions.copies.flag, help: PaperOptions.copies.argumentHelp) var copies: String?
    @Option(name: PaperOptions.margins.flag, help: PaperOptions.margins.argumentHelp) var margins: String?
    @Option(name: PaperOptions.outputType.flag, help: PaperOptions.outputType.argumentHelp) var outputType: String?
    @Option(name: PaperOptions.colorMode.flag, help: PaperOptions.colorMode.argumentHelp) var printColorMode: String?
    @Option(name: PaperOptions.header.flag, help: PaperOptions.header.argumentHelp) var header: String?
    @Option(name: PaperOptions.footer.flag, help: PaperOptions.footer.argumentHelp) var footer: String?
    @Option(name: PaperOptions.headerOn.flag, help: PaperOptions.headerOn.argumentHelp) var headerOn: String?
    @Option(name: PaperOptions.title.flag, help: PaperOptions.title.argumentHelp) var title: String?
}
